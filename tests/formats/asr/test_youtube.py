"""YouTube's transcripts: youtube-transcript-api's snippets re-cut at sentence ends, json3 punctuated in place."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import detect_format, make_format, value_format
from spacy_punct.formats.timed import RecordError

# youtube-transcript-api's snippets, cut mid-sentence; the second starts before the first ends
SNIPPETS = [
    {"text": "so how was the", "start": 0.0, "duration": 1.8},
    {"text": "trip it was long", "start": 1.5, "duration": 1.6},
]
# yt-dlp's json3 of automatic captions: a window event, words with offsets, an appended line break
JSON3 = {
    "wireMagic": "pb3",
    "pens": [{}],
    "events": [
        {"tStartMs": 0, "dDurationMs": 5000, "id": 1, "wpWinPosId": 1},
        {
            "tStartMs": 100,
            "dDurationMs": 3000,
            "wWinId": 1,
            "segs": [
                {"utf8": "so", "acAsrConf": 0},
                {"utf8": " how", "tOffsetMs": 300},
                {"utf8": " was", "tOffsetMs": 500},
                {"utf8": " the", "tOffsetMs": 700},
                {"utf8": " trip", "tOffsetMs": 900},
            ],
        },
        {"tStartMs": 1500, "dDurationMs": 1600, "wWinId": 1, "aAppend": 1, "segs": [{"utf8": "\n"}]},
        {
            "tStartMs": 1600,
            "dDurationMs": 1000,
            "wWinId": 1,
            "segs": [{"utf8": "it"}, {"utf8": " was", "tOffsetMs": 200}, {"utf8": " long", "tOffsetMs": 400}],
        },
    ],
}


def test_snippets_are_found_and_recut_at_sentence_ends(json_round_trip):
    text = json.dumps(SNIPPETS)
    assert detect_format(Path("talk.json"), text) == "youtube" and value_format(SNIPPETS) == "youtube"
    transcript, out = json_round_trip("youtube", text)
    # the first snippet's words end where the second starts, not where the first ends
    assert [(w.text, w.start) for w in transcript.words][3:5] == [("the", 1.091), ("trip", 1.5)]
    assert out == [
        {"text": "So how was the trip?", "start": 0.0, "duration": 1.992},
        {"text": "It was long.", "start": 1.992, "duration": 1.108},
    ]


def test_json3_is_found_and_punctuated_in_place(json_round_trip):
    text = json.dumps(JSON3)
    assert detect_format(Path("talk.json"), text) == "json3" and value_format(JSON3) == "json3"
    transcript, out = json_round_trip("json3", text)
    assert [(w.text, w.start, w.end) for w in transcript.words][4:6] == [("trip", 1.0, 1.6), ("it", 1.6, 1.8)]
    said = [seg["utf8"] for event in out["events"] for seg in event.get("segs", [])]
    assert said == ["So", " how", " was", " the", " trip?", "\n", "It", " was", " long."]
    assert out["events"][0] == JSON3["events"][0] and out["events"][1]["segs"][0]["acAsrConf"] == 0


def test_a_json3_piece_of_several_words_keeps_its_line_breaks(json_round_trip):
    manual = {
        "wireMagic": "pb3",
        "events": [{"tStartMs": 0, "dDurationMs": 4000, "segs": [{"utf8": "so how\nwas it"}]}],
    }
    transcript, out = json_round_trip("json3", manual)
    assert [w.start for w in transcript.words] == [0.0, 0.8, 2.0, 3.2]
    assert out["events"][0]["segs"][0]["utf8"] == "So how\nwas the"  # the sample's first four words


@pytest.mark.parametrize(
    "kind, value, message",
    [
        ("youtube", {"text": "so"}, "expected youtube-transcript-api's snippets"),
        ("youtube", [{"text": "so", "start": "soon", "duration": 1}], "snippet 1: 'start' and 'duration' must be"),
        ("json3", {"wireMagic": "pb3"}, "expected YouTube's timed text"),
        ("json3", {"wireMagic": "pb3", "events": [{"segs": [{"text": "so"}]}]}, "event 1, piece 1: expected"),
    ],
)
def test_what_cannot_be_read_is_named(kind, value, message):
    with pytest.raises(RecordError, match=message):
        make_format(kind).read(json.dumps(value), "talk.json")
