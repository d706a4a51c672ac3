"""Transformers' speech recognition pipeline's result: word chunks in place, longer chunks re-cut, speakers' texts."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import detect_format, make_format, value_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "transformers.json"


def test_word_chunks_are_punctuated_in_place(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "transformers" and value_format(json.loads(text)) == "transformers"
    transcript, out = json_round_trip("transformers", text)
    assert [w.text for w in transcript.words][:2] == ["SO", "HOW"] and (
        transcript.words[4].start,
        transcript.words[4].end,
    ) == (1.18, 1.5)
    assert out["text"] == "So how was the trip? It was long."
    assert out["chunks"][4] == {"text": "trip?", "timestamp": [1.18, 1.5]}
    assert [chunk["timestamp"] for chunk in out["chunks"]] == [
        chunk["timestamp"] for chunk in json.loads(text)["chunks"]
    ]


def test_a_long_results_chunks_after_its_text_are_found():
    value = {"text": " so" * 5000, "chunks": [{"text": " so", "timestamp": [k, k + 0.5]} for k in range(5000)]}
    assert detect_format(SAMPLE, json.dumps(value)) == "transformers"


def test_whisper_chunks_are_recut_at_sentence_ends_and_a_cut_off_end_stays_open(json_round_trip):
    value = {
        "text": " so how was the trip it was long",
        "chunks": [
            {"timestamp": [0.0, 1.0], "text": " so how was"},
            {"timestamp": [1.0, None], "text": " the trip it was long"},
        ],
    }
    transcript, out = json_round_trip("transformers", value)
    assert transcript.words[2].end == 1.0 and transcript.words[3].start == 1.0
    assert out["text"] == " So how was the trip? It was long."
    assert [chunk["text"] for chunk in out["chunks"]] == [" So how was the trip?", " It was long."]
    assert out["chunks"][0]["timestamp"][0] == 0.0 and out["chunks"][1]["timestamp"][1] is None
    assert out["chunks"][0]["timestamp"][1] == out["chunks"][1]["timestamp"][0]


def test_speakers_turns_are_texts_of_their_own_and_their_texts_punctuated(json_round_trip):
    value = {
        "speakers": [
            {"speaker": "SPEAKER_00", "text": " so how was the trip", "timestamp": [0.0, 1.5]},
            {"speaker": "SPEAKER_01", "text": " it was long", "timestamp": [1.5, 2.7]},
        ],
        "chunks": [{"timestamp": [0.0, 2.7], "text": " so how was the trip it was long"}],
        "text": " so how was the trip it was long",
    }
    transcript, out = json_round_trip("transformers", value)
    assert transcript.turns == [0] * 5 + [1] * 3 and transcript.speakers[5] == "SPEAKER_01"
    assert [s["text"] for s in out["speakers"]] == [" So how was the trip?", " It was long."]
    assert out["speakers"][1]["timestamp"] == [1.5, 2.7]


def test_a_batch_of_results_is_a_text_each(json_round_trip):
    value = [
        {
            "text": "SO HOW WAS THE TRIP",
            "chunks": [{"text": w, "timestamp": [k, k + 0.5]} for k, w in enumerate("SO HOW WAS THE TRIP".split())],
        },
        {"text": "IT WAS LONG"},
    ]
    assert value_format(value) == "transformers"
    transcript, out = json_round_trip("transformers", value)
    assert transcript.turns == [0] * 5 + [1] * 3 and not transcript.words[5].timed
    assert [result["text"] for result in out] == ["So how was the trip?", "It was long."]


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"chunks": 3}', "expected the pipeline's result"),
        ('[{"chunks": []}, 4]', "result 2: expected the pipeline's result"),
        ('{"chunks": [{"text": "so", "timestamp": "x"}]}', r"chunk 1 \('so'\): 'timestamp' must be"),
        ('{"chunks": [{"text": "so", "timestamp": [2, 1]}]}', "chunk 1: needs start <= end"),
        ('{"chunks": [{"timestamp": [0, 1]}]}', "chunk 1: expected an object with 'text'"),
        (
            '{"text": "SO", "chunks": [{"text": "S", "timestamp": [0, 0.1]}, {"text": "O", "timestamp": [0.1, 0.2]}]}',
            "bad.json: its chunks are characters",
        ),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("transformers").read(text, "bad.json")


def test_a_result_without_speech_is_found_and_written_as_read(json_round_trip):
    value = {"text": "", "chunks": []}
    assert detect_format(SAMPLE, json.dumps(value)) == "transformers"
    transcript, out = json_round_trip("transformers", value)
    assert transcript.words == [] and out == value
