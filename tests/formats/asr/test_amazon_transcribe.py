"""Amazon Transcribe's result: words cased in place, marks as punctuation items, audio segments with them."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import OutputWord, detect_format, make_format, value_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "amazon.json"


def _contents(items):
    return [(item["id"], item["type"], item["alternatives"][0]["content"]) for item in items]


def test_words_are_cased_in_place_and_marks_become_punctuation_items(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "amazon" and value_format(json.loads(text)) == "amazon"
    transcript, out = json_round_trip("amazon", text)
    assert (transcript.words[4].start, transcript.words[4].end) == (0.8, 1.2) and transcript.language == "en"
    results = out["results"]
    assert results["transcripts"] == [{"transcript": "So how was the trip? It was long."}]
    assert _contents(results["items"])[3:7] == [
        (3, "pronunciation", "the"),
        (4, "pronunciation", "trip"),
        (5, "punctuation", "?"),
        (6, "pronunciation", "It"),
    ]
    assert (
        results["items"][6]["start_time"] == "1.60" and results["items"][6]["alternatives"][0]["confidence"] == "0.99"
    )
    assert results["audio_segments"][0]["items"] == list(range(10))
    assert results["audio_segments"][0]["transcript"] == "So how was the trip? It was long."


def test_the_marks_read_go_with_their_words_and_are_replaced(json_round_trip):
    value = json.loads(SAMPLE.read_text(encoding="utf8"))
    items = value["results"]["items"]
    mark = {"id": 99, "type": "punctuation", "alternatives": [{"confidence": "0.0", "content": "."}]}
    value["results"]["items"] = items[:3] + [mark] + items[3:]
    value["results"]["audio_segments"][0]["items"] = [0, 1, 2, 99, 3, 4, 5, 6, 7]
    for k, item in enumerate(value["results"]["items"]):
        item["speaker_label"] = "spk_0" if k < 6 else "spk_1"
    transcript, out = json_round_trip("amazon", value)
    assert [w.text for w in transcript.words][2] == "was."  # as read: --repair keeps it
    assert transcript.turns == [0] * 5 + [1] * 3 and transcript.speakers[-1] == "Speaker 2"
    contents = [content for _, _, content in _contents(out["results"]["items"])]
    assert contents == ["So", "how", "was", "the", "trip", "?", "It", "was", "long", "."]
    assert out["results"]["audio_segments"][0]["transcript"] == "So how was the trip? It was long."


def test_a_word_whose_case_changes_its_length_keeps_its_marks_in_its_content():
    transcript = make_format("amazon").read(SAMPLE.read_text(encoding="utf8"), "talk.json")
    words = [OutputWord(w, False) for w in ["So", "how", "was", "the", "TRİP!", "it", "was", "long."]]
    out = json.loads(make_format("amazon").write(transcript, words))
    assert _contents(out["results"]["items"])[4] == (4, "pronunciation", "TRİP!")


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"results": {"items": 3}}', "expected Amazon Transcribe's result"),
        ('{"results": {"items": [{"type": "pronunciation"}]}}', "item 1: expected an object with 'type'"),
        (
            '{"results": {"items": [{"alternatives": [{"content": "so"}], "start_time": "x"}]}}',
            "item 1: 'start_time' must be seconds",
        ),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("amazon").read(text, "bad.json")


def test_each_channel_is_a_text_of_its_own_and_its_items_are_written_likewise(json_round_trip):
    value = json.loads(SAMPLE.read_text(encoding="utf8"))
    items = [{k: v for k, v in item.items() if k != "id"} for item in value["results"]["items"]]  # as Amazon's
    value["results"]["channel_labels"] = {
        "channels": [
            {"channel_label": "ch_0", "items": [dict(item, channel_label="ch_0") for item in items[:5]]},
            {"channel_label": "ch_1", "items": [dict(item, channel_label="ch_1") for item in items[5:]]},
        ],
        "number_of_channels": 2,
    }
    transcript, out = json_round_trip("amazon", value)
    assert transcript.turns == [0] * 5 + [1] * 3
    channels = out["results"]["channel_labels"]["channels"]
    assert [item["alternatives"][0]["content"] for item in channels[1]["items"]] == ["It", "was", "long", "."]
    assert channels[1]["items"][0]["channel_label"] == "ch_1" and "id" not in channels[1]["items"][0]
