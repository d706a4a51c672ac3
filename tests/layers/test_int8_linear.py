"""int8 linear layers: each token quantized on its own, inputs shared by layers."""
import pickle

import pytest
import torch

from spacy_punct.layers.int8_linear import (
    EXACT_SPAN, TokenInt8Linear, float_integer_product, int8_copy, int8_products_are_fast, quantize_rows
)


def test_each_row_is_quantized_with_its_own_scale():
    rows = torch.tensor([[0.5, -2.0, 1.0], [100.0, 3.0, -50.0], [0.0, 0.0, 0.0]])
    quantized, scale = quantize_rows(rows)
    assert quantized.dtype == torch.int8
    assert quantized[:2].abs().amax(dim=1).tolist() == [127, 127]  # each row's largest value fills the range
    assert quantized[2].tolist() == [0, 0, 0]
    assert (quantized.float() * scale - rows).abs().le(scale / 2 + 1e-6).all()


def test_a_layer_computes_the_linear_layer_within_the_quantization_error():
    torch.manual_seed(0)
    linear = torch.nn.Linear(16, 8)
    x = torch.randn(2, 5, 16)
    got = TokenInt8Linear(linear)(x)
    assert got.shape == (2, 5, 8)
    assert (got - linear(x)).abs().max() < 0.05
    no_bias = torch.nn.Linear(16, 8, bias=False)
    assert (TokenInt8Linear(no_bias)(x) - no_bias(x)).abs().max() < 0.05


def test_layers_reading_one_input_quantize_it_once_and_see_changes_to_it(monkeypatch):
    torch.manual_seed(0)
    model = torch.nn.ModuleDict({"query": torch.nn.Linear(16, 16), "key": torch.nn.Linear(16, 16)})
    quantized = int8_copy(model)
    assert quantized["query"].inputs is quantized["key"].inputs
    quantizations = []
    monkeypatch.setattr(
        "spacy_punct.layers.int8_linear.quantize_rows",
        lambda rows, *dtype: quantizations.append(rows) or quantize_rows(rows, *dtype),
    )
    x = torch.randn(3, 16)
    key_alone = TokenInt8Linear(model["key"])
    quantized["query"](x)
    torch.testing.assert_close(quantized["key"](x), key_alone(x), rtol=0, atol=0)
    assert len(quantizations) == 2  # once for both shared layers, once for the layer alone
    x.mul_(2.0)  # changed in place: quantized again
    torch.testing.assert_close(quantized["key"](x), key_alone(x), rtol=0, atol=0)
    assert len(quantizations) == 4
    quantized["key"](x.clone())  # an equal tensor, but another one
    assert len(quantizations) == 5


@pytest.mark.parametrize("width", [16, 384, EXACT_SPAN, EXACT_SPAN + 1, 1536, 3 * EXACT_SPAN + 7])
def test_the_float_product_of_int8_values_is_the_integer_product_to_the_bit(width):
    torch.manual_seed(width)
    rows = torch.randint(-127, 128, (24, width), dtype=torch.int8)
    weight = torch.randint(-127, 128, (width, 40), dtype=torch.int8)
    rows[0], rows[1], weight[:, 0] = 127, -127, 127  # the largest sums the int8 range allows
    expected = torch._int_mm(rows, weight).float()
    assert torch.equal(float_integer_product(rows.float(), weight.float()), expected)


def test_a_layer_gives_the_same_numbers_with_either_product(monkeypatch):
    torch.manual_seed(0)
    linear = torch.nn.Linear(1536, 64)
    x = torch.randn(3, 20, 1536) * 4
    outputs = []
    for fast in (True, False):
        monkeypatch.setattr("spacy_punct.layers.int8_linear.int8_products_are_fast", lambda: fast)
        outputs.append(TokenInt8Linear(linear)(x))
    assert torch.equal(outputs[0], outputs[1])
    assert isinstance(int8_products_are_fast(), bool)


def test_the_float_weights_follow_the_int8_buffer_and_are_not_pickled(monkeypatch):
    monkeypatch.setattr("spacy_punct.layers.int8_linear.int8_products_are_fast", lambda: False)
    torch.manual_seed(0)
    layer, other = TokenInt8Linear(torch.nn.Linear(32, 8)), TokenInt8Linear(torch.nn.Linear(32, 8))
    x = torch.randn(5, 32)
    layer(x)
    assert layer._float_weight is not None
    copy = pickle.loads(pickle.dumps(layer))
    assert copy._float_weight is None and torch.equal(copy(x), layer(x))
    layer.load_state_dict(other.state_dict())  # copied into the buffers in place
    assert torch.equal(layer(x), other(x))
