"""Segments as whisper.cpp and openai-whisper print them: `[start --> end]  text` lines re-cut at sentence ends."""

import pytest

from spacy_punct.formats.asr.timestamped import timestamped_line
from spacy_punct.formats.recognisers import OutputWord, detect_format, make_format
from spacy_punct.formats.timed import RecordError

PUNCTUATED = [OutputWord(t, t.endswith(("?", "."))) for t in "So how was the trip? It was long.".split()]


def _round_trip(text):
    transcript = make_format("timestamped").read(text, "talk.txt")
    return transcript, make_format("timestamped").write(transcript, PUNCTUATED[: len(transcript.words)])


def test_lines_are_recut_with_the_timestamps_and_spacing_the_file_has():
    cpp = "[00:00:00.000 --> 00:00:01.200]   so how was the trip it\n[00:00:01.600 --> 00:00:02.600]   was long\n"
    assert detect_format(__import__("pathlib").Path("talk.txt"), cpp) == "timestamped"
    transcript, out = _round_trip(cpp)
    assert transcript.words[6].start == 1.6 and transcript.words[4].end == transcript.words[5].start == 1.059
    assert out.splitlines() == [
        "[00:00:00.000 --> 00:00:01.059]   So how was the trip?",
        "[00:00:01.059 --> 00:00:02.600]   It was long.",
    ]
    whisper = "[00:00.000 --> 00:01.200]  so how was the trip it\n[59:59.000 --> 01:00:01.000]  was long\n"
    _, out = _round_trip(whisper)  # openai-whisper: hours only from the first hour on
    assert out.splitlines()[0].startswith("[00:00.000 --> 00:01.059]  So")
    assert out.splitlines()[1].startswith("[00:01.059 --> 01:00:01.000]  It")


def test_a_tools_lines_around_the_segments_are_kept_and_lines_between_them_refused():
    text = "whisper_init: loading model\n[00:00:00.000 --> 00:00:02.600]  so how was the trip it was long\n\ndone\n"
    assert detect_format(__import__("pathlib").Path("talk.txt"), text) == "timestamped"  # stderr sent along
    assert (
        detect_format(
            __import__("pathlib").Path("a.txt"),
            "intro\n[00:00.000 --> 00:01.000]  so\nnote\n[00:01.000 --> 00:02.000]  how\n",
        )
        is None
    )
    _, out = _round_trip(text)
    assert out.splitlines()[0] == "whisper_init: loading model" and out.splitlines()[-1] == "done"
    with pytest.raises(RecordError, match="talk.txt, line 3: a timestamped line after lines without one"):
        make_format("timestamped").read(
            "[00:00.000 --> 00:01.000]  so\nnote\n[00:01.000 --> 00:02.000]  how\n", "talk.txt"
        )


def test_a_timestamped_line_is_read_and_any_other_is_not():
    assert timestamped_line("[01:02:03.500 --> 01:02:04.000]  so how") == (3723.5, 3724.0, "so how")
    assert timestamped_line("[00:00.000 --> 00:01.000]") == (0.0, 1.0, "")
    assert timestamped_line("[Music] so how") is None and timestamped_line("so how") is None
