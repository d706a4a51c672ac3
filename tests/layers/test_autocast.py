"""spacy_punct.TransformerModel.v1: the encoder under CPU autocast, with the
tiny local BERT."""

import numpy
import pytest
import spacy
import torch
from spacy.tokens import DocBin

from spacy_punct.layers.transformer import autocast_dtype, native_bfloat16
from spacy_punct.pipelines import predict_probs

from ..conftest import TEXTS, reader_examples, train
from .test_transformer import trf_pipeline

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]
FLOAT32 = {"components": {"transformer": {"model": {"cpu_precision": "float32"}}}}


def _probs(nlp):
    return [p for _, p in predict_probs(nlp, (nlp.make_doc(t) for t in BARE))]


def test_cpu_precisions():
    assert autocast_dtype("float32") is None
    assert autocast_dtype("bfloat16") is torch.bfloat16
    assert autocast_dtype("auto") is (torch.bfloat16 if native_bfloat16() else None)
    with pytest.raises(ValueError, match="cpu_precision must be one of auto, bfloat16, float32"):
        autocast_dtype("float16")


def test_a_bfloat16_encoder_trains_saves_and_loads_in_either_precision(tiny_bert, tmp_path):
    nlp = trf_pipeline(tiny_bert, cpu_precision="bfloat16")
    path = tmp_path / "tiny.spacy"
    DocBin(docs=[nlp.make_doc(t) for t in TEXTS]).to_disk(path)
    examples = reader_examples(nlp, path)
    losses = train(nlp, examples, n_iter=100)  # as the float32 overfitting test
    assert nlp.get_pipe("transformer").model.layers[0].attrs["cpu_autocast"] is torch.bfloat16
    assert losses["punctuator"] < 1.0, losses
    assert nlp.evaluate(examples)["punct_f"] == 1.0
    doc = nlp.get_pipe("transformer")(nlp.make_doc("so how was the trip"))  # a rewritten doc drops the input's trf_data
    assert {str(v.dtype) for v in doc._.trf_data.model_output.values()} == {"float32"}

    nlp.to_disk(tmp_path / "model")
    bfloat16, float32 = spacy.load(tmp_path / "model"), spacy.load(tmp_path / "model", config=FLOAT32)
    assert float32.get_pipe("transformer").model.layers[0].attrs.get("cpu_autocast") is None
    got, expected = _probs(bfloat16), _probs(float32)
    for a, b in zip(got, expected):
        assert a.shape == b.shape
        assert numpy.abs(a - b).max() < 0.05
    assert any(numpy.abs(a - b).max() > 0 for a, b in zip(got, expected))  # bfloat16 did run
    for a, b in zip(got, _probs(nlp)):
        numpy.testing.assert_allclose(a, b, atol=1e-6)


def test_set_cpu_precision_on_a_spacy_transformers_pipeline(tiny_bert, trained):
    from spacy_punct.components.quantizer import add_quantizer
    from spacy_punct.layers.transformer import set_cpu_precision

    nlp = trf_pipeline(tiny_bert)  # spacy-transformers.TransformerModel.v3
    nlp.initialize()
    layer = nlp.get_pipe("transformer").model.layers[0]

    def hidden():  # the untrained head's probabilities are uniform: read the encoder
        return nlp.get_pipe("transformer")(
            nlp.make_doc("so how was the trip it was long")
        )._.trf_data.model_output.last_hidden_state

    expected = hidden()
    assert set_cpu_precision(nlp, "bfloat16") == ["transformer"]
    assert layer.attrs["cpu_autocast"] is torch.bfloat16
    got = hidden()
    assert got.dtype == expected.dtype and 0 < numpy.abs(got - expected).max() < 0.1
    set_cpu_precision(nlp, "float32")
    numpy.testing.assert_allclose(hidden(), expected, atol=1e-6)
    with pytest.raises(ValueError, match="cpu_precision must be one of"):
        set_cpu_precision(nlp, "half")
    add_quantizer(nlp)
    with pytest.raises(ValueError, match="quantized"):
        set_cpu_precision(nlp, "bfloat16")
    with pytest.raises(ValueError, match="no transformer"):
        set_cpu_precision(trained, "bfloat16")


def test_cli_cpu_precision(tiny_bert, trained, tmp_path):
    from typer.testing import CliRunner

    from spacy_punct.cli import app

    nlp = trf_pipeline(tiny_bert)
    nlp.initialize()
    nlp.to_disk(tmp_path / "trf")
    trained.to_disk(tmp_path / "cpu")
    runner = CliRunner()
    result = runner.invoke(app, ["punctuate", str(tmp_path / "trf"), "--cpu-precision", "bfloat16"], input="so how\n")
    assert result.exit_code == 0, result.output
    for model, precision, message in (
        ("trf", "half", "cpu_precision must be one of"),
        ("cpu", "bfloat16", "no transformer"),
    ):
        result = runner.invoke(
            app, ["punctuate", str(tmp_path / model), "--cpu-precision", precision], input="so how\n"
        )
        assert result.exit_code == 1 and message in result.output, result.output
