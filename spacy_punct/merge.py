"""Our marks beside a recogniser's own (`DecisionSettings.merge`): where a
recogniser writes marks (Whisper), each is evidence about the slot, not the
answer. The punctuator's probabilities at a slot, read with the recogniser's
marks and words, are multiplied by how much more often each class is the
right one where the recogniser wrote what it wrote than anywhere
(P(class | heard mark) / P(class), from counts of the recogniser's marks
against reference text), and normalised: naive Bayes with the punctuator as
the prior, so that a mark the recogniser rarely gets wrong (its `?`) is
hard to overrule, and one it scatters (its `.` for a comma) easy. The
words are read lower-cased (`lowered`): on the speech benchmark the
truecaser's case beat the recogniser's.

The counts ship in `heard_marks.json` beside this module, written by the
speech benchmark (`projects/benchmarks/asr/score.py --fit`)."""

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import List, Sequence, Tuple

import numpy

from .labels import FALLBACK, LabelSet

HEARD_MARKS_FILE = Path(__file__).with_name("heard_marks.json")


@dataclass(frozen=True)
class HeardMarks:
    """How a recogniser's marks relate to the right ones: `counts[h][c]`,
    the slots where it wrote class `labels[h]` and the reference has
    `labels[c]` (EMPTY first)."""

    recogniser: str
    labels: Tuple[str, ...]
    counts: Tuple[Tuple[int, ...], ...]

    def weights(self, label_set: LabelSet) -> numpy.ndarray:
        """log P(class | heard) / P(class) per heard class (rows, the label
        set's classes as heard) and class of the label set (columns), with
        one added to each count; a class the counts lack takes its fallback's."""
        counts = numpy.asarray(self.counts, dtype="float64") + 1.0
        ratio = numpy.log(counts / counts.sum(axis=1, keepdims=True)) - numpy.log(counts.sum(0) / counts.sum())
        where = [self.labels.index(_known(label, self.labels)) for label in label_set]
        return ratio[numpy.ix_(where, where)]


def _known(label: str, labels: Sequence[str]) -> str:
    while label not in labels:
        label = FALLBACK.get(label, "EMPTY")
    return label


def merged_probs(probs: numpy.ndarray, heard: Sequence[int], weights: numpy.ndarray) -> numpy.ndarray:
    """The probabilities of slots (rows) given the class each heard (an
    index of the label set: 0 where the recogniser wrote no mark)."""
    scores = numpy.log(numpy.clip(numpy.asarray(probs, dtype="float64"), 1e-9, 1.0)) + weights[list(heard)]
    scores -= scores.max(axis=1, keepdims=True)
    out = numpy.exp(scores)
    return (out / out.sum(axis=1, keepdims=True)).astype("float32")


def lowered(text: str) -> str:
    """The text lower-cased, character for character (`İ` stays, whose lower
    case is two), so that its offsets are the input's: what `merge` reads,
    the recogniser's case being no better evidence than the truecaser's."""
    return "".join(char if len(low := char.lower()) != 1 else low for char in text)


def fit_heard_marks(recogniser: str, heard: Sequence[str], gold: Sequence[str], labels: Sequence[str]) -> HeardMarks:
    """The counts of a recogniser's classes (`heard`) against the right ones (`gold`), slot by slot."""
    label_set = LabelSet(labels)
    counts: List[List[int]] = [[0] * len(labels) for _ in labels]
    for h, g in zip(heard, gold):
        counts[label_set.index(h)][label_set.index(g)] += 1
    return HeardMarks(recogniser, tuple(labels), tuple(tuple(row) for row in counts))


def write_heard_marks(marks: HeardMarks, path: Path = HEARD_MARKS_FILE) -> None:
    data = {"recogniser": marks.recogniser, "labels": list(marks.labels), "counts": [list(row) for row in marks.counts]}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf8")


@lru_cache(maxsize=4)
def load_heard_marks(path: Path = HEARD_MARKS_FILE) -> HeardMarks:
    """The shipped counts (Whisper's marks on spoken English)."""
    data = json.loads(path.read_text(encoding="utf8"))
    return HeardMarks(data["recogniser"], tuple(data["labels"]), tuple(tuple(row) for row in data["counts"]))
