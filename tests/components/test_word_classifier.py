import numpy
import pytest
from thinc.api import NumpyOps

from spacy_punct.components.word_classifier import initialize_on_sample, mean_over_words, weighted_cross_entropy


def test_weighted_cross_entropy_and_its_gradient():
    ops = NumpyOps()
    probs = numpy.asarray([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]], dtype="f")
    truth = numpy.asarray([[1, 0, 0], [0, 0.5, 0.5], [0, 0, 1]], dtype="f")
    weights = numpy.asarray([1.0, 2.0, 0.0])
    loss, d_probs = weighted_cross_entropy(ops, probs, truth, weights)
    expected = -numpy.log(0.7) - 2 * (0.5 * numpy.log(0.8) + 0.5 * numpy.log(0.1))
    assert loss == pytest.approx(expected, rel=1e-5)
    numpy.testing.assert_allclose(d_probs[0], probs[0] - truth[0])
    numpy.testing.assert_allclose(d_probs[1], 2 * (probs[1] - truth[1]))
    assert not d_probs[2].any()  # a row of weight 0 counts for nothing
    empty_loss, empty_d = weighted_cross_entropy(ops, probs[:0], truth[:0], weights[:0])
    assert empty_loss == 0.0 and empty_d.shape == (0, 3)


def test_mean_over_words():
    loss, d_scores = mean_over_words([3.0, 1.0], [numpy.ones((2, 2)), numpy.ones((1, 2))], 4)
    assert loss == 1.0 and [d.tolist() for d in d_scores] == [[[0.25, 0.25]] * 2, [[0.25, 0.25]]]
    assert mean_over_words([], [], 0) == (0.0, [])  # no word: no division by zero


def test_initialize_on_sample_needs_an_example():
    with pytest.raises(ValueError, match="E923"):
        initialize_on_sample(None, lambda: [], lambda eg: [], 4, "punctuator")
