import gc
import pickle
import warnings

import numpy
import pytest
import torch
from thinc.api import SGD, Adam, PyTorchWrapper

from spacy_punct.layers.bilstm import build_bilstm_encoder
from spacy_punct.layers.stored_weights import StoredHFShim
from spacy_punct.layers.torch_updates import InPlacePyTorchShim, InPlaceUpdates, update_in_place


def _wrapper(seed: int = 0) -> PyTorchWrapper:
    torch.manual_seed(seed)
    return PyTorchWrapper(torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Linear(16, 4)))


def _train(model: PyTorchWrapper, optimizer, steps: int) -> None:
    X = numpy.random.default_rng(0).random((5, 8), dtype="float32")
    for _ in range(steps):
        Y, backprop = model.begin_update(X)
        backprop(Y)
        model.finish_update(optimizer)


def _live_tensors() -> int:
    gc.collect()
    with warnings.catch_warnings():  # isinstance on torch's deprecated module attributes warns
        warnings.simplefilter("ignore", FutureWarning)
        return sum(1 for o in gc.get_objects() if isinstance(o, torch.Tensor))


def _optimizer():
    return Adam(0.01, L2=0.01, grad_clip=1.0, L2_is_weight_decay=True)


def test_same_weights_as_thinc():
    thinc_model, in_place = _wrapper(), _wrapper()
    update_in_place(in_place)
    assert type(in_place.shims[0]) is InPlacePyTorchShim
    _train(thinc_model, _optimizer(), 20)
    _train(in_place, _optimizer(), 20)
    for a, b in zip(thinc_model.shims[0]._model.parameters(), in_place.shims[0]._model.parameters()):
        assert torch.equal(a, b)


def test_no_tensor_left_behind_per_step():
    model = _wrapper()
    update_in_place(model)
    optimizer = _optimizer()
    _train(model, optimizer, 3)
    before = _live_tensors()
    _train(model, optimizer, 30)
    assert _live_tensors() <= before


def test_thinc_shim_leaves_tensors_behind():
    # the behaviour replaced: if thinc stops chaining tensors, this module can go
    model = _wrapper()
    optimizer = _optimizer()
    _train(model, optimizer, 3)
    before = _live_tensors()
    _train(model, optimizer, 30)
    assert _live_tensors() >= before + 30


def test_result_in_another_array_is_copied_in():
    class NewArrayOptimizer:
        def __call__(self, key, weights, gradient, lr_scale=1.0):
            return weights - 0.5 * gradient, gradient

    model = _wrapper()
    update_in_place(model)
    first = next(model.shims[0]._model.parameters())
    start = first.detach().clone()
    X = numpy.ones((2, 8), dtype="float32")
    Y, backprop = model.begin_update(X)
    backprop(Y)
    expected = start - 0.5 * first.grad
    model.finish_update(NewArrayOptimizer())
    assert next(model.shims[0]._model.parameters()) is first
    assert torch.allclose(first, expected)
    assert not first.grad.any()


@pytest.mark.parametrize("optimizer", [SGD(0.1), _optimizer()])
def test_gradients_zeroed(optimizer):
    model = _wrapper()
    update_in_place(model)
    _train(model, optimizer, 1)
    assert all(not p.grad.any() for p in model.shims[0]._model.parameters())


def test_bilstm_and_transformer_shims_update_in_place():
    encoder = build_bilstm_encoder(width=8, depth=1, dropout=0.0)
    shims = [shim for node in encoder.walk() for shim in node.shims]
    assert shims and all(isinstance(shim, InPlaceUpdates) for shim in shims)
    assert issubclass(StoredHFShim, InPlaceUpdates)


def test_in_place_model_pickles():
    model = _wrapper()
    update_in_place(model)
    assert type(pickle.loads(pickle.dumps(model)).shims[0]) is InPlacePyTorchShim
