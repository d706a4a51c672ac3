"""`spacy-punct stream`."""

import json
import re
from pathlib import Path

import pytest

from spacy_punct.cli import app

from .helpers import runner, timed_lines


def test_stream_writes_sentences_words_and_cues(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    model = str(tmp_path / "model")
    words = "so how was the trip\nit was long but we saw the coast\n"
    result = runner.invoke(app, ["stream", model, "--lookahead", "2"], input=words)
    assert result.exit_code == 0, result.output
    assert result.stdout == "So, how was the trip?\nIt was long, but we saw the coast.\n"
    timed = "\n".join(timed_lines("so how was the trip it was long but we saw the coast")) + "\n"
    result = runner.invoke(app, ["stream", model, "--format", "jsonl", "--entropy", "0.3"], input=timed)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["word"] for r in records] == "so how was the trip it was long but we saw the coast".split()
    assert records[4]["text"] == "trip?" and records[4]["start"] == 2.0 and records[4]["end"] == 2.4
    result = runner.invoke(app, ["stream", model, "--format", "srt"], input=timed)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1\n00:00:00,000 --> 00:00:02,400\nSo, how was the trip?\n\n2\n00:00:02,500 --> ")
    result = runner.invoke(app, ["stream", model, "--format", "vtt"], input=words)
    assert result.exit_code == 1 and "captions need word timings" in result.output


def test_stream_stops_at_a_bad_line_and_keeps_what_came_before(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    lines = timed_lines("so how was the trip") + ['{"word": "it", "start": 1.0, "end": 0.5}'] + timed_lines("it was", 9)
    result = runner.invoke(app, ["stream", str(tmp_path / "model")], input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert result.stdout == "So, how was the trip?\n"
    assert "line 6: word 6 ('it'): needs 0 <= start <= end" in result.output
    result = runner.invoke(app, ["stream", str(tmp_path / "model")], input='so how was the trip it was\n{"word": \n')
    assert result.exit_code == 1 and "standard input, line 2: not JSON" in result.output
    assert "line 2: line 2" not in result.output
    # the words before the error are written as they stand: no mark is invented to close them
    assert result.stdout == "So, how was the trip?\nIt was\n"
    result = runner.invoke(app, ["stream", str(tmp_path / "model"), "--format", "srt"], input="so how was it\n")
    assert result.exit_code == 1 and "line 1: the word 'so' has no timings" in result.output


def test_a_file_is_read_ahead_and_a_bad_line_in_it_is_named(trained, tmp_path):
    """A file's lines are read together (10,000 lines of three words took
    minutes, a model run a word): a bad line among them still stops the
    stream at that line, the words before it written."""
    trained.to_disk(tmp_path / "model")
    lines = timed_lines("so how was the trip") + ['{"word": "it", "start": 1.0, "end": 0.5}'] + timed_lines("it was", 9)
    source = tmp_path / "words.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf8")
    result = runner.invoke(app, ["stream", str(tmp_path / "model"), str(source)])
    assert result.exit_code == 1
    assert result.stdout == "So, how was the trip?\n"
    assert f"{source}, line 6: word 6 ('it'): needs 0 <= start <= end" in result.output
    good = tmp_path / "good.txt"
    good.write_text("so how was\nthe trip it\nwas long\n" * 50, encoding="utf8")
    read_ahead = runner.invoke(app, ["stream", str(tmp_path / "model"), str(good)])
    by_line = runner.invoke(app, ["stream", str(tmp_path / "model"), str(good), "--read-ahead", "0"])
    assert read_ahead.exit_code == by_line.exit_code == 0
    assert (
        read_ahead.stdout.split()
        and [w.strip(",.?").lower() for w in read_ahead.stdout.split()]
        == [w.strip(",.?").lower() for w in by_line.stdout.split()]
        == good.read_text().split()
    )


def test_a_full_standard_output_is_one_line(trained, tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    import pytest

    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    trained.to_disk(tmp_path / "model")
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "spacy_punct", "stream", str(tmp_path / "model")],
            input="so how was the trip it was long\n",
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "Error: cannot write standard output: No space left on device. The output written before it is kept."
    ]


@pytest.mark.parametrize(
    "name, kind",
    [("sample.srt", "srt"), ("google.json", "google"), ("amazon.json", "amazon"), ("whisper.tsv", "tsv")],
)
def test_a_recognisers_file_that_is_no_word_stream_is_sent_to_punctuate(trained, tmp_path, name, kind):
    model = tmp_path / "model"
    trained.to_disk(model)
    captions = Path(__file__).parents[1] / "data" / "recognisers" / name
    result = runner.invoke(app, ["stream", str(model), str(captions)])
    assert result.exit_code == 1 and f"is a whole file ({kind}), not a stream of words" in result.output
    assert "spacy-punct punctuate" in result.output and result.output.strip().count("\n") == 0


def test_googles_streaming_responses_are_a_stream_not_a_file(trained, tmp_path):
    model = tmp_path / "model"
    trained.to_disk(model)
    log = tmp_path / "google.jsonl"
    lines = [
        {"results": [{"alternatives": [{"transcript": t}], "isFinal": f}]} for t, f in [("so", False), ("so how", True)]
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf8")
    result = runner.invoke(app, ["stream", str(model), str(log)])
    assert result.exit_code == 0 and re.sub(r"[^\w ]", "", result.output).lower().split() == ["so", "how"]


def test_output_and_an_error_never_share_a_line(trained, tmp_path, monkeypatch):
    """A stream stopped while a sentence is open: its words end their line
    before the error is written."""
    from spacy_punct.inference import text_jobs
    from spacy_punct.inference.text_jobs import StreamStopped, Written

    from .helpers import model_folder

    def stopped(*args, **kwargs):
        yield Written("So", 1)
        raise StreamStopped("standard input, line 2: not JSON.")

    monkeypatch.setattr(text_jobs, "streamed_output", stopped)
    result = runner.invoke(app, ["stream", model_folder(trained, tmp_path)], input="so\n")
    assert result.exit_code == 1 and result.stdout == "So\n"
    assert "line 2: not JSON" in result.stderr


def test_merge_weighs_a_recognisers_marks_in_a_stream(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    model = str(tmp_path / "model")
    lines = "So, how was the trip.\nIt was long, but we saw the coast\n"
    result = runner.invoke(app, ["stream", model, "--lookahead", "2", "--merge"], input=lines)
    assert result.exit_code == 0, result.output
    assert [w.strip(",.?").lower() for w in result.stdout.split()] == [w.strip(",.?").lower() for w in lines.split()]
    both = runner.invoke(app, ["stream", model, "--merge", "--repair"], input=lines)
    assert both.exit_code == 1 and "merge decides every mark again" in both.output
