"""Decision settings tuned on dev data: per-class thresholds, Cai & Wang's
margins (2019) and the end threshold, chosen for the best micro F1."""

from typing import Dict, Iterable, List, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.training import Example

from ..align import gold_classes
from ..decode import decide
from ..labels import LabelSet
from ..pipelines.loading import find_punctuator, predict_probs

THRESHOLD_GRID = tuple(round(x, 2) for x in numpy.arange(0.1, 0.91, 0.05))
MARGIN_GRID = tuple(round(x, 2) for x in numpy.arange(0.0, 0.91, 0.05))
END_GRID = tuple(round(x, 2) for x in numpy.arange(0.0, 0.91, 0.05))


def collect_probs(nlp: Language, examples: Iterable[Example]) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Class probabilities and gold class index of every word in the examples."""
    _, pipe = find_punctuator(nlp)
    label_set = pipe.label_set
    examples = list(examples)
    probs: List[numpy.ndarray] = []
    gold: List[numpy.ndarray] = []
    docs = predict_probs(nlp, (eg.predicted.copy() for eg in examples))
    for example, (doc, doc_probs) in zip(examples, docs):
        classes = numpy.asarray(gold_classes(Example(doc, example.reference), label_set), dtype="i")
        words = classes >= 0
        probs.append(doc_probs[words])
        gold.append(classes[words])
    width = len(label_set)
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


def tune_decisions(
    probs: numpy.ndarray,
    gold: numpy.ndarray,
    label_set: LabelSet,
    *,
    thresholds: bool = True,
    margins: bool = True,
    end_threshold: bool = False,
    threshold_grid: Sequence[float] = THRESHOLD_GRID,
    margin_grid: Sequence[float] = MARGIN_GRID,
    end_grid: Sequence[float] = END_GRID,
    rounds: int = 2,
) -> Tuple[Dict[str, float], Dict[str, float], float, float, float]:
    """Coordinate ascent over one threshold and one margin per punctuation
    class, and with `end_threshold` the end threshold (`decode.end_shares`),
    maximising micro F1. Returns the thresholds and margins (classes that
    gain nothing get none), the end threshold (0: off), the F1 before and
    the F1 after."""
    chosen: Dict[str, Dict[str, float]] = {"thresholds": {}, "margins": {}, "end": {"": 0.0}}

    def score(candidate: Dict[str, Dict[str, float]]) -> float:
        guesses = decide(probs, label_set, candidate["thresholds"], candidate["margins"], candidate["end"][""])
        return micro_f1(guesses, gold)

    before = best = score(chosen)
    settings = [("thresholds", threshold_grid)] * thresholds + [("margins", margin_grid)] * margins
    coordinates = [("end", "", end_grid)] * end_threshold
    coordinates += [(setting, label, grid) for label in label_set.punctuation for setting, grid in settings]
    for _ in range(rounds):
        for setting, label, grid in coordinates:
            for value in grid:
                candidate = {**chosen, setting: {**chosen[setting], label: float(value)}}
                value_score = score(candidate)
                if value_score > best + 1e-9:
                    best, chosen = value_score, candidate
    return chosen["thresholds"], chosen["margins"], chosen["end"][""], before, best
