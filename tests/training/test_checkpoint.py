"""A run's checkpoint: stable names for the optimizer's keys, configs compared."""

import json
from pathlib import Path

import numpy
import spacy
from spacy.training import Example
from thinc.api import Adam, Config

from spacy_punct.training.checkpoint import (
    RunState,
    checkpoint_directory,
    config_differences,
    optimizer_state,
    parameter_names,
    restore_optimizer,
)

from ..conftest import LISTENER_CONFIG, TOK2VEC_CONFIG, gold


def _pipeline():
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec", config=TOK2VEC_CONFIG)
    nlp.add_pipe("punctuator", config=LISTENER_CONFIG)
    examples = [Example(nlp.make_doc("so how was it"), gold(nlp.vocab, ["so", "how", "was", "it"], ["", "", "", "?"]))]
    nlp.initialize(lambda: examples)
    return nlp


def test_the_optimizer_state_moves_to_a_pipeline_built_anew():
    first, second = _pipeline(), _pipeline()  # the same pipeline, other ids
    names_first, names_second = parameter_names(first), parameter_names(second)
    assert sorted(names_first.values()) == sorted(names_second.values())
    assert set(names_first) != set(names_second)
    optimizer = Adam(0.001)
    key = next(iter(names_first))
    optimizer.mom1[key] = numpy.arange(3, dtype="f")
    optimizer.nr_update[key] = 7
    arrays, counts = optimizer_state(optimizer, names_first)
    fresh = Adam(0.001)
    restore_optimizer(fresh, names_second, arrays, counts, steps=0)
    (moved,) = [k for k, name in names_second.items() if name == names_first[key]]
    assert numpy.array_equal(fresh.mom1[moved], numpy.arange(3, dtype="f")) and fresh.nr_update[moved] == 7


def test_config_differences_name_the_settings():
    a = Config({"training": {"dropout": 0.1, "seed": 0}, "paths": {"train": "a"}})
    b = Config({"training": {"dropout": 0.2, "seed": 0}, "paths": {"train": "a", "dev": "b"}})
    assert config_differences(a, b) == ["paths.dev", "training.dropout"]


def test_two_paths_to_one_folder_do_not_differ(tmp_path, monkeypatch):
    # a run started from the repository (its relative paths read there) and resumed from a project's folder
    (tmp_path / "corpus" / "train").mkdir(parents=True)
    (tmp_path / "projects" / "p").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "projects" / "p")
    saved = Config({"paths": {"train": "corpus/train", "dev": "corpus/dev"}})
    given = Config({"paths": {"train": "../../corpus/train", "dev": "../../corpus/dev"}})
    assert config_differences(saved, given, saved_directory=tmp_path) == ["paths.dev"]  # no such folder: differs
    assert config_differences(saved, given) == ["paths.dev", "paths.train"]  # where they were read is unknown


def test_the_directory_a_checkpoint_was_written_from_reads_back(tmp_path):
    (tmp_path / "state.json").write_text(json.dumps({"state": {"seed": 0}, "directory": "/runs/repo"}), encoding="utf8")
    assert checkpoint_directory(tmp_path) == Path("/runs/repo")
    (tmp_path / "state.json").write_text(
        json.dumps({"state": {"seed": 0}}), encoding="utf8"
    )  # written before it was kept
    assert checkpoint_directory(tmp_path) is None


def test_a_run_state_reads_back_from_json():
    state = RunState(seed=3, step=5, results=[(0.5, 0), (0.6, 2)])
    import dataclasses
    import json

    assert RunState.from_json(json.loads(json.dumps(dataclasses.asdict(state)))) == state
