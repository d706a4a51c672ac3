"""The public inference API: load a punctuating pipeline, punctuate texts or
records in batches, the output record, class probabilities for tuning, and
evaluation of a pipeline on a DocBin.

Every function raises an exception on bad input (never exits), so a library
user, a worker process and the command line share them.
"""
import json
import random
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

import numpy
import spacy
from spacy.attrs import IDX, SENT_START
from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc
from spacy.training import Example
from thinc.api import use_ops

from .align import gold_classes
from .bundled import resolve_model
from .extensions import register_extensions, set_token_values, token_values
from .factory_imports import named_factories_only
from .punctuator import Punctuator
from .rewrite import rewrite_doc
from .threads import DEFAULT_THREADS, set_threads
from .timed import RecordError, record_word_list, timed_words, words_doc
from .training.augment import create_asr_noise_augmenter, create_case_noise_augmenter, create_chained_augmenters
from .training.corpus import PunctCorpus
from .word_records import gold_doc, read_docbins, word_records

register_extensions()

Record = Mapping[str, Any]


class PipelineError(ValueError):
    """A pipeline cannot be loaded, or cannot punctuate."""


def find_punctuator(nlp: Language) -> Tuple[str, Punctuator]:
    """The pipeline's punctuator and its name."""
    for name, pipe in nlp.pipeline:
        if isinstance(pipe, Punctuator):
            return name, pipe
    raise PipelineError(f"The pipeline has no punctuator component (it has {nlp.pipe_names}).")


def load_pipeline(
    model: Union[str, Path], config: Optional[Dict[str, Any]] = None, *, threads: Optional[int] = DEFAULT_THREADS
) -> Language:
    """Load a pipeline (a bundled pipeline's name such as "en" or
    "en_punct_sm", a package name or a folder) and check that it has a
    punctuator. `config`: overrides, as for `spacy.load`
    (e.g. {"components": {"punctuator": {"keep_existing": True}}}).
    `threads`: torch's threads for this process from now on (see
    `spacy_punct.threads`): one by default, which stays fast when other
    processes share the cores; None leaves torch's setting as it is."""
    set_threads(threads)
    try:
        # dense layers through numpy's BLAS: several times faster on CPUs than
        # thinc's default (blis) for the same products
        path = resolve_model(model)
        with use_ops("numpy", use_blis=False), named_factories_only(path, config):
            nlp = spacy.load(path, config=config or {})
    except (OSError, IOError) as e:
        raise PipelineError(f"Cannot load pipeline {str(model)!r}: {e}") from e
    try:
        find_punctuator(nlp)
    except PipelineError as e:
        raise PipelineError(f"Pipeline {str(model)!r}: {e}") from None
    return nlp


# texts longer than this many characters are punctuated in pieces
LONG_TEXT_CHARS = 100_000
# a piece: this many tokens, read with this many tokens of context on each side
PIECE_TOKENS = 5_000
CONTEXT_TOKENS = 200


def punctuate(nlp: Language, texts: Iterable[str], *, batch_size: int = 64) -> Iterator[Doc]:
    """The punctuated doc of each text, in order. Texts are read lazily and
    processed `batch_size` at a time, so memory stays bounded on any stream;
    texts of any length are punctuated (see `punctuate_pieces`)."""
    if isinstance(texts, (str, Doc)):
        # a string is an iterable too: of one-character texts
        raise TypeError("punctuate takes an iterable of texts, such as a list or a file; for one text, "
                        "give [text].")
    return (doc for doc, _ in punctuate_docs(nlp, ((text, None) for text in texts), batch_size=batch_size))


def punctuate_records(nlp: Language, records: Iterable[Record], *, batch_size: int = 64) -> Iterator[Dict[str, Any]]:
    """The output record of each input record (see `record_doc` and
    `output_record`), in order, read lazily."""
    if isinstance(records, (Mapping, str)):
        raise TypeError("punctuate_records takes an iterable of records; for one record, give [record].")
    items = ((record_doc(nlp, record, number), record) for number, record in enumerate(records, start=1))
    return (output_record(doc, record) for doc, record in punctuate_docs(nlp, items, batch_size=batch_size))


def punctuate_docs(
    nlp: Language, items: Iterable[Tuple[Union[str, Doc], Any]], *, batch_size: int = 64
) -> Iterator[Tuple[Doc, Any]]:
    """Run the pipeline over (text or doc, context) pairs; yield (punctuated
    doc, context) in order. Long texts are punctuated in pieces and joined."""
    pieces: List[Doc] = []
    for doc, context, item, last in punctuate_parts(nlp, items, batch_size=batch_size):
        if last and not pieces:
            yield doc, context
            continue
        pieces.append(doc)
        if last:
            yield _join(pieces, item), context
            pieces = []


def punctuate_parts(
    nlp: Language, items: Iterable[Tuple[Union[str, Doc], Any]], *, batch_size: int = 64
) -> Iterator[Tuple[Doc, Any, Union[str, Doc], bool]]:
    """Like `punctuate_docs`, but a long text comes as the punctuated docs of
    its pieces (see `punctuate_pieces`), as they are done: yields (doc,
    context, item, whether this is the item's last part). A pipeline whose
    punctuator annotates in place without a `punct_rewriter` after it has its
    docs rewritten here. An error reading `items` comes after the results of
    the items read before it."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size}.")
    batch: List[Tuple[Doc, Any]] = []
    items = iter(items)
    while True:
        try:
            item, context = next(items)
        except StopIteration:
            break
        except Exception:
            yield from _run(nlp, batch, batch_size)  # what was read before a bad input is done
            raise
        if isinstance(item, str) and len(item) > LONG_TEXT_CHARS:
            yield from _run(nlp, batch, batch_size)
            batch = []
            pieces = punctuate_pieces(nlp, item)
            piece = next(pieces)
            for following in pieces:
                yield piece, context, item, False
                piece = following
            yield piece, context, item, True
            continue
        doc = nlp.make_doc(item) if isinstance(item, str) else item
        batch.append((doc, (context, item)))
        if len(batch) >= batch_size:
            yield from _run(nlp, batch, batch_size)
            batch = []
    yield from _run(nlp, batch, batch_size)


def _run(nlp: Language, batch: List[Tuple[Doc, Any]], batch_size: int) -> Iterator[Tuple[Doc, Any, Any, bool]]:
    for doc, (context, item) in nlp.pipe(batch, as_tuples=True, batch_size=batch_size):
        yield (doc if doc._.source_map is not None else rewrite_doc(doc)), context, item, True


def punctuate_pieces(
    nlp: Language, text: str, *, piece_tokens: Optional[int] = None, context_tokens: Optional[int] = None
) -> Iterator[Doc]:
    """Punctuate a text of any length in pieces of about `piece_tokens` tokens
    (default PIECE_TOKENS), each read with `context_tokens` tokens of context
    on either side (default CONTEXT_TOKENS); yield each piece's punctuated
    doc. The pieces' texts joined are the punctuated text. Memory is bounded by
    the piece size, not the text length."""
    piece_tokens = piece_tokens or PIECE_TOKENS
    context_tokens = CONTEXT_TOKENS if context_tokens is None else context_tokens
    tokens = _tokens(nlp, text)
    window: List[Tuple[str, str]] = []  # (text, whitespace) of the tokens read
    start = 0  # index in `window` of the next piece's first token
    for token in tokens:
        window.append(token)
        if len(window) - start >= piece_tokens + context_tokens:
            end = _piece_end(window, start + piece_tokens)
            if end is not None:
                yield _piece(nlp, window, start, end, context_tokens, last=False)
                drop = max(0, end - context_tokens)
                window, start = window[drop:], end - drop
    if start < len(window):
        yield _piece(nlp, window, start, len(window), context_tokens, last=True)


def _tokens(nlp: Language, text: str) -> Iterator[Tuple[str, str]]:
    """The (text, whitespace) of each token of a text, tokenised in parts cut
    at whitespace so that no part reaches the tokenizer's length limit."""
    part_chars = min(nlp.max_length, LONG_TEXT_CHARS)
    position = 0
    while position < len(text):
        end = min(position + part_chars, len(text))
        if end < len(text):
            cut = max(text.rfind(" ", position, end), text.rfind("\n", position, end))
            end = cut + 1 if cut > position else end
        for token in nlp.make_doc(text[position:end]):
            yield token.text, token.whitespace_
        position = end


def _piece_end(window: List[Tuple[str, str]], target: int) -> Optional[int]:
    """The first index from `target` at which a piece may end: after a token
    followed by whitespace, before a token that is no punctuation (so that a
    word's marks and the words written together stay in one piece)."""
    from .labels import is_mark

    for end in range(target, len(window)):
        text, space = window[end - 1]
        if space and not window[end][0].isspace() and not is_mark(window[end][0]):
            return end
    return None


def _piece(nlp: Language, window: List[Tuple[str, str]], start: int, end: int, context: int, last: bool) -> Doc:
    """Punctuate window[start:end] with up to `context` tokens on each side;
    `last`: the piece ends the text."""
    left = max(0, start - context)
    right = min(len(window), end + context)
    part = window[left:right]
    doc = Doc(nlp.vocab, words=[t for t, _ in part], spaces=[bool(s) for _, s in part])
    doc._.open_end = not last
    annotated = nlp(doc)
    if annotated._.source_map is not None:
        annotated = doc  # the punctuator annotated the input before rewriting it
    core = annotated[start - left : end - left].as_doc()
    for token, source in zip(core, annotated[start - left : end - left]):
        token._.punct = source._.punct
    return rewrite_doc(core)


def _join(pieces: List[Doc], text: str) -> Doc:
    """One punctuated doc from the punctuated pieces of a text."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"\[W101\]")  # the doc attributes are set below
        doc = Doc.from_docs(pieces, ensure_whitespace=False)
    source_map: List[int] = []
    offsets: List[int] = []
    n_tokens = n_chars = 0
    for piece in pieces:
        source_map += [i + n_tokens if i >= 0 else -1 for i in piece._.source_map]
        offsets += [o + n_chars if o >= 0 else -1 for o in piece._.source_offsets]
        n_tokens += sum(1 for i in piece._.source_map if i >= 0)
        n_chars += len(piece._.source_text)
    doc._.source_map, doc._.source_offsets, doc._.source_text = source_map, offsets, text
    return doc


def record_doc(nlp: Language, record: Record, number: int = 0) -> Doc:
    """The doc of an input record: {"text": ...} or timed words in one of the
    shapes of `timed.record_word_list` ({"words": [{"word", "start", "end"},
    ...]}, timings in seconds, optional), with any other fields (an "id")
    passed through to the output. Tokens get the timings of the word they are
    part of in `token._.start_time` and `token._.end_time`."""
    where = f"record {number}" if number else "record"
    if not isinstance(record, Mapping):
        raise RecordError(f"{where}: expected an object with 'text' or 'words', got {type(record).__name__}.")
    entries = record_word_list(record, where)
    if entries is not None:
        return words_doc(nlp, timed_words(entries, where))
    text = record.get("text")
    if not isinstance(text, str):
        raise RecordError(f"{where}: expected a string 'text' (or a 'words' list).")
    return nlp.make_doc(text)


def record_line(output: Mapping[str, Any]) -> str:
    """An output record (see `output_record`) as a line of JSONL (no newline)."""
    return json.dumps(output, ensure_ascii=False)


def output_record(doc: Doc, record: Optional[Record] = None) -> Dict[str, Any]:
    """The output record of a punctuated doc: the input record's fields as
    they were, the input text ("text"; "source_text" where a record of timed
    words has a different text of its own), the punctuated text, the
    sentences, and per token its offsets, the input token and offset it came
    from, its mark and its timings."""
    output = dict(record or {})  # every input field kept as it was: a word list with its words' extra fields too
    source = doc._.source_text if doc._.source_text is not None else doc.text
    if isinstance(output.get("text"), str) and output["text"] != source:
        # a record with timed words and a text of its own: the text stays, and
        # the tokens' source offsets refer to the words joined by spaces
        output["source_text"] = source
    else:
        output["text"] = source
    output["punctuated"] = doc.text
    # read from arrays, not Token objects: this runs once per record of a dataset
    texts = [token.text for token in doc]
    starts = doc.to_array([IDX]).tolist() if len(doc) else []
    ends = [start + len(text) for start, text in zip(starts, texts)]
    output["sentences"] = _sentence_texts(doc, starts, ends)
    sources = doc._.source_map or list(range(len(doc)))
    source_starts = doc._.source_offsets or starts
    marks = token_values(doc, "punct", starts)
    start_times = token_values(doc, "start_time", starts)
    end_times = token_values(doc, "end_time", starts)
    tokens = []
    for i, text in enumerate(texts):
        entry = {
            "text": text,
            "start": starts[i],
            "end": ends[i],
            "source": sources[i] if sources[i] >= 0 else None,
            "source_start": source_starts[i] if source_starts[i] >= 0 else None,
            "punct": marks[i],
        }
        if start_times[i] is not None:
            entry["start_time"] = start_times[i]
            entry["end_time"] = end_times[i]
        tokens.append(entry)
    output["tokens"] = tokens
    return output


def _sentence_texts(doc: Doc, starts: List[int], ends: List[int]) -> List[str]:
    """The texts of a doc's sentences (as `doc.sents` gives them), blank ones left out."""
    if not len(doc):
        return []
    first = [i for i, start in enumerate(doc.to_array([SENT_START]).tolist()) if start == 1 and i > 0]
    bounds = zip([0] + first, first + [len(doc)])
    texts = (doc.text[starts[begin] : ends[end - 1]] for begin, end in bounds)
    return [text for text in texts if text.strip()]


def predict_probs(nlp: Language, docs: Iterable[Doc], *, batch_size: int = 64) -> Iterator[Tuple[Doc, numpy.ndarray]]:
    """Each doc with the punctuator's class probabilities per token. The
    components before the punctuator annotate the docs; nothing is decided or
    rewritten, and the pipeline's settings are not touched."""
    name, pipe = find_punctuator(nlp)
    after = nlp.pipe_names[nlp.pipe_names.index(name) :]
    with nlp.select_pipes(disable=after):
        batches = spacy.util.minibatch(nlp.pipe(docs, batch_size=batch_size), size=batch_size)
        for batch in batches:
            for doc, probs in zip(batch, pipe.predict(batch)):
                yield doc, pipe.model.ops.to_numpy(probs)


def run_pipeline(
    nlp: Language, examples: List[Example], progress: Optional[Callable[[int], None]] = None
) -> List[Example]:
    """The examples with the pipeline's output on a copy of their input as
    the predicted side (as `Language.evaluate` runs it); `progress` is called
    with the number of words of each document done."""
    docs = nlp.pipe((eg.predicted.copy() for eg in examples), batch_size=nlp.batch_size)
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


def punctuated_examples(nlp: Language, data: Union[str, Path], lowercase: bool = True) -> List[Example]:
    """Examples whose input is each document as written, punctuation and all
    (its tokens lower-cased with `lowercase`), against the gold form of the
    same document: the case of punctuated text to restore."""
    examples = []
    for doc in read_docbins(data, nlp.vocab):
        spaces = [bool(token.whitespace_) for token in doc]
        # the reference without the test set's part-of-speech tags, so that
        # both sides tell marks from words by their characters
        written = Doc(nlp.vocab, words=[token.text for token in doc], spaces=spaces)
        words = [token.text.lower() if lowercase else token.text for token in doc]
        predicted = Doc(nlp.vocab, words=words, spaces=spaces)
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
    gold_marks: bool = False,
    input_marks: bool = False,
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
    gold_marks: the punctuator's decisions are the test set's marks: the
        components before it (a truecaser) are scored as with a perfect
        punctuator, whose sentence ends decide the sentence-initial capitals.
    input_marks: the pipeline reads each document with its punctuation
        (lower-cased, or as written) and adds no mark (`add_marks` off): its
        case scores are those of truecasing punctuated text.
    progress: called with the number of words of each document done.
    """
    if not 0.0 <= asr_noise <= 1.0:
        raise ValueError(f"asr_noise must be between 0 and 1, not {asr_noise}.")
    if asr_noise_words and not asr_noise:
        raise ValueError("asr_noise_words says which words the simulated errors put in: give asr_noise too.")
    if input_case not in INPUT_CASES:
        raise ValueError(f"input_case must be one of {', '.join(INPUT_CASES)}, not {input_case!r}.")
    augmenters = []
    if asr_noise:
        augmenters.append(create_asr_noise_augmenter(level=asr_noise, unknown_share=0.0 if asr_noise_words else 1.0))
    if input_case in ("upper", "title"):
        augmenters.append(
            create_case_noise_augmenter(upper=float(input_case == "upper"), title=float(input_case == "title"), natural=0.0)
        )
    augmenter = create_chained_augmenters(*augmenters) if augmenters else None
    if input_marks:
        if augmenter is not None or max_length or gold_marks:
            raise ValueError("input_marks reads whole documents as written: give no asr_noise, max_length, "
                             "gold_marks, or upper or title input case.")
        examples = punctuated_examples(nlp, data, lowercase=input_case == "lower")
    else:
        random.seed(seed)
        corpus = PunctCorpus(data, lowercase=input_case != "written", max_length=max_length, augmenter=augmenter)
        examples = list(corpus(nlp))
    if not examples:
        raise ValueError(f"{data} holds no documents.")
    punctuator = find_punctuator(nlp)[1]
    add_marks = punctuator.add_marks
    punctuator.add_marks = not input_marks
    start = time.perf_counter()
    try:
        scored = with_gold_marks(nlp, examples) if gold_marks else run_pipeline(nlp, examples, progress)
        scores = Scorer(nlp).score(scored)
    finally:
        punctuator.add_marks = add_marks
    seconds = time.perf_counter() - start
    n_words = sum(len(eg.reference) for eg in examples)
    result = {key: value for key, value in scores.items() if key.startswith(("punct_", "sents_", "case_"))}
    result.update({"words": n_words, "words_per_second": n_words / seconds})
    if gold_marks:
        result["gold_marks"] = True
    if input_marks:
        result["input_marks"] = True
    return result
