import re

import pytest
import spacy

from spacy_punct.formats.captions import (
    CaptionWord,
    CueBuilder,
    caption_header,
    cues,
    doc_caption_words,
    format_cue,
    timestamp,
)
from spacy_punct.formats.timed import RecordError


def _words(n, sentence_every=0):
    return [
        CaptionWord(f"w{i}", i * 0.5, i * 0.5 + 0.4, bool(sentence_every) and (i + 1) % sentence_every == 0)
        for i in range(n)
    ]


def test_cues_end_at_sentences_and_limits():
    found = list(cues(_words(10, sentence_every=3)))
    assert [c.text for c in found] == ["w0 w1 w2", "w3 w4 w5", "w6 w7 w8", "w9"]
    assert [c.index for c in found] == [1, 2, 3, 4]
    long = list(cues(_words(30), max_chars=20, max_seconds=100))  # two lines of 10
    assert all(len(line) <= 10 for c in long for line in c.text.split("\n"))
    assert all(c.text.count("\n") <= 1 for c in long)
    assert " ".join(c.text for c in long).split() == [f"w{i}" for i in range(30)]
    timed = list(cues(_words(30), max_chars=1000, max_seconds=2.0))
    assert all(c.end - c.start <= 2.0 for c in timed)


def test_caption_files_parse():
    found = list(cues(_words(12, sentence_every=5)))
    for kind, sep in (("srt", ","), ("vtt", ".")):
        text = caption_header(kind) + "".join(format_cue(c, kind) for c in found)
        blocks = text.strip().split("\n\n")
        if kind == "vtt":
            assert blocks.pop(0) == "WEBVTT"
        previous = -1.0
        for number, block in enumerate(blocks, start=1):
            index, times, line = block.split("\n")
            assert int(index) == number
            match = re.fullmatch(
                rf"(\d\d):(\d\d):(\d\d){re.escape(sep)}(\d\d\d) --> (\d\d):(\d\d):(\d\d){re.escape(sep)}(\d\d\d)", times
            )
            assert match, times
            h1, m1, s1, ms1, h2, m2, s2, ms2 = map(int, match.groups())
            start, end = h1 * 3600 + m1 * 60 + s1 + ms1 / 1000, h2 * 3600 + m2 * 60 + s2 + ms2 / 1000
            assert previous <= start <= end
            previous = end
            assert line


def test_timestamps():
    assert timestamp(3723.4567, ",") == "01:02:03,457"
    assert timestamp(0, ".") == "00:00:00.000"


def test_doc_caption_words_keep_marks_with_their_words():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("hello world. bye")  # a rewritten doc: an inserted mark has no timings
    for token, times in zip(doc, [(0.0, 0.4), (0.5, 0.9), (None, None), (1.0, 1.2)]):
        token._.start_time, token._.end_time = times
    doc[3].is_sent_start = True
    words = doc_caption_words(doc)
    assert words == [
        CaptionWord("hello", 0.0, 0.4, False),
        CaptionWord("world.", 0.5, 0.9, True),
        CaptionWord("bye", 1.0, 1.2, True),
    ]
    with pytest.raises(RecordError, match=r"record 2: word 1 \('no'\) has no timings"):
        doc_caption_words(nlp.make_doc("no timings"), "record 2")


def test_cue_builder_checks_its_limits():
    with pytest.raises(ValueError, match="max_chars"):
        CueBuilder(max_chars=0)


def test_vtt_cue_text_is_escaped_and_reads_back_as_written():
    import html

    from spacy_punct.formats.captions import Cue

    text = "the <unk> said a & b --> c"
    cue = Cue(1, 0.0, 1.0, text)
    block = format_cue(cue, "vtt")
    line = block.split("\n")[2]
    assert "<" not in line and "-->" not in line
    assert html.unescape(line) == text  # a WebVTT reader's character references give the words back
    assert format_cue(cue, "srt").split("\n")[2] == text
