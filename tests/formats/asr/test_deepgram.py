"""Deepgram's result: each channel's first alternative punctuated as Deepgram's own `punctuate` writes it."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import OutputWord, detect_format, make_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "deepgram.json"


def test_words_take_their_punctuated_forms_beside_the_recognised_ones(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "deepgram"
    _, out = json_round_trip("deepgram", text)
    best, other = out["results"]["channels"][0]["alternatives"]
    assert best["transcript"] == "So how was the trip? It was long."
    assert [(w["word"], w["punctuated_word"]) for w in best["words"]][3:6] == [
        ("the", "the"),
        ("trip", "trip?"),
        ("it", "It"),
    ]
    assert best["words"][4] == {"word": "trip", "start": 0.8, "end": 1.2, "confidence": 0.9, "punctuated_word": "trip?"}
    assert other["transcript"] == "so how was the strip it was long"  # the other alternative as read
    assert [u["transcript"] for u in out["results"]["utterances"]] == ["So how was the trip?", "It was long."]
    assert out["metadata"]["request_id"] == "0b5f"
    transcript = make_format("deepgram").read(text, "t")
    as_read = [OutputWord(word.text, False) for word in transcript.words]
    assert "\n" not in make_format("deepgram").write(transcript, as_read).strip()  # on one line, as read


def test_channels_and_speakers_are_texts_of_their_own():
    def channel(words, speakers):
        entries = [
            {"word": w, "start": float(k), "end": k + 0.5, "speaker": s}
            for k, (w, s) in enumerate(zip(words, speakers))
        ]
        return {"alternatives": [{"transcript": " ".join(words), "words": entries}]}

    value = {"results": {"channels": [channel(["so", "how", "it"], [0, 0, 1]), channel(["was", "long"], [0, 0])]}}
    transcript = make_format("deepgram").read(json.dumps(value), "call.json")
    assert transcript.turns == [0, 0, 1, 2, 2]
    assert transcript.groups == [0, 0, 0, 1, 1]


def test_a_result_punctuated_before_is_read_as_written_and_one_without_words_from_its_transcript(json_round_trip):
    value = {
        "results": {
            "channels": [
                {
                    "alternatives": [
                        {
                            "transcript": "So, how",
                            "words": [
                                {"word": "so", "punctuated_word": "So,", "start": 0.0, "end": 0.2},
                                {"word": "how", "punctuated_word": "how", "start": 0.2, "end": 0.4},
                            ],
                        }
                    ]
                }
            ]
        }
    }
    assert [w.text for w in make_format("deepgram").read(json.dumps(value), "t").words] == ["So,", "how"]
    bare = {"results": {"channels": [{"alternatives": [{"transcript": "so how was the trip", "words": []}]}]}}
    transcript, out = json_round_trip("deepgram", json.dumps(bare))
    assert [w.text for w in transcript.words] == ["so", "how", "was", "the", "trip"]
    assert out["results"]["channels"][0]["alternatives"][0] == {"transcript": "So how was the trip?", "words": []}


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"results": {"channels": {}}, "alternatives": 1}', "expected Deepgram's result"),
        ('{"results": {"channels": [{"alternatives": [{"words": []}]}]}}', "channel 1, alternative 1: no 'words'"),
        (
            '{"results": {"channels": [{"alternatives": [{"transcript": "so", "words": [{"word": "so", "start": "x"}]}]}]}}',
            "channel 1, word 1: start and end must be numbers",
        ),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("deepgram").read(text, "bad.json")


def test_paragraphs_made_from_deepgrams_own_marks_take_the_new_ones(json_round_trip):
    said = [("so", "So"), ("how", "how"), ("was", "was"), ("the", "the"), ("trip", "trip."), ("it", "It")]
    said += [("was", "was"), ("long", "long.")]
    entries = [
        {"word": w, "punctuated_word": p, "start": k * 0.3, "end": k * 0.3 + 0.2} for k, (w, p) in enumerate(said)
    ]
    paragraphs = {
        "transcript": "\nSpeaker 0: So how was the trip.\n\nSpeaker 1: It was long.",
        "paragraphs": [
            {"sentences": [{"text": "So how was the trip.", "start": 0.0, "end": 1.4}], "num_words": 5, "end": 1.4},
            {"sentences": [{"text": "It was long.", "start": 1.5, "end": 2.3}], "num_words": 3, "end": 2.3},
        ],
    }
    value = {
        "results": {"channels": [{"alternatives": [{"transcript": "", "words": entries, "paragraphs": paragraphs}]}]}
    }
    _, out = json_round_trip("deepgram", json.dumps(value))
    written = out["results"]["channels"][0]["alternatives"][0]["paragraphs"]
    assert written["transcript"] == "\nSpeaker 0: So how was the trip?\n\nSpeaker 1: It was long."
    assert [p["sentences"] for p in written["paragraphs"]] == [
        [{"text": "So how was the trip?", "start": 0.0, "end": pytest.approx(1.4)}],
        [{"text": "It was long.", "start": 1.5, "end": pytest.approx(2.3)}],
    ]
