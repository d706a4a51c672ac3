"""Azure's batch transcription: the display form punctuated in place, times in ticks or ISO 8601 durations."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import detect_format, make_format, value_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "azure.json"


def test_the_display_form_is_punctuated_in_place_and_the_lexical_form_kept(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "azure" and value_format(json.loads(text)) == "azure"
    transcript, out = json_round_trip("azure", text)
    assert [(w.start, w.end) for w in transcript.words][4] == (0.8, 1.2) and transcript.language == "en"
    assert (transcript.words[5].start, transcript.words[7].end) == (1.6, 2.6)  # shared by length
    first, no_match, last = out["recognizedPhrases"]
    assert (
        first["nBest"][0]["display"] == "So how was the trip?" and first["nBest"][0]["lexical"] == "so how was the trip"
    )
    assert first["nBest"][0]["displayWords"][4] == {
        "displayText": "trip?",
        "offset": "PT0.8S",
        "duration": "PT0.4S",
        "offsetInTicks": 8000000.0,
        "durationInTicks": 4000000.0,
    }
    assert no_match == json.loads(text)["recognizedPhrases"][1] and last["nBest"][0]["display"] == "It was long."
    assert out["combinedRecognizedPhrases"][0]["display"] == "So how was the trip? It was long."
    assert out["combinedRecognizedPhrases"][0]["lexical"] == "so how was the trip it was long"


def test_channels_and_speakers_are_texts_of_their_own_and_iso_durations_are_read(json_round_trip):
    def phrase(channel, speaker, offset, display):
        best = [{"lexical": display, "display": display}]
        return {"channel": channel, "speaker": speaker, "offset": offset, "duration": "PT1S", "nBest": best}

    value = {
        "combinedRecognizedPhrases": [{"channel": 0, "display": ""}, {"channel": 1, "display": ""}],
        "recognizedPhrases": [
            phrase(0, 1, "PT0S", "so how was"),
            phrase(1, 2, "PT0.5S", "it was long"),
            phrase(0, 1, "PT1M2.5S", "the trip"),
        ],
    }
    transcript, out = json_round_trip("azure", value)
    assert [w.text for w in transcript.words] == "so how was the trip it was long".split()
    assert transcript.turns == [0] * 5 + [1] * 3 and transcript.speakers[-1] == "Speaker 2"
    assert transcript.words[3].start == 62.5
    assert [c["display"] for c in out["combinedRecognizedPhrases"]] == ["So how was the trip?", "It was long."]


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"recognizedPhrases": 3}', "expected Azure's transcription"),
        ('{"recognizedPhrases": [{"nBest": [{"lexical": "so"}]}]}', "phrase 1: expected 'nBest'"),
        ('{"recognizedPhrases": [{"offset": "1.5", "nBest": [{"display": "so"}]}]}', "phrase 1: 'offset' must be"),
        ('{"recognizedPhrases": [{"offsetInTicks": "x", "nBest": [{"display": "so"}]}]}', "'offsetInTicks' must be"),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("azure").read(text, "bad.json")
