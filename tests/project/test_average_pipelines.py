"""scripts/average_pipelines.py: every weight of the averaged pipeline, the
head's and the transformer's, is the mean of the pipelines' weights."""

import sys
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.tokens import DocBin

from ..conftest import TEXTS, reader_examples, train
from ..layers.test_transformer import trf_pipeline

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    import average_pipelines
finally:
    sys.path.pop(0)


@pytest.fixture(scope="module")
def two_runs(tiny_bert, tmp_path_factory):
    """Two short runs of one recipe with different seeds, saved."""
    folder = tmp_path_factory.mktemp("runs")
    paths = []
    for seed in (0, 1):
        nlp = trf_pipeline(tiny_bert)
        DocBin(docs=[nlp.make_doc(text) for text in TEXTS]).to_disk(folder / "tiny.spacy")
        train(nlp, reader_examples(nlp, folder / "tiny.spacy"), n_iter=3, seed=seed)
        nlp.to_disk(folder / f"run{seed}")
        paths.append(folder / f"run{seed}")
    return paths


def _weights(nlp):
    """The thinc parameters and torch tensors of a pipeline, in walk order."""
    values = []
    for _, pipe in nlp.pipeline:
        for node in pipe.model.walk():
            values += [node.get_param(p).copy() for p in node.param_names if node.has_param(p)]
            for shim in node.shims:
                if hasattr(getattr(shim, "_model", None), "state_dict"):
                    values += [
                        v.detach().numpy().copy() for v in shim._model.state_dict().values() if v.is_floating_point()
                    ]
    return values


def test_each_weight_is_the_mean(two_runs):
    first, second = (spacy.load(path) for path in two_runs)
    expected = [(a + b) / 2 for a, b in zip(_weights(first), _weights(second))]
    assert any(not numpy.allclose(a, b) for a, b in zip(_weights(first), _weights(second)))
    count = average_pipelines.average_into(first, [second])
    averaged = _weights(first)
    assert count == len(expected) == len(averaged)
    for got, want in zip(averaged, expected):
        numpy.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_the_average_of_a_pipeline_with_itself_predicts_as_it(two_runs):
    nlp, copy = spacy.load(two_runs[0]), spacy.load(two_runs[0])
    average_pipelines.average_into(copy, [spacy.load(two_runs[0])])
    assert [d.text for d in copy.pipe(TEXTS)] == [d.text for d in nlp.pipe(TEXTS)]


def test_the_command_writes_a_new_folder_and_never_overwrites(two_runs, tmp_path):
    import subprocess

    script = str(ROOT / "scripts" / "average_pipelines.py")
    out = tmp_path / "soup" / "model-last"
    done = subprocess.run([sys.executable, script, str(out), *map(str, two_runs)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Averaged" in done.stdout and spacy.load(out).pipe_names == ["transformer", "punctuator"]
    again = subprocess.run([sys.executable, script, str(out), *map(str, two_runs)], capture_output=True, text=True)
    assert again.returncode == 1 and again.stderr.strip() == f"Error: {out} exists; give a new folder"


def test_a_path_that_is_no_pipeline_is_a_one_line_error(two_runs, tmp_path, monkeypatch):
    monkeypatch.setattr(
        sys, "argv", ["average_pipelines.py", str(tmp_path / "soup"), str(two_runs[0]), str(tmp_path / "missing")]
    )
    with pytest.raises(SystemExit, match=f"^Error: {tmp_path / 'missing'} is not a pipeline folder"):
        average_pipelines.main()
    assert not (tmp_path / "soup").exists()


def test_a_bundle_with_its_int8_quantizer_is_averaged_too(two_runs):
    first, second = (spacy.load(path) for path in two_runs)
    for nlp in (first, second):
        nlp.add_pipe("int8_quantizer", first=True)
    expected = [(a + b) / 2 for a, b in zip(_weights_of(first), _weights_of(second))]
    assert average_pipelines.average_into(first, [second]) == len(expected)
    for got, want in zip(_weights_of(first), expected):
        numpy.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def _weights_of(nlp):
    """`_weights` of the components that have a model."""
    components = [name for name, pipe in nlp.pipeline if hasattr(pipe, "model")]
    with nlp.select_pipes(enable=components):
        return _weights(nlp)
