"""A component head's ReLU layer (thinc's `Relu`) in int8 at inference.

A transformer pipeline's heads read the encoder's vectors through a
`TransformerListener`; their hidden ReLU layer is a float product on numpy's
BLAS, which runs on one thread (see `spacy_punct.runtime.threads`). In int8 it runs
as the encoder's linear layers do (`layers.int8_linear`: each row of the input
quantized on its own, so a text's numbers do not depend on its batch), in
torch at the pipeline's threads."""

from typing import Callable, Optional, Tuple

import numpy
import torch
from thinc.api import Model
from thinc.types import Floats2d

from .int8_linear import TokenInt8Linear

Forward = Callable[[Model, Floats2d, bool], Tuple[Floats2d, Callable]]


def int8_relu_forward(layer: Model, weight_bits: int = 7) -> Optional[Forward]:
    """A forward for the `Relu` layer `layer` that computes its product in
    int8 (weights of `weight_bits` bits) from the layer's weights as they are now, at inference on numpy
    arrays (in training and on other arrays, the layer's own forward); None
    where the layer has no weights on the CPU yet. The int8 product and the
    layer's own forward wait in the layer's attrs, so that it pickles."""
    if not (layer.has_param("W") and layer.has_param("b")):
        return None
    W, b = layer.get_param("W"), layer.get_param("b")
    if not isinstance(W, numpy.ndarray):
        return None
    linear = torch.nn.Linear(W.shape[1], W.shape[0])
    with torch.no_grad():
        linear.weight.copy_(torch.from_numpy(W))
        linear.bias.copy_(torch.from_numpy(b))
    layer.attrs["int8_linear"] = TokenInt8Linear(linear, weight_bits=weight_bits)
    if layer._func is not _int8_relu:
        layer.attrs["float_forward"] = layer._func
    return _int8_relu


def _int8_relu(model: Model, X: Floats2d, is_train: bool) -> Tuple[Floats2d, Callable]:
    if is_train or not isinstance(X, numpy.ndarray):
        return model.attrs["float_forward"](model, X, is_train)
    with torch.no_grad():
        Y = torch.relu_(model.attrs["int8_linear"](torch.from_numpy(numpy.ascontiguousarray(X, dtype="float32"))))
    return Y.numpy(), _no_backprop


def _no_backprop(dY: Floats2d) -> Floats2d:
    raise ValueError("An int8 layer is for inference: train the float pipeline.")
