"""Per-class decision thresholds tuned on dev data (Cai & Wang 2019)."""
from typing import Dict, Iterable, List, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.training import Example

from .labels import EMPTY
from .punctuator import decide, find_punctuator
from .scorer import word_offsets

DEFAULT_GRID = tuple(round(x, 2) for x in numpy.arange(0.1, 0.91, 0.05))


def collect_probs(nlp: Language, examples: Iterable[Example]) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Class probabilities and gold class index of every word in the examples."""
    _, pipe = find_punctuator(nlp)
    settings = (pipe.rewrite, pipe.store_probs)
    pipe.rewrite, pipe.store_probs = False, True
    probs: List[numpy.ndarray] = []
    gold: List[numpy.ndarray] = []
    try:
        examples = list(examples)
        docs = nlp.pipe(eg.predicted.copy() for eg in examples)
        for example, doc in zip(examples, docs):
            indices, _ = pipe._gold(Example(doc, example.reference))
            words = numpy.array([end is not None for end in word_offsets(doc)[1]], dtype=bool)
            probs.append(doc._.punct_probs[words])
            gold.append(numpy.asarray(indices)[words])
    finally:
        pipe.rewrite, pipe.store_probs = settings
    width = len(pipe.labels)
    return (
        numpy.concatenate(probs) if probs else numpy.zeros((0, width), dtype="f"),
        numpy.concatenate(gold) if gold else numpy.zeros((0,), dtype="i"),
    )


def micro_f1(guesses: numpy.ndarray, gold: numpy.ndarray) -> float:
    """Micro F1 over the punctuation classes (index 0 is EMPTY)."""
    tp = int(((guesses == gold) & (gold != 0)).sum())
    fp = int(((guesses != gold) & (guesses != 0)).sum())
    fn = int(((guesses != gold) & (gold != 0)).sum())
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def tune_thresholds(
    probs: numpy.ndarray,
    gold: numpy.ndarray,
    labels: Sequence[str],
    grid: Sequence[float] = DEFAULT_GRID,
    rounds: int = 2,
) -> Tuple[Dict[str, float], float, float]:
    """Coordinate ascent over one threshold per punctuation class, maximising
    micro F1. Returns the thresholds (classes that gain nothing get none), the
    F1 before and the F1 after."""
    before = best = micro_f1(decide(probs, labels, {}), gold)
    thresholds: Dict[str, float] = {}
    for _ in range(rounds):
        for label in labels:
            if label == EMPTY:
                continue
            for value in grid:
                candidate = {**thresholds, label: float(value)}
                score = micro_f1(decide(probs, labels, candidate), gold)
                if score > best + 1e-9:
                    best, thresholds = score, candidate
    return thresholds, before, best
