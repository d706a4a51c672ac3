"""Freezing a transformer's embeddings and lowest layers, with the tiny local BERT."""
import pytest
import spacy
from spacy.util import registry

from spacy_punct.training.freeze import freeze_encoder_layers, hf_models

from ..conftest import TEXTS, reader_examples, train
from ..layers.test_transformer import trf_pipeline


def _initialized(tiny_bert, tmp_path):
    from spacy.tokens import DocBin

    nlp = trf_pipeline(tiny_bert)
    DocBin(docs=[nlp.make_doc(t) for t in TEXTS]).to_disk(tmp_path / "tiny.spacy")
    examples = reader_examples(nlp, tmp_path / "tiny.spacy")
    nlp.initialize(lambda: examples)
    return nlp, examples


def _weights(nlp):
    ((_, model),) = hf_models(nlp)
    return {name: param.detach().clone() for name, param in model.named_parameters()}


def _changed(before, after):
    return {name for name in before if not (before[name] == after[name]).all()}


def test_freeze_embeddings_leaves_the_word_pieces_alone(tiny_bert, tmp_path):
    nlp, examples = _initialized(tiny_bert, tmp_path)
    registry.callbacks.get("spacy_punct.freeze_embeddings.v1")()(nlp)
    before = _weights(nlp)
    train(nlp, examples, n_iter=3)
    changed = _changed(before, _weights(nlp))
    assert "embeddings.word_embeddings.weight" not in changed
    assert "embeddings.position_embeddings.weight" in changed
    assert "encoder.layer.0.attention.self.query.weight" in changed


def test_freeze_layers_leaves_the_lowest_layers_alone(tiny_bert, tmp_path):
    nlp, examples = _initialized(tiny_bert, tmp_path)
    registry.callbacks.get("spacy_punct.freeze_layers.v1")(layers=1)(nlp)
    before = _weights(nlp)
    train(nlp, examples, n_iter=3)
    changed = _changed(before, _weights(nlp))
    assert not {name for name in changed if name.startswith(("embeddings.", "encoder.layer.0."))}
    assert "encoder.layer.1.attention.self.query.weight" in changed
    assert "encoder.layer.1.output.dense.weight" in changed


def test_freeze_layers_refuses_what_it_cannot_freeze(tiny_bert, tmp_path):
    nlp, _ = _initialized(tiny_bert, tmp_path)
    with pytest.raises(ValueError, match="at least one must train"):
        registry.callbacks.get("spacy_punct.freeze_layers.v1")(layers=2)(nlp)
    with pytest.raises(ValueError, match="no Hugging Face transformer"):
        registry.callbacks.get("spacy_punct.freeze_layers.v1")(layers=1)(spacy.blank("en"))
    not_bert = type("NotBert", (), {"base_model": object()})()
    with pytest.raises(ValueError, match="has no embeddings and encoder.layer"):
        freeze_encoder_layers(not_bert, 1)
