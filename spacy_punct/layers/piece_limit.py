"""Transformer windows within the encoder's limit: no word loses its pieces.

A span getter counts words, but a word can be many word pieces (a run of
Chinese or Japanese characters, which spaCy keeps as one token; a long
identifier). A window over the tokenizer's `model_max_length` is cut at its
end by spacy-transformers, and the words after the cut get no vectors, so
they get no marks: silently. Here a batch whose tokenization reached the
limit is read again with each window over it split in halves, by words,
until every half fits; a single word over the limit, which no window can
hold, is read alone from its first pieces, with a warning, and its
neighbours in full. Windows within the limit (the common case) are read as
the span getter made them, at the cost of one look at the batch's shape, so
a doc's windows never depend on the other docs in its batch.
"""

import warnings
from typing import Any, Callable, List, Optional, Tuple

from spacy.tokens import Span
from thinc.api import Model

PieceCounter = Callable[[List[str]], List[int]]
# the key under which a transformers tokenizer records that it has warned of a
# sequence over its `model_max_length`
_TOO_LONG_WARNING = "sequence-length-is-longer-than-the-specified-maximum"


def limit_window_pieces(model: Model) -> None:
    """Make the spacy-transformers `TransformerModel` `model` split any
    window over its tokenizer's `model_max_length` instead of cutting it."""
    if model._func is not _piece_limited_forward:
        model.attrs["piece_limit_inner"] = model._func
        model._func = _piece_limited_forward


def _piece_limited_forward(model: Model, docs: List[Any], is_train: bool) -> Tuple[Any, Callable]:
    # module-level, its state in attrs, so that the pipeline pickles
    inner = model.attrs["piece_limit_inner"]
    tokenizer = getattr(model, "tokenizer")  # spacy-transformers' TransformerModel
    # windows over the limit are split below, so the tokenizer's warning that
    # they "will result in indexing errors" does not hold: mark it as given
    warned = getattr(tokenizer, "deprecation_warnings", None)
    if isinstance(warned, dict):
        warned[_TOO_LONG_WARNING] = True
    output, backprop = inner(model, docs, is_train)
    limit = tokenizer.model_max_length
    if output.wordpieces.input_ids.shape[1] < limit:
        return output, backprop
    get_spans = model.attrs["get_spans"]
    fitted = fit_windows(get_spans(docs), piece_counter(tokenizer), limit)
    if fitted is None:
        return output, backprop
    model.attrs["get_spans"] = _FittedSpans(fitted)
    try:
        return inner(model, docs, is_train)
    finally:
        model.attrs["get_spans"] = get_spans


class _FittedSpans:
    """The windows of one batch, already fitted to the encoder's limit."""

    def __init__(self, spans: Any) -> None:
        self.spans = spans

    def __call__(self, docs: Any) -> Any:
        return self.spans


def piece_counter(tokenizer: Any) -> PieceCounter:
    """How many pieces, special ones included, the tokenizer makes of each text."""

    def count(texts: List[str]) -> List[int]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            encoded = tokenizer(texts, add_special_tokens=True, verbose=False)["input_ids"]
        return [len(ids) for ids in encoded]

    return count


def fit_windows(windows: List[List[Span]], count: PieceCounter, limit: int) -> Optional[List[List[Span]]]:
    """Per doc, its windows with each one over `limit` pieces split in halves
    by words until every part fits or holds one word; None when all fit."""
    flat = [span for spans in windows for span in spans]
    counts = iter(count([span.text for span in flat]))
    fitted = [[part for span in spans for part in fit_window(span, next(counts), count, limit)] for spans in windows]
    return None if sum(len(spans) for spans in fitted) == len(flat) else fitted


def fit_window(span: Span, n_pieces: int, count: PieceCounter, limit: int) -> List[Span]:
    """The span, or its parts of at most `limit` pieces each: split around
    its word of most pieces, so that word's neighbours stay in windows as
    long as the limit allows. A part of one word may exceed the limit: it is
    cut to its first pieces, with a warning."""
    if n_pieces <= limit:
        return [span]
    words = [token.i for token in span if not token.is_space]
    if len(words) < 2:
        warnings.warn(
            f"A word of {n_pieces} word pieces is more than the encoder reads at once ({limit}): "
            f"it is read from its first pieces ({span.text[:40]!r}…).",
            stacklevel=2,
        )
        return [span]
    sizes = count([span.doc[i].text for i in words])
    at = max(range(len(words)), key=sizes.__getitem__)
    cuts = (
        [span.start]
        + ([words[at - 1] + 1] if at else [])
        + ([words[at + 1]] if at + 1 < len(words) else [])
        + [span.end]
    )
    parts = [span.doc[start:end] for start, end in zip(cuts, cuts[1:])]
    fitted = []
    for part, n in zip(parts, count([part.text for part in parts])):
        fitted.extend(fit_window(part, n, count, limit))
    return fitted
