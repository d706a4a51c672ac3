"""int8 linear layers: each token quantized on its own, inputs shared by layers."""
import torch

from spacy_punct.layers.int8_linear import TokenInt8Linear, int8_copy, quantize_rows


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
        "spacy_punct.layers.int8_linear.quantize_rows", lambda rows: quantizations.append(rows) or quantize_rows(rows)
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
