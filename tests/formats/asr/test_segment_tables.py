"""openai-whisper's TSV and whisper.cpp's CSV: rows re-cut at sentence ends."""

import pytest

from spacy_punct.formats.recognisers import OutputWord, detect_format, make_format
from spacy_punct.formats.timed import RecordError

PUNCTUATED = [OutputWord(t, t.endswith(("?", "."))) for t in 'So how was the trip? It was "long".'.split()]


def _round_trip(kind, text):
    transcript = make_format(kind).read(text, "talk")
    return transcript, make_format(kind).write(transcript, PUNCTUATED[: len(transcript.words)])


def test_whisper_tsv_rows_are_recut_at_sentence_ends():
    text = "start\tend\ttext\n0\t1200\tso how was the trip it\n1600\t2600\twas long\n"
    transcript, out = _round_trip("tsv", text)
    assert [(w.start, w.end) for w in transcript.words][5:7] == [(1.059, 1.2), (1.6, 2.029)]  # shares by length
    assert out == 'start\tend\ttext\n0\t1059\tSo how was the trip?\n1059\t2600\tIt was "long".\n'


def test_whisper_cpp_csv_keeps_its_quoting_its_leading_space_and_its_speakers():
    text = 'start,end,speaker,text\n0,1200,0," so how was the trip"\n1200,2600,1," it was \\"long\\""\n'
    assert detect_format(__import__("pathlib").Path("talk.csv"), text) == "csv"
    transcript, out = _round_trip("csv", text)
    assert [w.text for w in transcript.words][-1] == '"long"'
    assert transcript.turns == [0] * 5 + [1] * 3 and transcript.speakers[0] == "Speaker 0"
    assert out.splitlines() == [
        "start,end,speaker,text",
        '0,1200,0," So how was the trip?"',
        '1200,2600,1," It was \\"long\\"."',
    ]


@pytest.mark.parametrize(
    "kind, text, message",
    [
        ("tsv", "start\tend\ttext\n0\tsoon\tso how\n", "talk, line 2: expected start<TAB>end<TAB>text"),
        ("csv", "start,end,text\n0,1200,so how\n", 'talk, line 2: expected start,end,"text"'),
        ("csv", 'start,end,text\n900,100," so"\n', "line 2: the segment ends .100 ms. before it starts"),
        ("csv", "start,stop,text\n", "line 1: expected the header"),
    ],
)
def test_what_cannot_be_read_is_named_with_its_line(kind, text, message):
    with pytest.raises(RecordError, match=message):
        make_format(kind).read(text, "talk")
