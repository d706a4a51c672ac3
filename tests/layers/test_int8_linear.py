"""int8 linear layers: each token quantized on its own, inputs shared by layers."""

import pickle

import pytest
import torch

from spacy_punct.layers.int8_linear import (
    FLOAT32,
    INT_MM,
    U8S8,
    TokenInt8Linear,
    exact_products,
    exact_span,
    fastest_product,
    float_integer_product,
    int8_copy,
    packed_weight,
    quantize_rows,
    quantize_weight,
    u8s8_product,
    weight_levels,
)

EXACT_SPAN = exact_span(127)


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


def test_seven_bit_weights_let_float32_sum_twice_as_many_products_exactly():
    assert EXACT_SPAN == 1040 and exact_span(weight_levels(7)) == 2096
    assert 127 * 63 * exact_span(63) < 2**24 <= 127 * 63 * (exact_span(63) + 1)
    rows = torch.full((2, 2096), 127, dtype=torch.int8)
    weight = torch.full((2096, 3), 63, dtype=torch.int8)
    expected = torch._int_mm(torch.cat([rows] * 9), weight)[:2].float()
    assert torch.equal(float_integer_product(rows.float(), weight.float(), 63), expected)


def test_fbgemm_gives_the_integer_product_to_the_bit_for_seven_bit_weights():
    if U8S8 not in exact_products(63):
        pytest.skip("this build of torch has no fbgemm")
    torch.manual_seed(1)
    rows = torch.randint(-127, 128, (40, 1536), dtype=torch.int8)
    weight = torch.randint(-63, 64, (1536, 24), dtype=torch.int8)
    rows[0], rows[1], weight[:, 0], weight[:, 1] = 127, -127, 63, -63
    expected = torch._int_mm(rows, weight).float()
    assert torch.equal(u8s8_product(rows.float(), packed_weight(weight)), expected)


def test_a_way_that_is_not_exact_here_is_left_out(monkeypatch):
    assert FLOAT32 in exact_products(127) and FLOAT32 in exact_products(63)
    assert fastest_product(63) in exact_products(63) and fastest_product(127) in exact_products(127)
    if U8S8 not in exact_products(63):
        pytest.skip("this build of torch has no fbgemm")

    def saturating(rows, packed):  # as fbgemm's int16 pair sums on AVX2 with weights of 8 bits
        return u8s8_product(rows, packed).clamp(-(2**15) * rows.shape[1] // 8, 2**15 * rows.shape[1] // 8)

    monkeypatch.setattr("spacy_punct.layers.int8_linear.u8s8_product", saturating)
    exact_products.cache_clear()
    try:
        assert U8S8 not in exact_products(63) and FLOAT32 in exact_products(63)
    finally:
        monkeypatch.undo()
        exact_products.cache_clear()
    assert U8S8 in exact_products(63)


def test_weights_in_seven_bits_keep_their_range_and_lose_no_more_than_with_the_largest_value_as_scale():
    torch.manual_seed(2)
    weight = torch.randn(8, 1536)
    for levels in (127, 63):
        integers, scale = quantize_weight(weight, levels)
        assert integers.dtype == torch.int8 and integers.abs().max() <= levels
        error = ((integers.float() * scale[:, None] - weight) ** 2).sum(dim=1)
        largest = weight.abs().amax(dim=1) / levels
        plain = ((torch.round(weight / largest[:, None]) * largest[:, None] - weight) ** 2).sum(dim=1)
        assert (error <= plain + 1e-6).all()
    scale, largest = quantize_weight(weight, 63)[1], weight.abs().amax(dim=1) / 63
    assert (scale <= largest * (1 + 1e-6)).all() and (scale < largest).sum() >= 6  # most channels clip a few values


@pytest.mark.parametrize("weight_bits", [7, 8])
def test_a_layer_gives_the_same_numbers_with_every_exact_product(monkeypatch, weight_bits):
    torch.manual_seed(0)
    linear = torch.nn.Linear(1536, 64)
    x = torch.randn(3, 20, 1536) * 4
    outputs = []
    for way in exact_products(weight_levels(weight_bits)):
        monkeypatch.setattr("spacy_punct.layers.int8_linear.fastest_product", lambda levels, way=way: way)
        outputs.append(TokenInt8Linear(linear, weight_bits=weight_bits)(x))
    assert len(outputs) >= 2  # float32 and torch._int_mm run everywhere
    assert all(torch.equal(output, outputs[0]) for output in outputs)


def test_weight_bits_other_than_seven_or_eight_are_refused():
    with pytest.raises(ValueError, match="weight_bits must be one of 7, 8, not 4"):
        TokenInt8Linear(torch.nn.Linear(4, 4), weight_bits=4)


@pytest.mark.parametrize("way", [FLOAT32, U8S8])
def test_the_derived_weights_follow_the_int8_buffer_and_are_not_pickled(monkeypatch, way):
    if way not in exact_products(63):
        pytest.skip("this build of torch has no fbgemm")
    monkeypatch.setattr("spacy_punct.layers.int8_linear.fastest_product", lambda levels: way)
    torch.manual_seed(0)
    layer = TokenInt8Linear(torch.nn.Linear(32, 8), weight_bits=7)
    other = TokenInt8Linear(torch.nn.Linear(32, 8), weight_bits=7)
    x = torch.randn(5, 32)
    layer(x)
    assert way in layer._derived
    copy = pickle.loads(pickle.dumps(layer))
    assert copy._derived == {} and torch.equal(copy(x), layer(x))
    layer.load_state_dict(other.state_dict())  # copied into the buffers in place
    assert torch.equal(layer(x), other(x))
    monkeypatch.setattr("spacy_punct.layers.int8_linear.fastest_product", lambda levels: INT_MM)
    assert torch.equal(layer(x), other(x))
