"""scripts/ensemble_scores.py: micro F1 of pipelines alone and of the mean
of their probabilities."""

import sys
from pathlib import Path

import numpy
import pytest
from spacy.tokens import DocBin

from ..conftest import TEXTS

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    import ensemble_scores
finally:
    sys.path.pop(0)

LABELS = ["EMPTY", "COMMA", "PERIOD"]


def test_micro_f1_counts_the_marks_but_empty():
    gold = ["EMPTY", "COMMA", "EMPTY", "PERIOD"]
    probs = numpy.array([[0.9, 0.1, 0], [0.2, 0.7, 0.1], [0.1, 0, 0.9], [0.6, 0, 0.4]])
    # one hit (the comma), two guesses, two marks: 2 * 1 / (2 + 2)
    assert ensemble_scores.micro_f1(probs, gold, LABELS) == pytest.approx(50.0)
    assert ensemble_scores.micro_f1(probs[:1], gold[:1], LABELS) == 0.0
    # the mean of two pipelines decides the last word
    other = numpy.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1.0]])
    assert ensemble_scores.micro_f1((probs + other) / 2, gold, LABELS) == pytest.approx(100.0)


def test_each_word_of_the_data_has_its_gold_class_and_probabilities(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    DocBin(docs=[trained.make_doc(text) for text in TEXTS]).to_disk(tmp_path / "data.spacy")
    gold, probs, labels = ensemble_scores.gold_and_probs(str(tmp_path / "data.spacy"), [str(tmp_path / "model")])
    words = sum(len([t for t in trained.make_doc(text) if not t.is_punct]) for text in TEXTS)
    assert len(gold) == words == probs[str(tmp_path / "model")].shape[0]
    assert gold.count("EMPTY") < words and set(gold) <= set(labels)
    with pytest.raises(ValueError, match="not found"):
        ensemble_scores.gold_and_probs(str(tmp_path / "missing.spacy"), [str(tmp_path / "model")])
