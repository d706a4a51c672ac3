"""Pause features from word timings (Minixhofer 2021; the [PAUSE] token of
speech-aware punctuators): per token, a one-hot vector of the silence after
it, bucketed by `thresholds` in seconds, with one more column for "no timing
known". Tokens of one word (`did`, `n't`) share the word's timings; the pause
after a word is the next word's start minus its end."""

from typing import Callable, List, Sequence, Tuple, cast

import numpy
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model
from thinc.types import Floats2d

from ..extensions import register_extensions, token_values


@registry.layers("spacy_punct.PauseFeatures.v1")
def build_pause_features(thresholds: Sequence[float] = (0.1, 0.28, 0.6, 1.2)) -> Model[List[Doc], List[Floats2d]]:
    """A pause after a token falls in bucket i when it is at least
    thresholds[i - 1] and below thresholds[i] seconds; `[0.28]` alone is a
    pause indicator at 280 ms. Output width: len(thresholds) + 2."""
    thresholds = [float(t) for t in thresholds]
    if not thresholds or any(b <= a for a, b in zip(thresholds, thresholds[1:])) or thresholds[0] <= 0:
        raise ValueError(f"thresholds must be positive and increasing, not {thresholds}.")
    register_extensions()
    return Model(
        "pause_features",
        _forward,
        attrs={"thresholds": thresholds},
        dims={"nO": len(thresholds) + 2},
    )


def pause_after(doc: Doc) -> List[float]:
    """Per token, the silence after it in seconds: 0 inside a word, NaN where
    it is not known (no timings, or the last timed token)."""
    offsets = [token.idx for token in doc]
    starts = token_values(doc, "start_time", offsets)
    ends = token_values(doc, "end_time", offsets)
    pauses = [float("nan")] * len(doc)
    for i in range(len(doc) - 1):
        if ends[i] is None or starts[i + 1] is None:
            continue
        if starts[i + 1] == starts[i] and ends[i + 1] == ends[i]:
            pauses[i] = 0.0  # the next token is part of the same word
        else:
            pauses[i] = max(0.0, starts[i + 1] - ends[i])
    return pauses


def _forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    thresholds = numpy.asarray(model.attrs["thresholds"], dtype="f")
    width = model.get_dim("nO")
    outputs = []
    for doc in docs:
        pauses = numpy.asarray(pause_after(doc), dtype="f")
        known = ~numpy.isnan(pauses)
        columns = numpy.zeros(len(doc), dtype="i")
        columns[known] = 1 + numpy.searchsorted(thresholds, pauses[known], side="right")
        features = numpy.zeros((len(doc), width), dtype="f")
        features[numpy.arange(len(doc)), columns] = 1.0
        outputs.append(model.ops.asarray2f(cast(Floats2d, features)))

    def backprop(d_outputs: List[Floats2d]) -> List[Doc]:
        return []

    return outputs, backprop


def with_pauses(
    tok2vec: Model[List[Doc], List[Floats2d]], pauses: Model[List[Doc], List[Floats2d]]
) -> Model[List[Doc], List[Floats2d]]:
    """The token vectors with the pause features appended to each row."""
    return Model("with_pauses", _with_pauses_forward, layers=[tok2vec, pauses], init=_with_pauses_init)


def _with_pauses_forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    tok2vec, pauses = model.layers
    vectors, backprop_tok2vec = tok2vec(docs, is_train)
    features, _ = pauses(docs, is_train)
    ops = model.ops
    widths = [X.shape[1] for X in vectors if X.shape[0]]
    width = widths[0] if widths else (tok2vec.get_dim("nO") if tok2vec.has_dim("nO") else 0)
    # a transformer gives an empty doc a (0, 0) array
    outputs = [ops.xp.hstack([X if X.shape[0] else ops.alloc2f(0, width), F]) for X, F in zip(vectors, features)]

    def backprop(d_outputs: List[Floats2d]) -> List[Doc]:
        return backprop_tok2vec([ops.as_contig(d[:, :width]) for d in d_outputs])

    return outputs, backprop


def _with_pauses_init(model: Model, X=None, Y=None) -> None:
    tok2vec, pauses = model.layers
    tok2vec.initialize(X=X)
    pauses.initialize(X=X)
