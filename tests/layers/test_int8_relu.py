"""A head's ReLU layer in int8."""

import numpy
import pytest
from thinc.api import Relu

from spacy_punct.layers.int8_relu import int8_relu_forward


def test_a_relu_layer_in_int8_row_by_row_at_inference_only():
    relu = Relu(nO=8, nI=16)
    assert int8_relu_forward(relu) is None  # no weights yet
    relu.initialize()
    X = numpy.random.default_rng(0).normal(size=(6, 16)).astype("float32")
    expected = relu.predict(X)
    relu._func = int8_relu_forward(relu)
    got, backprop = relu(X, is_train=False)
    assert got.shape == expected.shape and got.min() >= 0
    assert numpy.abs(got - expected).max() < 0.05 * numpy.abs(expected).max()
    numpy.testing.assert_allclose(relu.predict(X[3:5]), got[3:5], atol=1e-6)
    with pytest.raises(ValueError, match="for inference"):
        backprop(got)
    Y, _ = relu(X, is_train=True)
    numpy.testing.assert_allclose(Y, expected, atol=1e-6)
