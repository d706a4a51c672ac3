"""Scoring a pipeline on a DocBin of natural punctuated text, as spaCy scores
it: on bare input in any case, under simulated recognition errors, with the
gold marks in place of the punctuator's, or on punctuated input."""

import json
import random
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union

from spacy.attrs import IDX
from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc
from spacy.training import Example

from ..align import gold_classes
from ..decode import DecisionSettings
from ..extensions import register_extensions, set_token_values
from ..labels import is_mark, is_replaceable
from ..languages import language_entry
from ..pipelines.loading import find_punctuator, settings_cfg
from ..rewrite import rewrite_doc
from ..training.augment import create_asr_noise_augmenter, create_case_noise_augmenter, create_chained_augmenters
from ..training.corpus import PunctCorpus
from ..training.spoken_numbers import create_spoken_numbers_augmenter
from ..word_records import gold_doc, read_docbins, word_records

register_extensions()


def run_pipeline(
    nlp: Language,
    examples: List[Example],
    progress: Optional[Callable[[int], None]] = None,
    settings: Optional[DecisionSettings] = None,
) -> List[Example]:
    """The examples with the pipeline's output on a copy of their input as
    the predicted side (as `Language.evaluate` runs it), decided under
    `settings` if given; `progress` is called with the number of words of
    each document done."""
    docs = nlp.pipe(
        (eg.predicted.copy() for eg in examples), batch_size=nlp.batch_size, component_cfg=settings_cfg(nlp, settings)
    )
    done = []
    for example, doc in zip(examples, docs):
        done.append(Example(doc, example.reference))
        if progress is not None:
            progress(len(example.reference))
    return done


def with_gold_marks(nlp: Language, examples: List[Example]) -> List[Example]:
    """The examples with the pipeline's output written with the gold marks:
    the components before the punctuator run, then the rewrite writes the
    reference's marks where the punctuator's decisions would go."""
    name, punctuator = find_punctuator(nlp)
    label_set = punctuator.label_set
    with nlp.select_pipes(disable=nlp.pipe_names[nlp.pipe_names.index(name) :]):
        docs = list(nlp.pipe(eg.predicted for eg in examples))
    marked = []
    for doc, example in zip(docs, examples):
        classes = gold_classes(Example(doc, example.reference), label_set)
        offsets = doc.to_array([IDX]).tolist() if len(doc) else []
        set_token_values(doc, "punct", offsets, [label_set.marks[max(c, 0)] for c in classes])
        marked.append(Example(rewrite_doc(doc), example.reference))
    return marked


def punctuated_examples(
    nlp: Language, data: Union[str, Path], lowercase: bool = True, replaceable: bool = True
) -> List[Example]:
    """Examples whose input is each document as written, punctuation and all
    (its tokens lower-cased with `lowercase`; without `replaceable`, the
    marks a prediction may replace removed, `,` `.` `?` `:` and the like,
    but quotes, brackets and dashes kept), against the gold form of the same
    document: the case of punctuated text to restore, or the text to
    punctuate that carries its writer's quotes."""
    examples = []
    for doc in read_docbins(data, nlp.vocab):
        spaces = [bool(token.whitespace_) for token in doc]
        # the reference without the test set's part-of-speech tags, so that
        # both sides tell marks from words by their characters
        written = Doc(nlp.vocab, words=[token.text for token in doc], spaces=spaces)
        words: List[str] = []
        kept_spaces: List[bool] = []
        for token in doc:
            if not replaceable and is_mark(token.text) and is_replaceable(token.text):
                if kept_spaces:  # `hello, world`: the space after the comma goes to `hello`
                    kept_spaces[-1] = kept_spaces[-1] or bool(token.whitespace_)
                continue
            words.append(token.text.lower() if lowercase else token.text)
            kept_spaces.append(bool(token.whitespace_))
        predicted = Doc(nlp.vocab, words=words, spaces=kept_spaces)
        examples.append(Example(predicted, gold_doc(nlp.vocab, word_records(written))))
    return examples


# the case of the words a pipeline reads in `evaluate`
INPUT_CASES = ("lower", "upper", "title", "written")


def evaluate(
    nlp: Language,
    data: Union[str, Path],
    *,
    input_case: str = "lower",
    max_length: int = 0,
    asr_noise: float = 0.0,
    asr_noise_words: bool = False,
    spoken_numbers: bool = False,
    gold_marks: bool = False,
    input_marks: bool = False,
    keep_quotes: bool = False,
    seed: int = 0,
    progress: Optional[Callable[[int], None]] = None,
) -> Dict[str, Any]:
    """Score a pipeline on a .spacy test set (natural punctuated text): the
    `punct_*`, `sents_*` and `case_*` scores, the number of words and words/s.

    input_case: how the words the pipeline reads are written: "lower" (as
        most recognisers write), "upper" (all capitals, as some do), "title"
        (every word capitalised) or "written" (as in the test set).
    asr_noise: alter this share of the words first (`spacy_punct.asr_noise.v1`,
        seeded by `seed`), to simulate recognition errors.
    asr_noise_words: the errors put other words of the text where the
        `[UNK]` placeholder goes otherwise.
    spoken_numbers: write the numbers as an English recogniser does
        (`spacy_punct.spoken_numbers_en.v1`: `1995` as `nineteen ninety
        five`), before any simulated error.
    gold_marks: the punctuator's decisions are the test set's marks: the
        components before it (a truecaser) are scored as with a perfect
        punctuator, whose sentence ends decide the sentence-initial capitals.
    input_marks: the pipeline reads each document with its punctuation
        (lower-cased, or as written) and adds no mark (`add_marks` off): its
        case scores are those of truecasing punctuated text.
    keep_quotes: the pipeline reads each document with the marks a
        prediction never replaces (quotes, brackets, dashes) and punctuates
        it: the scores of text that carries its writer's quotes.
    progress: called with the number of words of each document done.
    """
    if not 0.0 <= asr_noise <= 1.0:
        raise ValueError(f"asr_noise must be between 0 and 1, not {asr_noise}.")
    if asr_noise_words and not asr_noise:
        raise ValueError("asr_noise_words says which words the simulated errors put in: give asr_noise too.")
    if input_case not in INPUT_CASES:
        raise ValueError(f"input_case must be one of {', '.join(INPUT_CASES)}, not {input_case!r}.")
    if spoken_numbers and nlp.lang != "en":
        raise ValueError(f"spoken_numbers writes English numbers; the pipeline's language is {nlp.lang!r}.")
    language = language_entry(nlp.lang or "")
    if (gold_marks or input_marks) and not language.cased:
        option = "gold_marks" if gold_marks else "input_marks"
        raise ValueError(f"{option} scores the case of the words, and {language.name} has none.")
    augmenters = [create_spoken_numbers_augmenter(share=1.0)] if spoken_numbers else []
    if asr_noise:
        augmenters.append(create_asr_noise_augmenter(level=asr_noise, unknown_share=0.0 if asr_noise_words else 1.0))
    if input_case in ("upper", "title"):
        augmenters.append(
            create_case_noise_augmenter(
                upper=float(input_case == "upper"), title=float(input_case == "title"), natural=0.0
            )
        )
    augmenter = create_chained_augmenters(*augmenters) if augmenters else None
    if input_marks or keep_quotes:
        option = "input_marks" if input_marks else "keep_quotes"
        if augmenter is not None or max_length or gold_marks or (input_marks and keep_quotes):
            raise ValueError(
                f"{option} reads whole documents as written: give no asr_noise, spoken_numbers, max_length, "
                "gold_marks, input_marks with keep_quotes, or upper or title input case."
            )
        examples = punctuated_examples(nlp, data, lowercase=input_case == "lower", replaceable=input_marks)
    else:
        random.seed(seed)
        corpus = PunctCorpus(data, lowercase=input_case != "written", max_length=max_length, augmenter=augmenter)
        examples = list(corpus(nlp))
    if not examples:
        raise ValueError(f"{data} holds no documents.")
    settings = find_punctuator(nlp)[1].settings.replace(add_marks=not input_marks)
    start = time.perf_counter()
    scored = with_gold_marks(nlp, examples) if gold_marks else run_pipeline(nlp, examples, progress, settings)
    scores = Scorer(nlp).score(scored)
    seconds = time.perf_counter() - start
    n_words = sum(len(eg.reference) for eg in examples)
    result = {key: value for key, value in scores.items() if key.startswith(("punct_", "sents_", "case_"))}
    result.update({"words": n_words, "words_per_second": n_words / seconds})
    if gold_marks:
        result["gold_marks"] = True
    if input_marks:
        result["input_marks"] = True
    if keep_quotes:
        result["keep_quotes"] = True
    return result


RUN_FILE = "run.json"


def run_record(nlp: Language, model: str) -> Dict[str, Any]:
    """What a folder of a run's scores says of the pipeline scored: the name
    or path it was loaded by, its description and language, the recipe it
    was trained with (from `spacy-punct train`'s training.json beside a
    trained pipeline) and, for a bundled pipeline, the micro F1 its
    language's registry aims at on each test set."""
    record: Dict[str, Any] = {"pipeline": model, "lang": nlp.lang, "description": nlp.meta.get("description", "")}
    summary = Path(model).parent / "training.json"
    if summary.is_file():
        record["recipe"] = json.loads(summary.read_text(encoding="utf8")).get("recipe")
    name = f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', '')}"
    targets = language_entry(nlp.lang or "").targets.get(name)
    if targets:
        record["targets"] = dict(targets)
    return record
