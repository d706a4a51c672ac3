"""scripts/distilbert_encoder.py: a DistilBERT stored as an int8 QDQ graph
becomes a Hugging Face folder with the same weights (tested on a tiny graph
built here, no ONNX file and no download)."""

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy
import pytest

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    import distilbert_encoder
finally:
    sys.path.pop(0)


def _qdq_graph(model):
    """The initializers and nodes of an int8 QDQ export of a DistilBertModel
    (as onnxruntime's quantizer writes them), and the dequantized weights."""
    inits, nodes, expected = {}, [], {}
    for name, tensor in model.state_dict().items():
        value = tensor.numpy()
        matmul = value.ndim == 2 and "embeddings" not in name
        if value.ndim == 1:
            inits[f"distilbert.{name}"] = value
            expected[f"distilbert.{name}"] = value
            continue
        stored = value.T if matmul else value
        scale = numpy.float32(numpy.abs(stored).max() / 127)
        zero = numpy.int8(3)
        quantized = (numpy.round(stored / scale) + zero).clip(-128, 127).astype(numpy.int8)
        key = f"onnx::MatMul_{len(nodes)}" if matmul else f"distilbert.{name}"
        inits.update({f"{key}_quantized": quantized, f"{key}_scale": scale, f"{key}_zero_point": zero})
        nodes.append(
            SimpleNamespace(
                op_type="DequantizeLinear",
                input=[f"{key}_quantized", f"{key}_scale", f"{key}_zero_point"],
                output=[f"{key}_DequantizeLinear_Output"],
            )
        )
        dequantized = (quantized.astype(numpy.float32) - zero) * scale
        expected[f"distilbert.{name}"] = dequantized.T if matmul else dequantized
        if matmul:
            parts = name.split(".")  # transformer.layer.<i>.<attention.q_lin>.weight
            layer, path = parts[2], "/".join(parts[3:-1])
            nodes.append(
                SimpleNamespace(
                    op_type="MatMul",
                    input=["x", f"{key}_DequantizeLinear_Output"],
                    output=[f"/distilbert/transformer/layer.{layer}/{path}/MatMul_output_0"],
                )
            )
    return inits, nodes, expected


@pytest.fixture(scope="module")
def tiny_distilbert():
    import torch
    from transformers import DistilBertConfig, DistilBertModel

    torch.manual_seed(0)
    config = DistilBertConfig(vocab_size=40, dim=24, n_layers=2, n_heads=12, hidden_dim=96, max_position_embeddings=16)
    return DistilBertModel(config).eval()


def test_weights_are_dequantized_and_transposed(tiny_distilbert):
    inits, nodes, expected = _qdq_graph(tiny_distilbert)
    weights = distilbert_encoder.dequantized_weights(inits, nodes)
    assert sorted(weights) == sorted(expected)
    for name, value in expected.items():
        numpy.testing.assert_allclose(weights[name], value, rtol=0, atol=1e-7)
    assert weights["distilbert.transformer.layer.1.ffn.lin1.weight"].shape == (96, 24)


def test_a_matrix_of_an_unknown_module_is_an_error(tiny_distilbert):
    inits, nodes, _ = _qdq_graph(tiny_distilbert)
    nodes[-1].output = ["/pooler/dense/MatMul_output_0"]
    with pytest.raises(ValueError, match="unexpected quantized matrix"):
        distilbert_encoder.dequantized_weights(inits, nodes)


def test_the_folder_loads_with_the_weights_and_tokenizer(tiny_distilbert, tiny_bert, tmp_path):
    import torch
    from transformers import AutoModel, AutoTokenizer

    inits, nodes, _ = _qdq_graph(tiny_distilbert)
    weights = distilbert_encoder.dequantized_weights(inits, nodes)
    distilbert_encoder.build_folder(weights, tiny_bert / "tokenizer.json", tmp_path / "out")
    loaded = AutoModel.from_pretrained(tmp_path / "out").eval()
    assert loaded.config.n_layers == 2 and loaded.config.attention_dropout == 0.0
    ids = torch.tensor([[2, 7, 9, 11, 3]])
    with torch.no_grad():
        ours, original = loaded(input_ids=ids).last_hidden_state, tiny_distilbert(input_ids=ids).last_hidden_state
    assert torch.allclose(ours, original, atol=0.05)
    tokenizer = AutoTokenizer.from_pretrained(tmp_path / "out")
    assert len(tokenizer(" ".join(["word"] * 300))["input_ids"]) > 300  # no truncation


def test_weights_that_do_not_fit_are_an_error(tiny_distilbert, tiny_bert, tmp_path):
    inits, nodes, _ = _qdq_graph(tiny_distilbert)
    weights = distilbert_encoder.dequantized_weights(inits, nodes)
    weights["distilbert.pooler.weight"] = numpy.zeros((2, 2), dtype=numpy.float32)
    with pytest.raises(ValueError, match="do not fit"):
        distilbert_encoder.build_folder(weights, tiny_bert / "tokenizer.json", tmp_path / "out")
