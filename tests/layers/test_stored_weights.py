"""spacy_punct.TransformerModel.v1's weights_storage, with the tiny local BERT."""

import numpy
import pytest
import spacy
import torch
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.components.quantizer import storage_overrides
from spacy_punct.layers.stored_weights import INT8_SUFFIX, compact_state, expand_state
from spacy_punct.pipelines import load_pipeline, predict_probs

from ..conftest import TEXTS, reader_examples, train
from .test_transformer import trf_pipeline

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


def _probs(nlp):
    return [p for _, p in predict_probs(nlp, (nlp.make_doc(t) for t in BARE))]


def test_matrices_are_stored_as_int8_rows_within_half_a_step():
    torch.manual_seed(0)
    state = {"w": torch.randn(5, 7), "b": torch.randn(7), "zero": torch.zeros(2, 3), "ids": torch.arange(4)}
    compact = compact_state(state)
    assert compact["w" + INT8_SUFFIX].dtype == torch.int8 and "w" not in compact
    assert compact["b"] is state["b"] and compact["ids"] is state["ids"]  # vectors and integers stay
    expanded = expand_state(compact)
    assert set(expanded) == set(state)
    step = state["w"].abs().amax(dim=1, keepdim=True) / 127
    assert bool(((expanded["w"] - state["w"]).abs() <= step / 2 + 1e-7).all())
    assert bool((expanded["zero"] == 0).all())
    # storing again what was read back changes nothing
    again = expand_state(compact_state(expanded))
    assert torch.equal(again["w"], expanded["w"])


@pytest.fixture(scope="module")
def trained_float(tiny_bert, tmp_path_factory):
    nlp = trf_pipeline(tiny_bert, cpu_precision="float32")
    path = tmp_path_factory.mktemp("stored") / "tiny.spacy"
    DocBin(docs=[nlp.make_doc(t) for t in TEXTS]).to_disk(path)
    train(nlp, reader_examples(nlp, path), n_iter=30)
    out = path.parent / "float"
    nlp.to_disk(out)
    return out


def test_an_int8_stored_pipeline_is_smaller_and_predicts_alike(trained_float, tmp_path):
    reference = load_pipeline(trained_float)
    compact = load_pipeline(trained_float, config=storage_overrides(reference, "int8"))
    compact.to_disk(tmp_path / "int8")
    float_size = (trained_float / "transformer" / "model").stat().st_size
    int8_size = (tmp_path / "int8" / "transformer" / "model").stat().st_size
    assert int8_size < 0.6 * float_size, (int8_size, float_size)  # the tiny BERT is mostly vectors and metadata
    loaded = spacy.load(tmp_path / "int8")
    assert loaded.config["components"]["transformer"]["model"]["weights_storage"] == "int8"
    expected, got = _probs(reference), _probs(loaded)
    for a, b in zip(expected, got):
        assert a.shape == b.shape
        assert numpy.abs(a - b).max() < 0.05
    assert any(numpy.abs(a - b).max() > 0 for a, b in zip(expected, got))  # the int8 weights were read
    loaded.to_disk(tmp_path / "again")  # loading and saving again loses nothing more
    for a, b in zip(got, _probs(spacy.load(tmp_path / "again"))):
        numpy.testing.assert_allclose(a, b, atol=1e-6)


def test_storage_needs_spacy_punct_transformer(tiny_bert, trained):
    with pytest.raises(ValueError, match="weights_storage must be one of"):
        storage_overrides(trained, "int4")
    nlp = trf_pipeline(tiny_bert)  # spacy-transformers.TransformerModel.v3
    with pytest.raises(ValueError, match="only spacy_punct.TransformerModel.v1"):
        storage_overrides(nlp, "int8")


def test_quantize_cli_writes_int8_weights(trained_float, tmp_path):
    result = CliRunner().invoke(app, ["quantize", str(trained_float), str(tmp_path / "q"), "--weights-storage", "int8"])
    assert result.exit_code == 0, result.output
    loaded = spacy.load(tmp_path / "q")
    assert loaded.pipe_names[0] == "int8_quantizer"
    assert loaded.config["components"]["transformer"]["model"]["weights_storage"] == "int8"
    assert len(_probs(loaded)) == len(BARE)


def test_the_bundle_script_makes_a_compact_int8_pipeline_that_punctuates(trained_float, tmp_path):
    """scripts/bundle_model.py pipeline --int8 on the tiny BERT: int8 weights
    stored, an int8 quantizer, the last sentence closed, the encoder named
    by its hub name rather than the folder it was trained from; it loads and
    punctuates with no Hugging Face model to fetch."""
    import subprocess
    import sys
    from pathlib import Path

    from spacy_punct import punctuate

    script = Path(__file__).parent.parent.parent / "scripts" / "bundle_model.py"
    out = tmp_path / "xx_punct_trf"
    out.mkdir()  # an earlier bundle: replaced whole
    (out / "config.cfg").write_text("")
    (out / "stale.txt").write_text("")
    result = subprocess.run(
        [
            sys.executable,
            str(script),
            "pipeline",
            str(trained_float),
            str(out),
            "--int8",
            "--encoder-name",
            "no-such-org/no-such-model",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-1000:]
    assert not (out / "stale.txt").exists() and [path.name for path in tmp_path.iterdir()] == [out.name]
    nlp = load_pipeline(out)
    assert nlp.pipe_names[0] == "int8_quantizer"
    assert nlp.config["components"]["transformer"]["model"]["weights_storage"] == "int8"
    assert nlp.config["components"]["transformer"]["model"]["name"] == "no-such-org/no-such-model"
    assert nlp.get_pipe("punctuator").settings.close_last_sentence
    (doc,) = punctuate(nlp, [BARE[0]])
    assert doc.text[-1] in ".?!" and doc.text.lower().replace(",", "").replace("?", "").replace(".", "") == BARE[0]


def test_the_model_is_built_from_the_class_its_config_names():
    """AutoModel.from_config first imported every model type (0.9 s a load)."""
    from transformers import BertConfig, BertModel

    from spacy_punct.layers.stored_weights import ConfiguredModelClass

    class Auto:
        calls = 0

        @classmethod
        def from_config(cls, config):
            cls.calls += 1
            return "auto"

    config = BertConfig(vocab_size=10, hidden_size=8, num_hidden_layers=1, num_attention_heads=2, intermediate_size=8)
    assert isinstance(ConfiguredModelClass(Auto).from_config(config), BertModel) and Auto.calls == 0
    config.model_type = "no-such-model"
    assert ConfiguredModelClass(Auto).from_config(config) == "auto" and Auto.calls == 1


def test_a_loaded_model_runs_the_attention_it_was_trained_with(tiny_bert, trained_float):
    """transformers 4.46 saved that it had chosen the attention itself, and the
    loaded model then ran the unfused "eager" attention (other numbers, slower)."""
    from spacy_punct.layers.hf_models import hf_models

    nlp = trf_pipeline(tiny_bert, cpu_precision="float32")
    nlp.initialize()
    ((_, built),) = hf_models(nlp)
    ((_, loaded),) = hf_models(load_pipeline(trained_float))
    assert loaded.config._attn_implementation == built.config._attn_implementation
    assert type(loaded.encoder.layer[0].attention.self) is type(built.encoder.layer[0].attention.self)


def test_the_bundle_script_refuses_what_would_lose_a_folder(tmp_path, monkeypatch):
    import importlib.util
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent.parent / "scripts" / "bundle_model.py"
    spec = importlib.util.spec_from_file_location("bundle_model", script)
    bundle_model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bundle_model)
    model = tmp_path / "run" / "model-best"
    model.mkdir(parents=True)
    (model / "config.cfg").write_text("")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("kept")
    for source, output, message in (
        (tmp_path / "missing", tmp_path / "out", "is not a pipeline folder"),
        (model, tmp_path / "run", "holds the trained pipeline"),
        (model, model, "holds the trained pipeline"),
        (model, tmp_path / "notes", "exists and is not a pipeline folder"),
    ):
        monkeypatch.setattr(sys, "argv", ["bundle_model.py", "pipeline", str(source), str(output)])
        with pytest.raises(SystemExit, match=message):
            bundle_model.main()
    assert not (tmp_path / "out").exists() and (tmp_path / "notes" / "a.txt").read_text() == "kept"
    assert (model / "config.cfg").exists()


class _RunsCode:
    def __reduce__(self):
        return (print, ("code ran while loading",))


def test_stored_weights_load_tensors_only_and_no_code():
    import pickle

    from spacy_punct.layers.stored_weights import _load, _save

    state = {"weight": torch.ones(2, 2)}
    assert torch.equal(_load(_save(state))["weight"], state["weight"])
    with pytest.raises(pickle.UnpicklingError):
        _load(_save({"weight": _RunsCode()}))
