"""Loading imports only the factories a pipeline names (in a fresh process,
since the test session has imported everything already)."""

import json
import subprocess
import sys

import pytest
from spacy import util

from spacy_punct.pipelines import load_pipeline
from spacy_punct.runtime.factory_imports import factory_names, named_factories_only

from ..conftest import reader_examples
from ..layers.test_transformer import trf_pipeline

LOAD = """
import json, sys
from spacy_punct.pipelines import load_pipeline
nlp = load_pipeline(sys.argv[1])
print(json.dumps({"text": nlp("so how was the trip").text, "imported": "spacy_transformers" in sys.modules}))
"""


def load_in_new_process(path) -> dict:
    out = subprocess.run([sys.executable, "-c", LOAD, str(path)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_cpu_pipeline_loads_without_the_transformer_packages(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    loaded = load_in_new_process(tmp_path / "model")
    assert loaded == {"text": trained("so how was the trip").text, "imported": False}


def test_a_transformer_pipeline_imports_its_factory(tiny_bert, corpus_path, tmp_path):
    nlp = trf_pipeline(tiny_bert)
    nlp.initialize(lambda: reader_examples(nlp, corpus_path))
    nlp.to_disk(tmp_path / "model")
    assert load_in_new_process(tmp_path / "model") == {"text": nlp("so how was the trip").text, "imported": True}


def test_an_unknown_factory_fails_as_usual_and_imports_come_back(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    config = util.load_config(tmp_path / "model" / "config.cfg")
    config["components"]["punctuator"]["factory"] = "no_such_factory"
    config.to_disk(tmp_path / "model" / "config.cfg")
    with pytest.raises(ValueError, match="no_such_factory"):
        load_pipeline(tmp_path / "model")
    assert util.registry._entry_point_factories.entry_points


def test_sourced_components_load_the_usual_way(tmp_path):
    assert factory_names({"components": {"a": {"factory": "tok2vec"}, "b": {"source": "en_core_web_sm"}}}) is None
    with named_factories_only(tmp_path / "missing"):
        assert util.registry._entry_point_factories.entry_points
