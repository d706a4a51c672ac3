"""LRC lines as whisper.cpp writes them: each line timed until the next, re-cut at sentence ends."""

import pytest

from spacy_punct.formats.recognisers import OutputWord, detect_format, make_format
from spacy_punct.formats.timed import RecordError

from ..conftest import PUNCTUATED

LRC = "[by:whisper.cpp]\n[00:00.00] so how was\n[00:01.00] the trip it was long\n"


def test_lines_are_timed_until_the_next_and_recut_at_sentence_ends(tmp_path):
    assert detect_format(tmp_path / "talk.txt", LRC) == "lrc"
    transcript = make_format("lrc").read(LRC, "talk.lrc")
    assert [w.text for w in transcript.words] == "so how was the trip it was long".split()
    assert transcript.words[2].end == 1.0 and transcript.words[3].start == 1.0
    assert transcript.words[-1].end == pytest.approx(
        1.0 + 5 / 3, abs=0.001
    )  # the file's own pace: a second for 3 words
    written = make_format("lrc").write(transcript, PUNCTUATED)
    start = transcript.words[5].start
    assert written == f"[by:whisper.cpp]\n[00:00.00] So how was the trip?\n[00:{start:05.2f}] It was long.\n"


def test_whisper_cpp_speakers_are_turns_of_their_own():
    text = "[00:00.00](speaker 0) so how was the trip\n[00:02.50](speaker 1) it was long\n"
    transcript = make_format("lrc").read(text, "talk.lrc")
    assert transcript.turns == [0] * 5 + [1] * 3 and transcript.speakers[5] == "Speaker 1"
    words = [OutputWord(t, k in (4, 7)) for k, t in enumerate("So how was the trip? It was long.".split())]
    written = make_format("lrc").write(transcript, words)
    assert written == "[00:00.00](speaker 0) So how was the trip?\n[00:02.50](speaker 1) It was long.\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("[00:01.00] so\nhow was\n", "line 2: expected .mm:ss.xx."),
        ("[00:02.00] so\n[00:01.00] how\n", "line 2: starts before the line above it"),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("lrc").read(text, "bad.lrc")


def test_the_files_own_precision_is_kept():
    transcript = make_format("lrc").read("[00:00.000] so how was the trip\n[00:01.605] it was long\n", "talk.lrc")
    written = make_format("lrc").write(transcript, PUNCTUATED)
    assert written == "[00:00.000] So how was the trip?\n[00:01.605] It was long.\n"
