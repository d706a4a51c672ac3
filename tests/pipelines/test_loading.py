"""Loading a punctuating pipeline and its class probabilities."""

import numpy
import pytest
import spacy

from spacy_punct.pipelines import PipelineError, load_pipeline, predict_probs

from ..conftest import TEXTS

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


def test_load_pipeline_raises_clear_errors(trained, tmp_path):
    with pytest.raises(PipelineError, match="Cannot load pipeline"):
        load_pipeline(tmp_path / "missing")
    spacy.blank("en").to_disk(tmp_path / "blank")
    with pytest.raises(PipelineError, match="no punctuator"):
        load_pipeline(tmp_path / "blank")
    trained.to_disk(tmp_path / "model")
    nlp = load_pipeline(tmp_path / "model", config={"components": {"punctuator": {"keep_existing": True}}})
    assert nlp.get_pipe("punctuator").settings.keep_existing


@pytest.mark.parametrize(
    "name,message",
    [
        ("xx", "no bundled pipeline .*en_punct_sm.*installed package or folder of that name"),
        ("./nowhere/model", "no such folder"),
        (".", "the folder has no config.cfg"),
        ("pyproject.toml", "a file, not a pipeline folder"),
    ],
)
def test_load_pipeline_names_what_is_missing_in_one_line(name, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    with pytest.raises(PipelineError, match=message) as info:
        load_pipeline(name)
    assert "\n" not in str(info.value)


def test_predict_probs_leaves_the_pipeline_alone(trained):
    pipe = trained.get_pipe("punctuator")
    docs = [trained.make_doc(text) for text in BARE[:2]]
    results = list(predict_probs(trained, docs))
    assert [doc for doc, _ in results] == docs
    assert all(probs.shape == (len(doc), 4) for doc, probs in results)
    assert numpy.allclose(results[0][1].sum(axis=1), 1.0, atol=1e-4)
    assert pipe.rewrite and not pipe.store_probs and docs[0][0]._.punct is None
