import json
import pickle
from pathlib import Path

import numpy
import spacy

from spacy_punct.components.punctuator import Punctuator

from .conftest import TEXTS, listener_pipeline

SAMPLES = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


def _probs(nlp):
    pipe = nlp.get_pipe("punctuator")
    docs = [nlp.get_pipe("tok2vec")(nlp.make_doc(text)) for text in SAMPLES]
    return pipe.predict(docs)


def _assert_same(a, b):
    assert [d.text for d in a.pipe(SAMPLES)] == [d.text for d in b.pipe(SAMPLES)]
    for x, y in zip(_probs(a), _probs(b)):
        numpy.testing.assert_array_equal(x, y)


def test_to_disk_from_disk_and_spacy_load(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    _assert_same(trained, listener_pipeline().from_disk(tmp_path / "model"))
    loaded = spacy.load(tmp_path / "model")
    _assert_same(trained, loaded)
    assert loaded.get_pipe("punctuator").labels == trained.get_pipe("punctuator").labels


def test_to_bytes_from_bytes(trained):
    _assert_same(trained, listener_pipeline().from_bytes(trained.to_bytes()))


def test_component_round_trip(trained, tmp_path):
    pipe = trained.get_pipe("punctuator")
    pipe.to_disk(tmp_path / "punctuator")
    nlp = listener_pipeline()
    nlp.get_pipe("tok2vec").from_bytes(trained.get_pipe("tok2vec").to_bytes())
    nlp.get_pipe("punctuator").from_disk(tmp_path / "punctuator")
    _assert_same(trained, nlp)
    nlp.get_pipe("punctuator").from_bytes(pipe.to_bytes())
    _assert_same(trained, nlp)


def test_settings_come_from_the_config_not_the_saved_cfg(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model", config={"components": {"punctuator": {"rewrite": False}}})
    pipe = loaded.get_pipe("punctuator")
    assert isinstance(pipe, Punctuator) and pipe.rewrite is False
    doc = loaded("so how was the trip")
    assert doc.text == "so how was the trip" and doc._.punctuated == "So, how was the trip?"


def test_pickle(trained):
    pipe = pickle.loads(pickle.dumps(trained.get_pipe("punctuator")))
    assert pipe.labels == trained.get_pipe("punctuator").labels


LEGACY = Path(__file__).parent / "data" / "pipeline_v0_1_0"


def test_pipeline_saved_by_version_0_1_0_gives_the_same_output():
    """A small tok2vec (hash embeddings, BiLSTM) + punctuator pipeline with a
    QUESTION threshold, saved by spacy-punct 0.1.0 together with its output on
    these inputs (expected.json)."""
    nlp = spacy.load(LEGACY / "pipeline", config={"components": {"punctuator": {"store_probs": True}}})
    expected = json.loads((LEGACY / "expected.json").read_text(encoding="utf8"))
    for case in expected:
        doc = nlp(case["input"])
        assert doc.text == case["text"]
        assert [sent.text for sent in doc.sents] == case["sentences"]
        numpy.testing.assert_allclose(doc._.punct_probs, numpy.array(case["probs"], dtype="f"), atol=1e-6)


def test_the_bundled_pipelines_pickle_after_use():
    """en_punct_trf's layers had closures as forwards (the piece limit, autocast, the int8
    ReLU layers) and its int8 layers a weak reference: it could not be pickled."""
    from spacy_punct import load_pipeline

    text = "so how was the trip it was long but we saw the coast"
    for name in ("en_punct_trf", "en_punct_sm"):
        nlp = load_pipeline(name)
        before = nlp(text).text
        assert pickle.loads(pickle.dumps(nlp))(text).text == before


SPAWNED = """
import multiprocessing, sys
from spacy_punct import load_pipeline
if __name__ == "__main__":
    multiprocessing.set_start_method("spawn", force=True)
    nlp = load_pipeline("en_punct_trf")
    texts = ["so how was the trip it was long", "where did you stay", "we saw the coast it was fine"] * 2
    alone = [nlp(text).text for text in texts]
    print(alone == [doc.text for doc in nlp.pipe(texts, n_process=2, batch_size=2)])
"""


def test_n_process_under_the_spawn_start_method(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "spawned.py"
    script.write_text(SPAWNED, encoding="utf8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "True"
