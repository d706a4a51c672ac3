"""Our marks beside a recogniser's own: the counts, the weighing, the lower-cased reading."""

import numpy
import pytest

from spacy_punct import DecisionSettings, punctuate
from spacy_punct.labels import DEFAULT_LABELS, LabelSet
from spacy_punct.merge import HeardMarks, fit_heard_marks, load_heard_marks, lowered, merged_probs

LABELS = LabelSet(DEFAULT_LABELS)


def _counts() -> HeardMarks:
    # the recogniser's `?` is always right, its `.` half the time a comma
    heard = ["EMPTY"] * 90 + ["COMMA"] * 10 + ["PERIOD"] * 20 + ["QUESTION"] * 5
    gold = ["EMPTY"] * 90 + ["COMMA"] * 10 + ["PERIOD"] * 10 + ["COMMA"] * 10 + ["QUESTION"] * 5
    return fit_heard_marks("test", heard, gold, DEFAULT_LABELS)


def test_a_reliable_mark_overrules_and_a_scattered_one_is_weighed():
    weights = _counts().weights(LABELS)
    unsure = numpy.array([[0.1, 0.3, 0.3, 0.3]] * 3, dtype="f")
    merged = merged_probs(unsure, [3, 2, 0], weights)
    assert merged.argmax(1).tolist() == [3, 2, 0]
    assert numpy.allclose(merged.sum(1), 1.0)
    assert merged[1, 1] > merged[0, 1]  # after the recogniser's `.`, a comma stays likely
    sure_comma = numpy.array([[0.02, 0.9, 0.06, 0.02]], dtype="f")
    assert merged_probs(sure_comma, [2], weights).argmax() == 1  # the pipeline overrules a scattered mark


def test_a_class_the_counts_lack_takes_its_fallbacks_weights():
    weights = _counts().weights(LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION", "EXCLAMATION"]))
    assert weights.shape == (5, 5)
    assert numpy.allclose(weights[4], weights[2]) and numpy.allclose(weights[:, 4], weights[:, 2])


def test_the_shipped_counts_are_whispers_on_the_four_classes():
    shipped = load_heard_marks()
    assert shipped.labels == DEFAULT_LABELS and len(shipped.counts) == 4 and sum(map(sum, shipped.counts)) > 1000


def test_lowered_keeps_every_offset():
    text = "İstanbul, SO How"
    assert lowered(text) == "İstanbul, so how" and len(lowered(text)) == len(text)


def test_merge_cannot_go_with_repair_or_kept_marks():
    for other in ({"repair": True}, {"keep_existing": True}, {"add_marks": False}):
        with pytest.raises(ValueError, match="merge decides every mark again"):
            DecisionSettings(merge=True, **other)


def test_merge_decides_every_mark_and_keeps_every_word(trained):
    text = "Today I want to talk. about the budget, it was long"
    settings = DecisionSettings(merge=True, heard_marks=_counts())
    doc = next(punctuate(trained, [text], settings=settings))
    assert [w.strip(",.?").lower() for w in doc.text.split()] == text.lower().replace(",", "").replace(".", "").split()
    assert doc._.source_text == text  # read lower-cased, but the input is kept as it came
    batch = [doc.text for doc in punctuate(trained, [text, "so how was it", text], settings=settings)]
    assert batch[0] == batch[2] == doc.text
