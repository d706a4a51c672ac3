"""The garbage collector in processes that load their pipelines once."""

import gc

from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.runtime.collector import freeze_loaded_objects


def test_objects_alive_at_the_call_leave_the_scans():
    kept = [[] for _ in range(1000)]
    freeze_loaded_objects()
    assert gc.get_freeze_count() >= len(kept)
    assert not any(o is kept for o in gc.get_objects())  # tracked objects outside the frozen ones


def test_a_command_freezes_what_it_loaded(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    gc.unfreeze()
    result = CliRunner().invoke(app, ["punctuate", str(tmp_path / "model")], input="so how was the trip\n")
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() > 0
