"""Training in stages: a run starts from a saved pipeline's weights."""
import pytest
from spacy.util import registry

from spacy_punct.training.warm_start import warm_start

from ..conftest import TEXTS, reader_examples, train
from ..layers.test_transformer import trf_pipeline


def _trained_and_saved(tiny_bert, tmp_path):
    from spacy.tokens import DocBin

    nlp = trf_pipeline(tiny_bert, cpu_precision="float32")
    DocBin(docs=[nlp.make_doc(t) for t in TEXTS]).to_disk(tmp_path / "tiny.spacy")
    examples = reader_examples(nlp, tmp_path / "tiny.spacy")
    nlp.initialize(lambda: examples)
    train(nlp, examples, n_iter=5)
    nlp.to_disk(tmp_path / "stage1")
    return nlp, examples


def _probs(nlp, text="so how was the trip it was long"):
    pipe = nlp.get_pipe("punctuator")
    return pipe.model.predict([nlp.make_doc(text)])


def test_a_new_pipeline_starts_from_the_saved_weights(tiny_bert, tmp_path):
    saved, examples = _trained_and_saved(tiny_bert, tmp_path)
    fresh = trf_pipeline(tiny_bert, cpu_precision="float32")
    fresh.initialize(lambda: examples)
    assert not (_probs(fresh)[0] == _probs(saved)[0]).all()
    callback = registry.callbacks.get("spacy_punct.warm_start.v1")(source=str(tmp_path / "stage1"))
    assert callback(fresh) is fresh  # by default every trained component both have: here no truecaser
    assert (abs(_probs(fresh)[0] - _probs(saved)[0]) < 1e-5).all()
    train(fresh, examples, n_iter=1)  # and it trains on


def test_warm_start_names_a_missing_component(tiny_bert, tmp_path):
    saved, _ = _trained_and_saved(tiny_bert, tmp_path)
    with pytest.raises(ValueError, match="truecaser"):
        warm_start(saved, str(tmp_path / "stage1"), ["transformer", "truecaser"])


def test_warm_start_from_a_pipeline_without_the_trained_components_says_so(tiny_bert, tmp_path):
    import spacy

    from spacy_punct.training.warm_start import WarmStartError

    spacy.blank("en").to_disk(tmp_path / "blank")
    nlp = trf_pipeline(tiny_bert, cpu_precision="float32")
    with pytest.raises(WarmStartError, match="has none of this pipeline's trained components"):
        warm_start(nlp, str(tmp_path / "blank"))


def test_warm_start_skips_the_components_named(tiny_bert, tmp_path):
    import torch

    from spacy_punct.hf_models import hf_models

    saved, examples = _trained_and_saved(tiny_bert, tmp_path)
    fresh = trf_pipeline(tiny_bert, cpu_precision="float32")
    fresh.initialize(lambda: examples)
    encoder = {key: value.clone() for key, value in dict(hf_models(fresh))["transformer"].state_dict().items()}
    assert warm_start(fresh, str(tmp_path / "stage1"), skip=["transformer"]) == ["punctuator"]
    kept = dict(hf_models(fresh))["transformer"].state_dict()
    assert all(torch.equal(kept[key], value) for key, value in encoder.items())
    trained = dict(hf_models(saved))["transformer"].state_dict()
    assert not all(torch.equal(kept[key], trained[key]) for key in encoder)
    head = saved.get_pipe("punctuator").to_bytes(exclude=["vocab"])
    assert fresh.get_pipe("punctuator").to_bytes(exclude=["vocab"]) == head
