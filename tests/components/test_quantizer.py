"""The int8_quantizer with the tiny local BERT."""

import numpy
import pytest
import spacy
from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.components.quantizer import add_quantizer
from spacy_punct.layers.hf_models import hf_shims
from spacy_punct.layers.int8_linear import TokenInt8Linear
from spacy_punct.pipelines import load_pipeline, predict_probs

from ..conftest import TEXTS
from ..layers.test_transformer import trained_trf, trf_pipeline  # noqa: F401  (the fixtures)

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


def _probs(nlp):
    return [p for _, p in predict_probs(nlp, (nlp.make_doc(t) for t in BARE))]


def test_quantized_pipeline_predicts_alike_and_saves_float_weights(trained_trf, tmp_path):
    nlp, _, _ = trained_trf
    nlp.to_disk(tmp_path / "float")
    reference = load_pipeline(tmp_path / "float")
    expected = _probs(reference)
    add_quantizer(reference)
    quantizer = reference.get_pipe("int8_quantizer")
    assert not quantizer.quantized
    got = _probs(reference)
    assert quantizer.quantized
    assert any(isinstance(m, TokenInt8Linear) for m in hf_shims(reference)[0]._model.modules())
    for a, b in zip(expected, got):
        assert a.shape == b.shape
        assert numpy.abs(a - b).max() < 0.1
    reference.to_disk(tmp_path / "int8")  # the float weights are saved
    assert not quantizer.quantized
    loaded = spacy.load(tmp_path / "int8")
    assert loaded.pipe_names[0] == "int8_quantizer"
    for a, b in zip(got, _probs(loaded)):
        numpy.testing.assert_allclose(a, b, atol=1e-6)
    unquantized = spacy.load(tmp_path / "int8", exclude=["int8_quantizer"])
    for a, b in zip(expected, _probs(unquantized)):
        numpy.testing.assert_allclose(a, b, atol=1e-5)


def test_quantizer_needs_a_transformer_and_no_training(trained, trained_trf):
    with pytest.raises(ValueError, match="no transformer"):
        add_quantizer(trained)
    nlp, examples, _ = trained_trf
    add_quantizer(nlp)
    try:
        with pytest.raises(ValueError, match="for inference"):
            nlp.initialize(lambda: examples)
    finally:
        nlp.remove_pipe("int8_quantizer")


def test_quantize_cli(trained_trf, trained, tmp_path):
    nlp, _, _ = trained_trf
    nlp.to_disk(tmp_path / "model")
    runner = CliRunner()
    result = runner.invoke(app, ["quantize", str(tmp_path / "model"), str(tmp_path / "q")])
    assert result.exit_code == 0, result.output
    assert "int8_quantizer" in result.output
    result = runner.invoke(app, ["quantize", str(tmp_path / "model"), str(tmp_path / "q")])
    assert result.exit_code == 1 and "exists" in result.output
    trained.to_disk(tmp_path / "cpu")
    result = runner.invoke(app, ["quantize", str(tmp_path / "cpu"), str(tmp_path / "q2")])
    assert result.exit_code == 1 and "no transformer" in result.output and not (tmp_path / "q2").exists()


def test_the_weights_bits_are_configured_and_reach_every_int8_layer(trained_trf, tmp_path):
    nlp, _, _ = trained_trf
    nlp.to_disk(tmp_path / "model")
    runner = CliRunner()
    result = runner.invoke(app, ["quantize", str(tmp_path / "model"), str(tmp_path / "q8"), "--weight-bits", "8"])
    assert result.exit_code == 0, result.output
    levels = {}
    for bits in (7, 8):
        loaded = spacy.load(tmp_path / "q8") if bits == 8 else load_pipeline(tmp_path / "model")
        if bits == 7:
            add_quantizer(loaded)  # the default
        assert loaded.config["components"]["int8_quantizer"]["weight_bits"] == bits
        _probs(loaded)
        layers = [m for m in hf_shims(loaded)[0]._model.modules() if isinstance(m, TokenInt8Linear)]
        relu = next(node for node in loaded.get_pipe("punctuator").model.walk() if node.name == "relu")
        levels[bits] = {layer.levels for layer in layers} | {relu.attrs["int8_linear"].levels}
        assert max(int(layer.weight_t.abs().max()) for layer in layers) <= max(levels[bits])
    assert levels == {7: {63}, 8: {127}}
    result = runner.invoke(app, ["quantize", str(tmp_path / "model"), str(tmp_path / "q4"), "--weight-bits", "4"])
    assert result.exit_code == 1 and "weight_bits must be one of 7, 8, not 4" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "q4").exists()


def test_a_bfloat16_encoder_runs_in_float32_while_quantized(tiny_bert, tmp_path):
    import torch

    nlp = trf_pipeline(tiny_bert, cpu_precision="bfloat16")
    nlp.initialize()
    layer = nlp.get_pipe("transformer").model.layers[0]
    add_quantizer(nlp)
    _probs(nlp)  # the quantized layers would fail on bfloat16 inputs
    assert nlp.get_pipe("int8_quantizer").quantized and layer.attrs["cpu_autocast"] is None
    nlp.to_disk(tmp_path / "int8")
    assert layer.attrs["cpu_autocast"] is torch.bfloat16


def test_layers_kept_in_float(trained_trf, tmp_path):
    nlp, _, _ = trained_trf
    nlp.to_disk(tmp_path / "float")
    reference = load_pipeline(tmp_path / "float")
    add_quantizer(reference, keep_float=[r"encoder\.layer\.\d+\.output\.dense"])
    _probs(reference)
    model = hf_shims(reference)[0]._model.model  # the int8 copy inside its length buckets
    kinds = {name: type(module).__name__ for name, module in model.named_modules() if name.endswith("dense")}
    assert kinds["encoder.layer.0.output.dense"] == "Linear"  # the feed-forward output stays float32
    assert isinstance(model.get_submodule("encoder.layer.0.intermediate.dense"), TokenInt8Linear)
    assert isinstance(model.get_submodule("encoder.layer.0.attention.output.dense"), TokenInt8Linear)
    reference.to_disk(tmp_path / "kept")
    assert spacy.load(tmp_path / "kept").get_pipe("int8_quantizer").keep_float == [
        r"encoder\.layer\.\d+\.output\.dense"
    ]
    with pytest.raises(ValueError, match="not a regular expression"):
        spacy.blank("en").add_pipe("int8_quantizer", config={"keep_float": ["("]})


def test_a_texts_numbers_do_not_depend_on_its_batch(trained_trf, tmp_path):
    nlp, _, _ = trained_trf
    nlp.to_disk(tmp_path / "float")
    quantized = load_pipeline(tmp_path / "float")
    add_quantizer(quantized)
    alone = [p for _, p in predict_probs(quantized, [quantized.make_doc(BARE[0])])][0]
    for others in (["", "   "], BARE[1:], [BARE[0] + " and then we left"] * 3):
        texts = others[:1] + [BARE[0]] + others[1:]
        beside = [p for _, p in predict_probs(quantized, (quantized.make_doc(t) for t in texts))][1]
        numpy.testing.assert_allclose(alone, beside, atol=1e-6)  # the float ops around the int8 ones vary by 1e-8


def _punctuator_relu(trained_trf, tmp_path):
    """The trained pipeline loaded again, its punctuator's ReLU layer, an
    input to it and the layer's float output."""
    nlp, _, _ = trained_trf
    nlp.to_disk(tmp_path / "float")
    loaded = load_pipeline(tmp_path / "float")
    relu = next(node for node in loaded.get_pipe("punctuator").model.walk() if node.name == "relu")
    X = numpy.random.default_rng(0).normal(size=(5, relu.get_dim("nI"))).astype("float32")
    return loaded, relu, X, relu.predict(X)


def test_the_heads_relu_layers_run_in_int8_while_quantized(trained_trf, tmp_path):
    quantized, relu, X, expected = _punctuator_relu(trained_trf, tmp_path)
    add_quantizer(quantized)
    _probs(quantized)
    got = relu.predict(X)
    assert not numpy.array_equal(got, expected)  # an int8 product
    assert numpy.abs(got - expected).max() < 0.05 * numpy.abs(expected).max()
    numpy.testing.assert_allclose(relu.predict(X[2:3]), got[2:3], atol=1e-6)  # row by row
    Y, backprop = relu(X, is_train=True)  # training runs the float layer
    numpy.testing.assert_allclose(Y, expected, atol=1e-6)
    quantized.to_disk(tmp_path / "int8")
    numpy.testing.assert_array_equal(relu.predict(X), expected)


def test_a_heads_relu_layer_kept_in_float(trained_trf, tmp_path):
    quantized, relu, X, expected = _punctuator_relu(trained_trf, tmp_path)
    add_quantizer(quantized, keep_float=[r"punctuator\.relu"])
    _probs(quantized)
    assert quantized.get_pipe("int8_quantizer").quantized
    numpy.testing.assert_array_equal(relu.predict(X), expected)
