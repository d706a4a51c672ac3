"""Google Speech-to-Text's response: each result's first alternative punctuated in place."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import OutputWord, detect_format, make_format
from spacy_punct.formats.timed import RecordError

SAMPLE = Path(__file__).parents[2] / "data" / "recognisers" / "google.json"


def test_each_results_words_and_transcript_are_punctuated_in_place(json_round_trip):
    text = SAMPLE.read_text(encoding="utf8")
    assert detect_format(SAMPLE, text) == "google"
    transcript, out = json_round_trip("google", text)
    assert [(w.start, w.end) for w in transcript.words][4:6] == [(0.8, 1.2), (1.6, 1.8)]
    first, second = out["results"]
    assert first["alternatives"][0]["transcript"] == "So how was the trip?"
    assert second["alternatives"][0]["transcript"] == " It was long."  # its leading space kept
    assert first["alternatives"][0]["words"][4] == {"startTime": "0.8s", "endTime": "1.2s", "word": "trip?"}
    assert first["alternatives"][1] == {"transcript": "so how was the strip", "confidence": 0.5}
    assert (first["resultEndTime"], out["totalBilledTime"]) == ("1.300s", "3s")
    as_read = [OutputWord(word.text, False) for word in transcript.words]
    assert make_format("google").write(transcript, as_read).startswith('{\n  "results"')  # indented as read


def test_results_without_word_offsets_share_their_time_and_v2_and_snake_case_fields_are_read(json_round_trip):
    plain = {
        "results": [
            {"alternatives": [{"transcript": "so how was the trip"}], "resultEndTime": "2s"},
            {"alternatives": [{"transcript": " it was long"}], "resultEndTime": "3.5s"},
        ]
    }
    transcript, out = json_round_trip("google", plain)
    assert transcript.words[0].start == 0.0 and transcript.words[4].end == 2.0 and transcript.words[5].start == 2.0
    assert [r["alternatives"][0]["transcript"] for r in out["results"]] == ["So how was the trip?", " It was long."]
    v2 = {"results": [{"alternatives": [{"words": [{"word": "so", "startOffset": "0.5s", "endOffset": "0.7s"}]}]}]}
    snake = {
        "results": [
            {
                "alternatives": [
                    {"words": [{"word": "so", "start_time": {"seconds": 1, "nanos": 5e8}, "end_time": "1.700s"}]}
                ]
            }
        ]
    }
    assert [(w.start, w.end) for w in json_round_trip("google", v2)[0].words] == [(0.5, 0.7)]
    assert [(w.start, w.end) for w in json_round_trip("google", snake)[0].words] == [(1.5, 1.7)]


def test_diarizations_summary_names_the_speakers_and_takes_the_same_words(json_round_trip):
    words = "so how was the trip it was long".split()
    entries = [{"word": w, "startTime": f"{k}s", "endTime": f"{k}.5s"} for k, w in enumerate(words)]
    summary = [dict(e, speakerTag=1 if k < 5 else 2) for k, e in enumerate(entries)]
    value = {
        "results": [
            {"alternatives": [{"transcript": " ".join(words[:5]), "words": entries[:5]}]},
            {"alternatives": [{"transcript": " " + " ".join(words[5:]), "words": entries[5:]}]},
            {"alternatives": [{"transcript": "", "words": summary}]},
        ]
    }
    transcript, out = json_round_trip("google", value)
    assert len(transcript.words) == 8 and transcript.turns == [0] * 5 + [1] * 3
    last = out["results"][2]["alternatives"][0]
    assert [w["word"] for w in last["words"]] == "So how was the trip? It was long.".split()
    assert last["words"][5]["speakerTag"] == 2 and last["transcript"] == ""


def test_a_channels_results_are_one_text_wherever_they_lie():
    def result(words, channel):
        return {"alternatives": [{"transcript": " ".join(words)}], "channelTag": channel}

    value = {"results": [result(["so", "how"], 1), result(["it", "was"], 2), result(["was", "the", "trip"], 1)]}
    transcript = make_format("google").read(json.dumps(value), "call.json")
    assert [w.text for w in transcript.words] == ["so", "how", "was", "the", "trip", "it", "was"]
    assert transcript.groups == [0, 0, 2, 2, 2, 1, 1] and transcript.turns == [0] * 5 + [1] * 2


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"results": [{"alternatives": "x"}]}', "result 1: 'alternatives' must be a list"),
        (
            '{"results": [{"alternatives": [{"words": [{"word": "so", "startTime": "soon"}]}]}]}',
            "word 1 .'so'.: its start",
        ),
        ('{"results": [{"alternatives": [{"words": [{"startTime": "1s"}]}]}]}', "word 1: the word is missing"),
    ],
)
def test_what_cannot_be_read_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        make_format("google").read(text, "bad.json")


def test_a_response_with_no_speech_is_found_and_written_as_it_was():
    text = '{"results": [], "totalBilledTime": "0s"}'
    assert detect_format(Path("silence.json"), text) == "google"
    transcript = make_format("google").read(text, "silence.json")
    assert transcript.words == [] and json.loads(make_format("google").write(transcript, [])) == json.loads(text)
