"""The punctuate job as a library call: what the command line runs, without it."""

import json
from pathlib import Path
from typing import List

import pytest

from spacy_punct.errors import UserError
from spacy_punct.inference.options import PunctOptions
from spacy_punct.jobs.punctuate import PunctuateJob, run_punctuate


class Collected:
    """A report that keeps what a job tells."""

    def __init__(self) -> None:
        self.notes: List[str] = []
        self.words = 0

    def note(self, text: str) -> None:
        self.notes.append(text)

    def advance(self, words: int) -> None:
        self.words += words


@pytest.fixture
def model(trained, tmp_path) -> str:
    trained.to_disk(tmp_path / "model")
    return str(tmp_path / "model")


def test_a_text_file_is_punctuated_with_its_notes_and_progress(model, tmp_path):
    source, target = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("So, how was it? It was long. we saw the coast\nso how was the trip\n", encoding="utf8")
    report = Collected()
    assert run_punctuate(PunctuateJob(model, source, target), report)
    lines = target.read_text(encoding="utf8").splitlines()
    assert len(lines) == 2 and [w.strip(",.?").lower() for w in lines[1].split()] == "so how was the trip".split()
    assert report.words >= 14 and any("has marks of its own" in note for note in report.notes)
    chosen = Collected()
    run_punctuate(PunctuateJob(model, source, tmp_path / "merged.txt", options=PunctOptions(merge=True)), chosen)
    assert not any("marks of its own" in note for note in chosen.notes)


def test_a_folder_with_a_bad_file_is_incomplete_and_names_it(model, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("so how was the trip\n", encoding="utf8")
    (folder / "b.json").write_text("{not json", encoding="utf8")
    report = Collected()
    assert not run_punctuate(PunctuateJob(model, folder, tmp_path / "out"), report)
    assert (tmp_path / "out" / "a.txt").exists() and not (tmp_path / "out" / "b.json").exists()
    assert any("b.json" in note and "(left out)" in note for note in report.notes)
    assert report.notes[-1].startswith("Punctuated 1 files") and report.notes[-1].endswith("1 left out.")


def test_mistakes_are_one_line_user_errors_before_anything_is_written(model, tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"text": "so how was it"}) + "\n", encoding="utf8")
    cases = [
        (PunctuateJob(model, tmp_path / "missing.txt"), "does not exist"),
        (PunctuateJob(model, source, source), "is the input"),
        (PunctuateJob(model, source, engine="spark"), "unknown --engine 'spark'"),
        (PunctuateJob(model, source, options=PunctOptions(merge=True, repair=True)), "merge decides every mark"),
        (PunctuateJob(model, source, format="srt", input_format="text"), "needs word timings"),
    ]
    for job, message in cases:
        with pytest.raises(UserError, match=message) as raised:
            run_punctuate(job, Collected())
        assert "\n" not in str(raised.value)
    assert json.loads(source.read_text(encoding="utf8").splitlines()[0]) == {"text": "so how was it"}


def test_a_recognisers_file_comes_back_in_its_format(model, tmp_path):
    source = Path(__file__).parents[1] / "data" / "recognisers" / "pocketsphinx.txt"
    report = Collected()
    assert run_punctuate(PunctuateJob(model, source, tmp_path / "out.txt"), report)
    lines = (tmp_path / "out.txt").read_text(encoding="utf8").splitlines()
    assert lines[1] == "<s> 0.000 0.020 0.996904" and len(lines) == len(source.read_text().splitlines())
    assert report.words == 8
