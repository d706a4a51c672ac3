"""Speechmatics' transcript: words cased in place, marks as punctuation results at their word's end."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import detect_format, make_format, value_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "speechmatics.json"


def test_words_are_cased_in_place_and_marks_become_punctuation_results(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "speechmatics" and value_format(json.loads(text)) == "speechmatics"
    transcript, out = json_round_trip("speechmatics", text)
    assert (transcript.words[4].start, transcript.words[4].end) == (0.8, 1.2) and transcript.language == "en"
    results = out["results"]
    assert [r["alternatives"][0]["content"] for r in results] == "So how was the trip ? It was long .".split()
    assert results[5] == {
        "alternatives": [{"content": "?", "confidence": 1.0, "language": "en", "speaker": "S1"}],
        "attaches_to": "previous",
        "is_eos": True,
        "start_time": 1.2,
        "end_time": 1.2,
        "type": "punctuation",
    }
    assert results[6]["alternatives"][0] == {"confidence": 0.98, "content": "It", "language": "en", "speaker": "S1"}
    assert out["metadata"] == json.loads(text)["metadata"]


def test_marks_read_go_with_their_words_and_speakers_turns_are_texts_of_their_own(json_round_trip):
    value = json.loads(SAMPLE.read_text(encoding="utf8"))
    comma = {"alternatives": [{"content": ","}], "attaches_to": "previous", "start_time": 0.5, "end_time": 0.5}
    value["results"] = value["results"][:2] + [{**comma, "type": "punctuation"}] + value["results"][2:]
    for result in value["results"][6:]:
        result["alternatives"][0]["speaker"] = "S2"
    transcript, out = json_round_trip("speechmatics", value)
    assert transcript.words[1].text == "how," and transcript.turns == [0] * 5 + [1] * 3
    assert [r["alternatives"][0]["content"] for r in out["results"]][:3] == ["So", "how", "was"]


def test_an_opening_mark_goes_with_the_word_after_it(json_round_trip):
    value = json.loads(SAMPLE.read_text(encoding="utf8"))
    quote = {"alternatives": [{"content": '"'}], "attaches_to": "next", "start_time": 0.5, "end_time": 0.5}
    value["results"].insert(1, {**quote, "type": "punctuation"})
    transcript, out = json_round_trip("speechmatics", value)
    assert transcript.words[1].text == '"how'
    assert [r["alternatives"][0]["content"] for r in out["results"]][:3] == ["So", '"', "how"]
    assert out["results"][1]["attaches_to"] == "next"


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"results": 3}', "expected Speechmatics' transcript"),
        ('{"results": [{"type": "word", "alternatives": []}]}', "item 1: expected an object with 'type'"),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("speechmatics").read(text, "bad.json")


def test_a_transcript_without_speech_is_found_and_written_as_read(json_round_trip):
    value = {"format": "2.9", "metadata": {"transcription_config": {"language": "en"}}, "results": []}
    assert detect_format(SAMPLE, json.dumps(value)) == "speechmatics" and value_format(value) == "speechmatics"
    transcript, out = json_round_trip("speechmatics", value)
    assert transcript.words == [] and out == value
