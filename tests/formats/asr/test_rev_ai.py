"""Rev AI's transcript: words cased in place, marks as punct elements before the spaces."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import detect_format, make_format, value_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "rev.json"


def _values(monologue):
    return "".join(element["value"] for element in monologue["elements"])


def test_words_are_cased_in_place_and_marks_become_punct_elements(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "rev" and value_format(json.loads(text)) == "rev"
    transcript, out = json_round_trip("rev", text)
    assert (transcript.words[4].start, transcript.words[4].end) == (0.8, 1.2)
    assert _values(out["monologues"][0]) == "So how was the trip? It was long."
    elements = out["monologues"][0]["elements"]
    assert elements[8:11] == [
        {"type": "text", "value": "trip", "ts": 0.8, "end_ts": 1.2, "confidence": 0.98},
        {"type": "punct", "value": "?"},
        {"type": "punct", "value": " "},
    ]


def test_marks_read_are_replaced_and_each_speakers_monologue_is_a_text_of_its_own(json_round_trip):
    value = json.loads(SAMPLE.read_text(encoding="utf8"))
    elements = value["monologues"][0]["elements"]
    value["monologues"] = [
        {"speaker": 0, "elements": elements[:3] + [{"type": "punct", "value": "."}] + elements[3:9]},
        {"speaker": 1, "elements": elements[10:]},
    ]
    transcript, out = json_round_trip("rev", value)
    assert transcript.words[1].text == "how." and transcript.turns == [0] * 5 + [1] * 3
    assert transcript.speakers[5] == "Speaker 1"
    assert [_values(m) for m in out["monologues"]] == ["So how was the trip?", "It was long."]


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"monologues": 3}', "expected Rev AI's transcript"),
        ('{"monologues": [{"elements": [{"type": "text"}]}]}', "monologue 1, element 1: expected an object"),
        ('{"monologues": [{"elements": [{"value": "so", "ts": "x"}]}]}', r"element 1 \('so'\): 'ts' and 'end_ts'"),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("rev").read(text, "bad.json")
