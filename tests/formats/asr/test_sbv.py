"""YouTube's SubViewer captions: cues timed by their timing line, re-cut at sentence ends."""

import pytest

from spacy_punct.formats.recognisers import detect_format, make_format
from spacy_punct.formats.timed import RecordError

from ..conftest import PUNCTUATED

SBV = "0:00:00.000,0:00:01.500\nso how was\nthe trip\n\n0:00:01.600,0:00:02.600\nit was long\n"


def test_cues_are_read_and_recut_at_sentence_ends(tmp_path):
    assert detect_format(tmp_path / "talk.txt", SBV) == "sbv"
    transcript = make_format("sbv").read(SBV.replace("\n", "\r\n"), "talk.sbv")
    assert [w.text for w in transcript.words] == "so how was the trip it was long".split()
    assert (transcript.words[0].start, transcript.words[4].end, transcript.words[5].start) == (0.0, 1.5, 1.6)
    written = make_format("sbv").write(transcript, PUNCTUATED)
    assert written == "0:00:00.000,0:00:01.500\nSo how was the trip?\n\n0:00:01.600,0:00:02.600\nIt was long.\n"
    short = make_format("sbv", max_chars=12).write(transcript, PUNCTUATED)  # two lines of 6
    assert short.split("\n")[1] == "So how" and all(len(line) <= 6 for line in short.split("\n") if "," not in line)


@pytest.mark.parametrize(
    "text, message",
    [
        ("0:00:00.000,0:00:01.000\nso\n\nhow\n", "line 4: expected a cue's timing"),
        ("0:00:02.000,0:00:01.000\nso\n", "line 1: the cue ends before it starts"),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("sbv").read(text, "bad.sbv")
