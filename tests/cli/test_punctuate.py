"""`spacy-punct punctuate`: outputs that must never lose the input or the lines written."""

import json
import os
import re
from pathlib import Path

import pytest
import spacy

from spacy_punct.cli import app

from ..conftest import TEXTS
from .helpers import model_folder, runner, timed_lines


@pytest.fixture
def model(trained, tmp_path) -> str:
    trained.to_disk(tmp_path / "model")
    return str(tmp_path / "model")


def _input(tmp_path: Path) -> Path:
    source = tmp_path / "in.txt"
    source.write_text("so how was the trip\n" * 300, encoding="utf8")
    return source


def test_an_output_hard_linked_to_the_input_is_refused(model, tmp_path):
    source = _input(tmp_path)
    before = source.read_bytes()
    os.link(source, tmp_path / "out.txt")
    result = runner.invoke(app, ["punctuate", model, str(source), "-o", str(tmp_path / "out.txt")])
    assert result.exit_code == 1
    assert "is the input" in result.output and "Traceback" not in result.output
    assert source.read_bytes() == before


def test_an_output_linked_symbolically_to_the_input_is_refused(model, tmp_path):
    source = _input(tmp_path)
    (tmp_path / "link.txt").symlink_to(source)
    result = runner.invoke(app, ["punctuate", model, str(source), "-o", str(tmp_path / "link.txt")])
    assert result.exit_code == 1 and "is the input" in result.output
    assert source.read_text(encoding="utf8").count("\n") == 300


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_one_line(model, tmp_path):
    result = runner.invoke(app, ["punctuate", model, str(_input(tmp_path)), "-o", "/dev/full"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: cannot write /dev/full: No space left on device. The output written before it is kept."
    ]


def test_a_dash_output_is_standard_output(model, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["punctuate", model, str(_input(tmp_path)), "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.output.count("\n") == 300 and not (tmp_path / "-").exists()


def _punctuate_process(model: str, source: Path, output: Path):
    import subprocess
    import sys

    command = [sys.executable, "-m", "spacy_punct", "punctuate", model, str(source), "-o", str(output)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_two_writers_of_one_output_never_mix(model, tmp_path):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("so how was the trip\n" * 2000, encoding="utf8")
    second.write_text("it was long but we saw the coast\n" * 2000, encoding="utf8")
    output = tmp_path / "out.txt"
    processes = [_punctuate_process(model, source, output) for source in (first, second)]
    assert [process.wait(timeout=120) for process in processes] == [0, 0]
    lines = output.read_text(encoding="utf8").splitlines()
    assert len(lines) == 2000 and len(set(lines)) == 1  # one run's whole output, not a mix
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_an_interrupted_run_leaves_the_old_output_whole(model, tmp_path):
    import signal
    import time

    source = tmp_path / "in.txt"
    source.write_text("so how was the trip it was long but we saw the coast\n" * 200_000, encoding="utf8")
    output = tmp_path / "out.txt"
    output.write_text("the old output\n", encoding="utf8")
    process = _punctuate_process(model, source, output)
    deadline = time.time() + 60
    while time.time() < deadline and not any(p.name.endswith(".partial") for p in tmp_path.iterdir()):
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) != 0
    assert output.read_text(encoding="utf8") == "the old output\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_a_gzip_file_cut_in_its_first_block_is_named(model, tmp_path):
    import gzip

    path = tmp_path / "in.txt.gz"
    path.write_bytes(gzip.compress(b"so how was the trip\n" * 10, mtime=0)[:20])
    result = runner.invoke(app, ["punctuate", model, str(path)])
    assert result.exit_code == 1
    assert "breaks off before its first line" in result.output and "Aborted" not in result.output


def test_punctuate_file_and_stdin(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    source = tmp_path / "in.txt"
    source.write_bytes(b"so how was the trip\r\n\r\nwhere did you stay\rcaf\xe9 ok\n")
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = out.read_bytes().decode("utf8")
    # lines end as in the input: CRLF, a lone CR, LF
    assert written.startswith("So, how was the trip?\r\n\r\nWhere did you stay?\rCaf\ufffd")
    assert written.endswith("\n") and written.count("\n") == 3 and written.count("\r") == 3
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "--whole"])
    assert result.exit_code == 0
    assert result.stdout_bytes.count(b"\r\n") == 2 and result.stdout_bytes.count(b"\r") == 3
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model")], input="so how was the trip\n")
    assert result.exit_code == 0
    assert result.stdout == "So, how was the trip?\n"


def test_punctuate_needs_a_punctuator(tmp_path):
    spacy.blank("en").to_disk(tmp_path / "blank")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "blank")], input="hello\n")
    assert result.exit_code == 1
    assert "no punctuator" in result.output


def test_punctuate_jsonl(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    result = runner.invoke(
        app, ["punctuate", str(tmp_path / "model"), "--format", "jsonl"], input="so how was the trip\n\n"
    )
    assert result.exit_code == 0, result.output
    import json

    first, empty = [json.loads(line) for line in result.stdout.splitlines()]
    assert first["punctuated"] == "So, how was the trip?"
    assert first["sentences"] == ["So, how was the trip?"]
    assert first["tokens"][1] == {"text": ",", "start": 2, "end": 3, "source": None, "source_start": None, "punct": ""}
    assert first["tokens"][2]["source_start"] == 3
    assert empty == {"text": "", "punctuated": "", "sentences": [], "tokens": []}


def test_windows_need_a_transformer(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    result = runner.invoke(
        app, ["punctuate", str(tmp_path / "model"), "--window", "64", "--stride", "16"], input="so how\n"
    )
    assert result.exit_code == 1
    assert "no transformer" in result.output


@pytest.mark.parametrize(
    "command", [["punctuate", "en", "a.txt"], ["evaluate", "en", "a.spacy"], ["distill", "en", "a.spacy", "out"]]
)
@pytest.mark.parametrize("option", ["--window", "--stride"])
def test_negative_windows_are_refused_at_the_command_line(command, option):
    result = runner.invoke(app, command + [option, "-5"])
    assert result.exit_code == 2 and f"Invalid value for '{option}'" in result.output


def test_output_onto_the_input_is_refused(trained, tmp_path):
    source = tmp_path / "same.txt"
    source.write_text("so how was the trip\n")
    result = runner.invoke(app, ["punctuate", model_folder(trained, tmp_path), str(source), "-o", str(source)])
    assert result.exit_code == 1 and "is the input" in result.output
    assert source.read_text() == "so how was the trip\n"


def test_batch_size_must_be_positive(trained, tmp_path):
    for size in ("0", "-1"):
        result = runner.invoke(
            app, ["punctuate", model_folder(trained, tmp_path), "--batch-size", size], input="so how\n"
        )
        assert result.exit_code == 2 and "Invalid value" in result.output


def test_invalid_utf8_on_stdin_is_replaced_and_counted(trained, tmp_path):
    result = runner.invoke(
        app, ["punctuate", model_folder(trained, tmp_path)], input=b"so how was the trip\n\xff bad\n"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.split("\n")[0] == "So, how was the trip?"
    assert "\ufffd" in result.stdout and "1 undecodable characters replaced" in result.stderr


def test_a_line_over_the_length_limit_is_punctuated(trained, tmp_path, monkeypatch):
    from spacy_punct import texts as text_module

    monkeypatch.setattr(text_module, "LONG_TEXT_CHARS", 2000)
    monkeypatch.setattr(text_module, "PIECE_TOKENS", 150)
    line = " ".join(["so how was the trip it was long but we saw the coast"] * 60)
    source = tmp_path / "long.txt"
    source.write_text(f"where did you stay\n{line}\n")
    out = tmp_path / "long.out"
    for extra in ([], ["--whole"], ["--format", "jsonl"]):
        result = runner.invoke(app, ["punctuate", model_folder(trained, tmp_path), str(source), "-o", str(out), *extra])
        assert result.exit_code == 0, result.output
        written = out.read_text()
        if extra == ["--format", "jsonl"]:
            records = [json.loads(r) for r in written.splitlines()]
            assert records[1]["text"] == line and records[1]["punctuated"].count("?") >= 60
        else:
            assert written.count("So, how was the trip? It was long, but we saw the coast.") >= 59
            assert written.lower().replace(",", "").replace(".", "").replace("?", "").split() == (
                f"where did you stay {line}".split()
            )


def test_keep_existing_threshold_and_margin_options(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    text = "so, how was the trip? it was long but we saw the coast\n"
    kept = runner.invoke(app, ["punctuate", model, "--keep-existing"], input=text)
    assert kept.exit_code == 0 and kept.stdout == TEXTS[0] + "\n"
    fewer = runner.invoke(app, ["punctuate", model, "--threshold", "COMMA=1.0", "--margin", "QUESTION=0.5"], input=text)
    assert fewer.exit_code == 0 and "," not in fewer.stdout.replace("so,", "")
    # no sentence ends where the final marks together never reach 1 (this pipeline does not close texts)
    none = runner.invoke(app, ["punctuate", model, "--end-threshold", "1.0"], input=text)
    assert none.exit_code == 0 and not any(mark in none.stdout for mark in ".?"), none.stdout
    assert none.stdout.replace(",", "").lower().split() == text.replace(",", "").replace("?", "").split()
    for bad in (
        ["--threshold", "TILDE=0.3"],
        ["--threshold", "COMMA"],
        ["--margin", "COMMA=x"],
        ["--threshold", "QUESTION=1.5"],
        ["--margin", "COMMA=-1"],
        ["--end-threshold", "1.5"],
    ):
        result = runner.invoke(app, ["punctuate", model, *bad], input=text)
        assert result.exit_code == 1 and "Error" in result.output, bad


def test_case_only_keeps_the_marks(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    text = "so how was the trip? it was long, but we saw the coast\n"
    result = runner.invoke(app, ["punctuate", model, "--case-only"], input=text)
    assert result.exit_code == 0 and result.stdout == "So how was the trip? It was long, but we saw the coast\n"
    result = runner.invoke(app, ["stream", model, "--case-only"], input="so how was it? fine\n")
    assert result.exit_code == 0 and result.stdout.split() == ["So", "how", "was", "it?", "Fine"], result.stdout


def test_case_only_for_a_language_without_case_is_an_error():
    for command in ("punctuate", "stream"):
        result = runner.invoke(app, [command, "bn", "--case-only"], input="আমি ভাত খাই\n")
        assert result.exit_code == 1 and result.output.strip().splitlines() == [
            "Error: --case-only: Bangla has no case, so the text would come out as it went in."
        ], result.output


def test_ray_engine_refuses_settings_it_would_ignore(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    (tmp_path / "in.jsonl").write_text('{"text": "so how was it"}\n')
    for option in (["--threshold", "COMMA=0.3"], ["--case-only"], ["--keep-existing"], ["--window", "64"]):
        args = ["punctuate", model, str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out"), "--engine", "ray", *option]
        result = runner.invoke(app, args)
        assert result.exit_code == 1 and "saved settings" in result.output and option[0] in result.output, result.output
    args = ["punctuate", model, str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out"), "--engine", "ray"]
    result = runner.invoke(app, [*args, "--encoding", "latin-1"])
    assert result.exit_code == 1 and "--encoding would be ignored" in result.output
    assert not (tmp_path / "out").exists()


def test_gzip_and_utf16_are_read_binary_is_refused(trained, tmp_path):
    import gzip

    model = model_folder(trained, tmp_path)
    (tmp_path / "in.gz").write_bytes(gzip.compress(b"so how was the trip\n"))
    (tmp_path / "in16.txt").write_bytes("so how was the trip\n".encode("utf-16"))
    for name in ("in.gz", "in16.txt"):
        result = runner.invoke(app, ["punctuate", model, str(tmp_path / name)])
        assert result.exit_code == 0 and result.stdout == "So, how was the trip?\n", name
    (tmp_path / "bin.dat").write_bytes(bytes(range(256)) * 4)
    result = runner.invoke(app, ["punctuate", model, str(tmp_path / "bin.dat")])
    assert result.exit_code == 1 and "binary" in result.output and result.stdout == ""


def test_jsonl_records_in_and_a_bad_record_keeps_the_output(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    records = [
        {"id": 1, "text": "so how was the trip"},
        {
            "id": 2,
            "words": [
                {"word": "where", "start": 0.0, "end": 0.4},
                {"word": "did", "start": 0.4, "end": 0.5},
                {"word": "you", "start": 0.5, "end": 0.6},
                {"word": "stay", "start": 0.6, "end": 1.0},
            ],
        },
    ]
    lines = "\n".join(json.dumps(r) for r in records) + "\n"
    out = tmp_path / "out.jsonl"
    result = runner.invoke(
        app, ["punctuate", model, "--input-format", "jsonl", "--format", "jsonl", "-o", str(out)], input=lines
    )
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["punctuated"]) for r in written] == [(1, "So, how was the trip?"), (2, "Where did you stay?")]
    assert written[1]["tokens"][3]["end_time"] == 1.0
    bad = lines + '{"id": 3, "words": [{"word": "so", "start": 2, "end": 1}]}\n'
    result = runner.invoke(app, ["punctuate", model, "--input-format", "jsonl", "-o", str(out)], input=bad)
    assert result.exit_code == 1 and "record 3" in result.output and "kept" in result.output
    kept = [json.loads(line) for line in out.read_text().splitlines()]  # records in, records out
    assert [(r["id"], r["punctuated"]) for r in kept] == [(1, "So, how was the trip?"), (2, "Where did you stay?")]


def test_records_in_give_records_out_with_every_field_unless_text_is_asked(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    source = tmp_path / "recs.jsonl"
    source.write_text('{"id": "a1", "text": "so how was the trip", "speaker": "Ann"}\n', encoding="utf8")
    out = tmp_path / "out.jsonl"
    assert runner.invoke(app, ["punctuate", model, str(source), "-o", str(out)]).exit_code == 0
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert (record["id"], record["speaker"], record["text"]) == ("a1", "Ann", "so how was the trip")
    assert record["punctuated"] == "So, how was the trip?"
    result = runner.invoke(app, ["punctuate", model, str(source), "--format", "text"])
    assert result.exit_code == 0 and result.stdout == "So, how was the trip?\n"


def test_progress_counts_words(trained, tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("so how was the trip\nwhere did you stay\n")
    result = runner.invoke(app, ["punctuate", model_folder(trained, tmp_path), str(source), "--progress"])
    assert result.exit_code == 0 and "9 words" in result.stderr


def test_punctuate_writes_captions_from_timed_records(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    records = [
        {"id": 1, "words": [json.loads(line) for line in timed_lines("so how was the trip it was long")]},
        {"id": 2, "segments": [{"words": [json.loads(line) for line in timed_lines("where did you stay", 20)]}]},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf8")
    result = runner.invoke(
        app, ["punctuate", str(tmp_path / "model"), str(source), "--input-format", "jsonl", "--format", "vtt"]
    )
    assert result.exit_code == 0, result.output
    blocks = result.stdout.strip().split("\n\n")
    assert blocks[0] == "WEBVTT"
    assert blocks[1] == "1\n00:00:00.000 --> 00:00:02.400\nSo, how was the trip?"
    assert blocks[-1] == "3\n00:00:20.000 --> 00:00:21.900\nWhere did you stay?"
    # a .jsonl file is read as records without --input-format
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "--format", "srt"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1\n00:00:00,000 --> 00:00:02,400\nSo, how was the trip?")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), "--format", "srt"], input="so how\n")
    assert result.exit_code == 1 and "needs word timings" in result.output


def test_a_dash_reads_standard_input(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    result = runner.invoke(app, ["punctuate", model, "-"], input="so how was the trip\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == "So, how was the trip?\n"
    result = runner.invoke(app, ["stream", model, "-"], input="so how was the trip\n")
    assert result.exit_code == 0, result.output
    assert "So, how was the trip?" in result.stdout


@pytest.mark.parametrize("target", ["file.txt/out.txt", "/proc/version"])
def test_an_unwritable_output_is_one_line_of_error(trained, tmp_path, target):
    """A file used as a folder, or a file that takes no writing, printed a
    Python traceback."""
    (tmp_path / "file.txt").write_text("mine\n")
    output = target if target.startswith("/") else str(tmp_path / target)
    result = runner.invoke(
        app, ["punctuate", model_folder(trained, tmp_path), "-o", output], input="so how was the trip\n"
    )
    assert result.exit_code == 1
    assert f"cannot write {output}" in result.output and "Traceback" not in result.output
    assert (tmp_path / "file.txt").read_text() == "mine\n"


def test_a_gzip_input_cut_short_writes_what_was_read_and_says_so(trained, tmp_path):
    """It printed only `Aborted.`."""
    import gzip

    data = gzip.compress(("so how was the trip it was long but we saw the coast\n" * 3000).encode("utf8"), mtime=0)
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(data[: len(data) // 2])
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["punctuate", model_folder(trained, tmp_path), str(path), "-o", str(out)])
    assert result.exit_code == 1
    assert f"{path} breaks off after the lines read so far" in result.output and "Aborted" not in result.output
    assert len(out.read_text().splitlines()) > 100


RECOGNISERS = Path(__file__).parents[1] / "data" / "recognisers"


@pytest.mark.parametrize("name", sorted(p.name for p in RECOGNISERS.iterdir()))
def test_a_recognisers_file_comes_back_in_its_own_format(model, tmp_path, name):
    from spacy_punct.formats.recognisers import detect_format, make_format

    out = tmp_path / ("out-" + name)
    result = runner.invoke(app, ["punctuate", model, str(RECOGNISERS / name), "-o", str(out)])
    assert result.exit_code == 0, result.output
    kind = detect_format(RECOGNISERS / name, (RECOGNISERS / name).read_text(encoding="utf8"))
    assert detect_format(out, out.read_text(encoding="utf8")) == kind  # read back as the same format
    before = make_format(kind).read((RECOGNISERS / name).read_text(encoding="utf8"), name)
    after = make_format(kind).read(out.read_text(encoding="utf8"), name)
    bare = lambda words: [re.sub(r"[^\w]", "", w.text.lower()) for w in words]  # noqa: E731
    assert bare(after.words) == bare(before.words)  # no word altered, none lost
    if kind not in ("srt", "vtt", "sbv", "lrc", "tsv", "csv", "timestamped", "azure"):  # timed by a cue, row or phrase
        assert [w.start for w in after.words] == [w.start for w in before.words]  # every timing carried


def test_from_names_the_format_and_format_overrides_the_output(model, tmp_path):
    ctm = tmp_path / "words.txt"  # a CTM file by another name
    ctm.write_text((RECOGNISERS / "sample.ctm").read_text(encoding="utf8"), encoding="utf8")
    result = runner.invoke(app, ["punctuate", model, str(ctm), "--from", "ctm"])
    assert result.exit_code == 0 and result.output.splitlines()[0].startswith("talk1 1 0.00 0.20 ")
    text = runner.invoke(app, ["punctuate", model, str(RECOGNISERS / "sample.srt"), "--format", "text"])
    assert text.exit_code == 0 and text.output.count("\n") == 1 and "-->" not in text.output
    bad = runner.invoke(app, ["punctuate", model, str(RECOGNISERS / "sample.srt"), "--from", "ctm"])
    assert bad.exit_code == 1 and bad.output.strip().count("\n") == 0 and "sample.srt, line 1" in bad.output
    unknown = runner.invoke(app, ["punctuate", model, str(ctm), "--from", "kaldi"])
    assert unknown.exit_code == 1 and "choose" in unknown.output


@pytest.mark.parametrize("output", ["srt", "jsonl"])
def test_a_recognisers_timed_words_make_captions_and_timed_records(model, output):
    result = runner.invoke(app, ["punctuate", model, str(RECOGNISERS / "whisper.json"), "--format", output])
    assert result.exit_code == 0, result.output
    if output == "srt":
        assert result.output.startswith("1\n00:00:00,000 --> ") and result.output.rstrip().endswith("coast.")
    else:
        tokens = json.loads(result.output)["tokens"]
        assert tokens[0]["start_time"] == 0.0 and all("start_time" in t for t in tokens if t["source"] is not None)


def test_captions_and_records_from_a_diarized_file_name_each_turns_speaker(model, tmp_path):
    words = [
        {"word": w, "start": k * 0.3, "end": k * 0.3 + 0.2, "speaker": "SPEAKER_00" if k < 5 else "SPEAKER_01"}
        for k, w in enumerate("so how was the trip it was long".split())
    ]
    path = tmp_path / "talk.json"
    path.write_text(json.dumps({"segments": [{"start": 0.0, "end": 2.3, "words": words}]}), encoding="utf8")
    vtt = runner.invoke(app, ["punctuate", model, str(path), "--format", "vtt"])
    assert vtt.exit_code == 0, vtt.output
    voices = [line.split(">")[0] for line in vtt.output.splitlines() if line.startswith("<v ")]
    assert voices[0] == "<v SPEAKER_00" and voices[-1] == "<v SPEAKER_01"
    records = runner.invoke(app, ["punctuate", model, str(path), "--format", "jsonl"]).output.splitlines()
    assert [json.loads(line)["speaker"] for line in records] == ["SPEAKER_00", "SPEAKER_01"]
    srt = runner.invoke(app, ["punctuate", model, str(path), "--format", "srt"]).output
    assert "SPEAKER" not in srt  # SubRip has no speakers


def test_a_recognisers_file_with_crlf_line_ends_is_written_back_with_them(model, tmp_path):
    srt = tmp_path / "talk.srt"
    srt.write_bytes((RECOGNISERS / "sample.srt").read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    out = tmp_path / "out.srt"
    result = runner.invoke(app, ["punctuate", model, str(srt), "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = out.read_bytes()
    assert b"-->" in written and written.count(b"\r\n") == written.count(b"\n")


def test_a_json_document_over_lines_is_read_as_its_texts_and_records(model, tmp_path):
    path = tmp_path / "texts.json"
    path.write_text('[\n  "so how was the trip",\n  {"id": 7, "text": "it was long"}\n]\n', encoding="utf8")
    out = runner.invoke(app, ["punctuate", model, str(path), "--format", "jsonl"])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [r["text"] for r in records] == ["so how was the trip", "it was long"] and records[1]["id"] == 7
    path.write_text('{\n  "text": "so how was the trip"\n}\n', encoding="utf8")
    one = runner.invoke(app, ["punctuate", model, str(path), "--format", "text"]).output
    assert re.sub(r"[^\w ]", "", one).lower().split() == "so how was the trip".split()
    path.write_text('{"text": "so how"\n{"text": "it was"}\n', encoding="utf8")  # a broken record: its line named
    broken = runner.invoke(app, ["punctuate", model, str(path)])
    assert broken.exit_code == 1 and "texts.json: line 1: not JSON" in broken.output


def test_a_folder_is_punctuated_file_by_file_into_a_new_one(model, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    (source / "talk.srt").write_text((RECOGNISERS / "sample.srt").read_text(encoding="utf8"), encoding="utf8")
    (source / "notes.txt").write_text("so how was the trip\n", encoding="utf8")
    (source / "bad.json").write_text('{"segments": 3}', encoding="utf8")
    out = tmp_path / "out"
    result = runner.invoke(app, ["punctuate", model, str(source), "-o", str(out)])
    assert result.exit_code == 1 and "bad.json" in result.output and "(left out)" in result.output
    assert "Punctuated 2 files" in result.output and "1 left out" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "talk.srt"]
    again = runner.invoke(app, ["punctuate", model, str(source), "-o", str(out)])
    assert again.exit_code == 1 and "is not an empty folder" in again.output  # nothing overwritten
    inside = runner.invoke(app, ["punctuate", model, str(source), "-o", str(source / "out")])
    assert inside.exit_code == 1 and "inside the input folder" in inside.output
    unknown = runner.invoke(app, ["punctuate", model, str(source), "-o", str(tmp_path / "o2"), "--format", "docx"])
    assert unknown.exit_code == 1 and "unknown --format" in unknown.output and not (tmp_path / "o2").exists()


def test_a_recognisers_file_with_marks_of_its_own_is_told_of_repair(model, tmp_path):
    path = tmp_path / "half.json"
    text = " So, how was it? It was long. we saw the coast and then we drove home"
    path.write_text(json.dumps({"segments": [{"start": 0.0, "end": 5.0, "text": text}]}), encoding="utf8")
    told = runner.invoke(app, ["punctuate", model, str(path)])
    assert told.exit_code == 0 and "has 3 marks of its own, which are replaced: --repair keeps them" in told.output
    for option in ("--repair", "--no-repair", "--keep-existing"):
        assert "marks of its own" not in runner.invoke(app, ["punctuate", model, str(path), option]).output
    bare = runner.invoke(app, ["punctuate", model, str(RECOGNISERS / "whisper.json")])
    assert "marks of its own" not in bare.output
    folder = tmp_path / "in"
    folder.mkdir()
    path.rename(folder / "half.json")
    (folder / "bare.json").write_text((RECOGNISERS / "whisper.json").read_text(encoding="utf8"), encoding="utf8")
    told = runner.invoke(app, ["punctuate", model, str(folder), "-o", str(tmp_path / "out")])
    assert told.exit_code == 0 and "1 of 2 files had marks of their own, which were replaced: --repair" in told.output


def test_a_recognisers_file_in_another_language_is_noted(model, tmp_path):
    path = tmp_path / "talk.json"
    result = {"language": "hu", "segments": [{"start": 0.0, "end": 2.0, "text": " hol voltál tegnap"}]}
    path.write_text(json.dumps(result), encoding="utf8")
    told = runner.invoke(app, ["punctuate", model, str(path)])
    assert told.exit_code == 0
    assert f"note: {path} says it is in Hungarian, this pipeline reads English: spacy-punct punctuate hu" in told.output
    path.write_text(json.dumps({**result, "language": "en"}), encoding="utf8")
    assert "note:" not in runner.invoke(app, ["punctuate", model, str(path)]).output


def test_auto_reads_each_recogniser_file_by_the_language_it_names_or_its_words_tell(tmp_path):
    path = tmp_path / "talk.json"
    path.write_text(json.dumps({"segments": [{"start": 0.0, "end": 2.0, "text": " bonjour je suis ici"}]}))
    unnamed = runner.invoke(app, ["punctuate", "auto", str(path)])
    assert unnamed.exit_code == 1 and "names no language and its words tell none, so auto has no" in unnamed.output
    path.write_text(json.dumps({"segments": [{"start": 0.0, "end": 2.0, "text": " so how was it"}]}), encoding="utf8")
    told = runner.invoke(app, ["punctuate", "auto", str(path)])  # its words are English
    assert told.exit_code == 0 and json.loads(told.output)["segments"][0]["text"].startswith(" So how was it")
    path.write_text(json.dumps({"language": "de", "segments": []}), encoding="utf8")
    other = runner.invoke(app, ["punctuate", "auto", str(path)])
    assert other.exit_code == 1 and "is in 'de', which no bundled pipeline reads" in other.output
    path.write_text(json.dumps({"language": "en", "segments": [{"start": 0.0, "end": 2.0, "text": " so how was it"}]}))
    named = runner.invoke(app, ["punctuate", "auto", str(path)])  # the bundled English pipeline
    assert named.exit_code == 0 and json.loads(named.output)["segments"][0]["text"].startswith(" So how was it")
    text = runner.invoke(app, ["punctuate", "auto"], input="so how\n")
    assert text.exit_code == 1 and "give the file, not standard input" in text.output
    (tmp_path / "talk.txt").write_text("so how was it it was long\n", encoding="utf8")
    text_file = runner.invoke(app, ["punctuate", "auto", str(tmp_path / "talk.txt")])
    assert text_file.exit_code == 0 and text_file.output.startswith("So how was it")


def test_a_folder_in_processes_comes_out_as_in_one(model, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    for name in ("whisper.json", "sample.srt", "vosk.json"):
        (source / name).write_text((RECOGNISERS / name).read_text(encoding="utf8"), encoding="utf8")
    (source / "bad.json").write_text('{"segments": 3}', encoding="utf8")
    one = runner.invoke(app, ["punctuate", model, str(source), "-o", str(tmp_path / "one")])
    two = runner.invoke(app, ["punctuate", model, str(source), "-o", str(tmp_path / "two"), "--processes", "2"])
    assert one.exit_code == two.exit_code == 1 and "bad.json" in two.output and "Punctuated 3 files" in two.output
    for name in ("whisper.json", "sample.srt", "vosk.json"):
        assert (tmp_path / "one" / name).read_text(encoding="utf8") == (tmp_path / "two" / name).read_text(
            encoding="utf8"
        )
    ignored = runner.invoke(
        app, ["punctuate", model, str(source), "-o", str(tmp_path / "x"), "--processes", "2", "--window", "64"]
    )
    assert ignored.exit_code == 1 and "would be ignored" in ignored.output
    one_file = runner.invoke(app, ["punctuate", model, str(source / "whisper.json"), "--processes", "2"])
    assert one_file.exit_code == 1 and "--processes shares a folder's files among processes" in one_file.output


def test_merge_reads_a_recognisers_marks_and_refuses_repair(model, tmp_path):
    path = tmp_path / "whisper.json"
    text = " So, how was it? It was long. we saw the coast and then we drove home"
    path.write_text(json.dumps({"segments": [{"start": 0.0, "end": 5.0, "text": text}]}), encoding="utf8")
    merged = runner.invoke(app, ["punctuate", model, str(path), "--merge"])
    assert merged.exit_code == 0 and "marks of its own" not in merged.output
    written = "".join(segment["text"] for segment in json.loads(merged.stdout)["segments"])
    words = [w.strip(",.?").lower() for w in written.split()]
    assert words == [w.strip(",.?").lower() for w in text.split()]
    both = runner.invoke(app, ["punctuate", model, str(path), "--merge", "--repair"])
    assert both.exit_code == 1 and "merge decides every mark again" in both.output and "Traceback" not in both.output


def test_a_text_file_with_marks_of_its_own_is_told_of_repair(model, tmp_path):
    path = tmp_path / "half.txt"
    path.write_text("So, how was it? It was long. we saw the coast and then we drove home\n", encoding="utf8")
    told = runner.invoke(app, ["punctuate", model, str(path)])
    assert (
        told.exit_code == 0
        and "has marks of its own (3 in its first lines), which are replaced: --repair" in told.output
    )
    assert "marks of its own" not in runner.invoke(app, ["punctuate", model, str(path), "--repair"]).output
    path.write_text("so how was it\n", encoding="utf8")
    assert "marks of its own" not in runner.invoke(app, ["punctuate", model, str(path)]).output


def test_an_output_file_takes_the_umask_s_mode_and_a_replaced_one_keeps_its_own(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    source = tmp_path / "in.txt"
    source.write_text("so how was the trip\n")
    out = tmp_path / "out.txt"
    mask = os.umask(0o022)
    try:
        assert runner.invoke(app, ["punctuate", model, str(source), "-o", str(out)]).exit_code == 0
        assert out.stat().st_mode & 0o777 == 0o644
        out.chmod(0o640)
        assert runner.invoke(app, ["punctuate", model, str(source), "-o", str(out)]).exit_code == 0
        assert out.stat().st_mode & 0o777 == 0o640 and out.read_text().startswith("So")
    finally:
        os.umask(mask)
