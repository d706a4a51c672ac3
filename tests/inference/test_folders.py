"""A folder punctuated into another, file by file: each in its own format, a bad file left out."""

import json
import re
import shutil
from pathlib import Path

from spacy_punct import punctuate, punctuate_recognised
from spacy_punct.inference.folders import folder_files, punctuate_folder

RECOGNISERS = Path(__file__).parents[1] / "data" / "recognisers"


def _bare(text):
    return re.sub(r"[^\w\s]", "", text).lower().split()


def test_each_file_is_written_under_its_name_as_a_single_file_would_be(trained, tmp_path):
    source = tmp_path / "in"
    (source / "calls").mkdir(parents=True)
    shutil.copy(RECOGNISERS / "whisper.json", source / "calls" / "talk.json")
    shutil.copy(RECOGNISERS / "sample.srt", source / "talk.srt")
    (source / "notes.txt").write_text("so how was the trip\nit was long\n", encoding="utf8")
    (source / "records.jsonl").write_text('{"id": 3, "text": "where did you stay"}\n', encoding="utf8")
    (source / ".hidden").write_text("not read", encoding="utf8")
    (source / "broken.json").write_text('{"segments": [{"text": " so"}]}', encoding="utf8")
    told = []
    done = list(punctuate_folder(trained, source, tmp_path / "out", progress=told.append))
    assert [file.path for file in done] == folder_files(source) == [
        Path("broken.json"), Path("calls/talk.json"), Path("notes.txt"), Path("records.jsonl"), Path("talk.srt")
    ]  # fmt: skip
    assert done[0].error.startswith(str(source / "broken.json")) and not (tmp_path / "out" / "broken.json").exists()
    assert all(file.error is None for file in done[1:]) and sum(told) == sum(file.words for file in done) > 0
    out = tmp_path / "out"
    whisper = (RECOGNISERS / "whisper.json").read_text(encoding="utf8")
    assert (out / "calls" / "talk.json").read_text(encoding="utf8") == punctuate_recognised(trained, whisper)
    notes = (out / "notes.txt").read_text(encoding="utf8")
    assert notes.splitlines() == [doc.text for doc in punctuate(trained, ["so how was the trip", "it was long"])]
    record = json.loads((out / "records.jsonl").read_text(encoding="utf8"))
    assert record["id"] == 3 and _bare(record["punctuated"]) == _bare("where did you stay")
    assert (out / "talk.srt").read_text(encoding="utf8").startswith("1\n00:00:00,000 --> ")
    assert not list(out.glob("**/.*"))  # no partial file left


def test_an_output_format_writes_every_file_so(trained, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    shutil.copy(RECOGNISERS / "whisperx.json", source / "a.json")
    shutil.copy(RECOGNISERS / "vosk.json", source / "b.json")
    done = list(punctuate_folder(trained, source, tmp_path / "out", output_format="vtt"))
    assert [file.error for file in done] == [None, None]
    assert all(
        (tmp_path / "out" / name).read_text(encoding="utf8").startswith("WEBVTT") for name in ("a.json", "b.json")
    )


def test_each_file_can_take_the_pipeline_of_the_language_it_names(trained, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    for name, language in (("a.json", "en"), ("b.json", "xx"), ("c.json", "en")):
        result = {"language": language, "segments": [{"start": 0.0, "end": 2.0, "text": " so how was the trip"}]}
        (source / name).write_text(json.dumps(result), encoding="utf8")
    (source / "d.srt").write_text("1\n00:00:00,000 --> 00:00:02,000\naz internet nem működik és már\n", encoding="utf8")
    (source / "e.txt").write_text("so how was the trip\n", encoding="utf8")  # no language named: told by the words
    asked = []

    def choose(language):
        asked.append(language)
        if language != "en":
            raise ValueError(f"no pipeline reads {language!r}.")
        return trained, None

    done = list(punctuate_folder(choose, source, tmp_path / "out"))
    assert [(file.path.name, file.error) for file in done] == [
        ("a.json", None), ("b.json", f"{source / 'b.json'}: no pipeline reads 'xx'."), ("c.json", None),
        ("d.srt", f"{source / 'd.srt'}: no pipeline reads 'hu'."), ("e.txt", None),
    ]  # fmt: skip
    assert asked == ["en", "xx", "en", "hu", "en"] and done[0].language == "en"
    assert (tmp_path / "out" / "a.json").read_text(encoding="utf8") == punctuate_recognised(
        trained, (source / "a.json").read_text(encoding="utf8")
    )


def test_the_output_is_the_same_whatever_the_group(trained, tmp_path, monkeypatch):
    from spacy_punct.inference import folders

    source = tmp_path / "in"
    source.mkdir()
    for n, line in enumerate(["so how was the trip it was long", "where did you stay", "we saw the coast and then"]):
        result = {"segments": [{"start": 0.0, "end": 3.0, "text": " " + line}]}
        (source / f"{n}.json").write_text(json.dumps(result), encoding="utf8")
    list(punctuate_folder(trained, source, tmp_path / "together"))
    monkeypatch.setattr(folders, "GROUP_FILES", 1)
    list(punctuate_folder(trained, source, tmp_path / "alone"))
    for n in range(3):
        together = (tmp_path / "together" / f"{n}.json").read_text(encoding="utf8")
        assert together == (tmp_path / "alone" / f"{n}.json").read_text(encoding="utf8")
