"""The distill job: one file or a folder of parts, and a stopped folder run
that goes on from its parts."""

import json
import shutil

import pytest
from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.errors import UserError
from spacy_punct.jobs.distill import SETTINGS_FILE, DistillJob, run_distill
from spacy_punct.word_records import read_docbins

from ..conftest import TEXTS


def _distill(*args):
    return CliRunner().invoke(app, ["distill", *map(str, args), "--tokens-per-file", "15", "--batch-size", "1"])


def test_a_stopped_run_goes_on_after_its_parts_and_ends_as_one_run(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "teacher")
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    assert _distill(tmp_path / "teacher", corpus_path, whole).exit_code == 0
    parts = sorted(whole.glob("*.spacy"))
    assert len(parts) >= 3
    stopped.mkdir()  # what a run stopped after two parts leaves
    for path in [whole / SETTINGS_FILE, *parts[:2]]:
        shutil.copy(path, stopped)
    n_kept = sum(1 for _ in read_docbins(stopped, trained.vocab))
    result = _distill(tmp_path / "teacher", corpus_path, stopped, "--resume")
    assert result.exit_code == 0, result.output
    assert f"Went on after the {n_kept} docs" in result.output
    assert f"Wrote {len(TEXTS) - n_kept} docs" in result.output and f"{len(parts)} file(s)" in result.output
    assert [p.read_bytes() for p in sorted(stopped.glob("*.spacy"))] == [p.read_bytes() for p in parts]
    # a finished run resumed writes nothing more
    result = _distill(tmp_path / "teacher", corpus_path, stopped, "--resume")
    assert result.exit_code == 0 and "Wrote 0 docs" in result.output
    assert len(list(stopped.glob("*.spacy"))) == len(parts)


def test_resume_starts_afresh_in_an_empty_folder_and_keeps_its_settings(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "teacher")
    result = _distill(tmp_path / "teacher", corpus_path, tmp_path / "new", "--resume")
    assert result.exit_code == 0 and f"Wrote {len(TEXTS)} docs" in result.output
    settings = json.loads((tmp_path / "new" / SETTINGS_FILE).read_text())
    assert settings["teachers"][0].startswith(f"{(tmp_path / 'teacher').resolve()} (")
    assert settings["tokens_per_file"] == 15


def test_parts_of_other_settings_or_without_resume_are_refused_and_kept(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "teacher")
    out = tmp_path / "taught"
    assert _distill(tmp_path / "teacher", corpus_path, out).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    result = _distill(tmp_path / "teacher", corpus_path, out)
    assert result.exit_code == 1 and "add --resume to go on" in result.output
    result = _distill(tmp_path / "teacher", corpus_path, out, "--resume", "--no-lowercase")
    assert result.exit_code == 1 and "lowercase True, not False" in result.output
    assert "Traceback" not in result.output
    (out / "part-00001.spacy").unlink()
    del before["part-00001.spacy"]
    result = _distill(tmp_path / "teacher", corpus_path, out, "--resume")
    assert result.exit_code == 1 and "without a gap" in result.output
    trained.to_disk(tmp_path / "teacher")  # a later teacher in the same folder
    result = _distill(tmp_path / "teacher", corpus_path, out, "--resume")
    assert result.exit_code == 1 and "other settings (teachers" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_resume_needs_a_folder(trained, corpus_path, tmp_path):
    job = DistillJob(str(tmp_path / "teacher"), corpus_path, tmp_path / "taught.spacy", resume=True)
    with pytest.raises(UserError, match="folder of parts"):
        run_distill(job, lambda: None)
