import numpy
import spacy

from spacy_punct.decode import decide
from spacy_punct.evaluation.tuning import collect_probs, micro_f1, tune_decisions
from spacy_punct.labels import LabelSet

from ..conftest import reader_examples

LABELS = LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])


def test_tuning_recovers_a_shifted_decision_boundary():
    rng = numpy.random.default_rng(0)
    gold = rng.choice(4, size=2000, p=[0.7, 0.15, 0.1, 0.05])
    # a model that is right but under-confident about QUESTION: p(Q) is 0.4 on questions
    probs = numpy.full((2000, 4), 0.02, dtype="f")
    probs[numpy.arange(2000), gold] = 0.9
    questions = gold == 3
    probs[questions] = [0.55, 0.03, 0.02, 0.4]
    thresholds, _, end, before, after = tune_decisions(probs, gold, LABELS, margins=False)
    assert before < 0.97 and after == 1.0
    assert 0.02 < thresholds["QUESTION"] <= 0.4 and end == 0.0
    assert micro_f1(decide(probs, LABELS, thresholds), gold) == 1.0


def test_tuning_finds_the_end_threshold_where_thresholds_cannot_tell_the_questions():
    """Questions read p(Q) 0.3 beside a sentence end of 0.5; words inside a
    sentence read p(Q) 0.35 with no end: no threshold on p(Q) tells them
    apart, an end threshold does."""
    gold = numpy.array([0] * 60 + [2] * 20 + [3] * 20)
    probs = numpy.array([[0.65, 0.0, 0.0, 0.35]] * 60 + [[0.2, 0.0, 0.7, 0.1]] * 20 + [[0.5, 0.0, 0.2, 0.3]] * 20)
    *_, untuned, alone = tune_decisions(probs, gold, LABELS)  # thresholds and margins alone
    assert untuned <= alone < 1.0
    thresholds, margins, end, before, after = tune_decisions(probs, gold, LABELS, end_threshold=True)
    assert (before, after) == (untuned, 1.0) and 0.35 < end <= 0.5
    assert micro_f1(decide(probs, LABELS, thresholds, margins, end), gold) == 1.0


def test_collect_probs_and_tune_command(trained, corpus_path, tmp_path):
    examples = reader_examples(trained, corpus_path)
    probs, gold = collect_probs(trained, examples)
    assert probs.shape == (70, 4) and gold.shape == (70,)
    assert micro_f1(decide(probs, LABELS, {}), gold) == 1.0
    assert trained.get_pipe("punctuator").rewrite  # settings restored

    from typer.testing import CliRunner

    from spacy_punct.cli import app

    trained.to_disk(tmp_path / "model")
    result = CliRunner().invoke(app, ["tune", str(tmp_path / "model"), str(corpus_path), str(tmp_path / "tuned")])
    assert result.exit_code == 0, result.output
    assert "dev micro F1 100.0 -> 100.0" in result.output
    tuned = spacy.load(tmp_path / "tuned")
    assert tuned.get_pipe("punctuator").settings.thresholds == {}
    assert tuned("so how was the trip").text == "So, how was the trip?"
