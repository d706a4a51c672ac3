"""AssemblyAI's transcript: its words (times in milliseconds), text and utterances punctuated in place."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import detect_format, make_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "assemblyai.json"


def test_words_text_and_utterances_are_punctuated_in_place_and_times_read_as_milliseconds(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "assemblyai"
    transcript, out = json_round_trip("assemblyai", text)
    assert [(w.start, w.end) for w in transcript.words][4] == (0.8, 1.2) and transcript.language == "en"
    assert out["text"] == "So how was the trip? It was long."
    assert out["words"][4] == {"text": "trip?", "start": 800, "end": 1200, "confidence": 0.9, "speaker": None}
    assert (out["id"], out["punctuate"], out["utterances"]) == ("5551", False, None)
    value = json.loads(text)
    value["words"] = [dict(w, speaker="A" if k < 5 else "B") for k, w in enumerate(value["words"])]
    value["utterances"] = [
        {"speaker": "A", "start": 0, "end": 1200, "text": "so how was the trip", "words": value["words"][:5]},
        {"speaker": "B", "start": 1600, "end": 2600, "text": "it was long", "words": value["words"][5:]},
    ]
    transcript, out = json_round_trip("assemblyai", value)
    assert transcript.turns == [0] * 5 + [1] * 3 and transcript.speakers[-1] == "Speaker B"
    assert [u["text"] for u in out["utterances"]] == ["So how was the trip?", "It was long."]
    assert out["utterances"][1]["words"][0]["text"] == "It"


def test_a_transcript_without_words_is_read_from_its_text(json_round_trip):
    transcript, out = json_round_trip("assemblyai", {"audio_url": "a.mp3", "text": "so how was the trip"})
    assert [w.text for w in transcript.words] == ["so", "how", "was", "the", "trip"]
    assert out == {"audio_url": "a.mp3", "text": "So how was the trip?"}


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"audio_url": "a", "words": 3}', "expected AssemblyAI's transcript"),
        ('{"audio_url": "a", "words": [{"text": "so", "start": "x", "end": 1}]}', "word 1 .'so'.: start and end"),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("assemblyai").read(text, "bad.json")
