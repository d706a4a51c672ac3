"""Records punctuated: their fields, timings and errors kept."""

import json

import pytest

from spacy_punct.formats.timed import RecordError
from spacy_punct.inference.records import punctuate_records

from ..conftest import TEXTS

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


def test_records_keep_their_fields_and_timings(trained):
    records = [
        {"id": "a", "text": BARE[0], "speaker": 2},
        {
            "id": 7,
            "words": [
                {"word": "where", "start": 0.0, "end": 0.3},
                {"word": "did", "start": 0.3, "end": 0.5},
                {"word": "you", "start": 0.5, "end": 0.6},
                {"word": "stay", "start": 0.7, "end": 1.2},
            ],
        },
        {"words": ["so", "how", "was", "the", "trip"]},
    ]
    out = list(punctuate_records(trained, records, batch_size=2))
    assert [r.get("id") for r in out] == ["a", 7, None]
    assert out[0]["speaker"] == 2 and out[0]["punctuated"] == TEXTS[0]
    assert out[1]["punctuated"] == "Where did you stay?" and out[1]["text"] == "where did you stay"
    timed = [(t["text"], t.get("start_time"), t.get("end_time")) for t in out[1]["tokens"]]
    assert timed == [("Where", 0.0, 0.3), ("did", 0.3, 0.5), ("you", 0.5, 0.6), ("stay", 0.7, 1.2), ("?", None, None)]
    assert "start_time" not in out[2]["tokens"][0]
    json.dumps(out)


def test_a_record_keeps_its_words_and_its_text(trained):
    """A timed record lost its `words` (and each word's `conf`); a record with
    both `text` and `words` had its text overwritten."""
    words = [
        {"word": "where", "start": 0.0, "end": 0.3, "conf": 0.9},
        {"word": "did", "start": 0.3, "end": 0.5, "conf": 0.8},
    ]
    record = {"id": 1, "words": words, "text": "Where did?"}
    (out,) = punctuate_records(trained, [record])
    assert out["words"] == words and out["text"] == "Where did?"
    assert out["source_text"] == "where did"
    assert record == {"id": 1, "words": words, "text": "Where did?"}  # the input is not changed
    (out,) = punctuate_records(trained, [{"words": words}])
    assert out["words"] == words and out["text"] == "where did" and "source_text" not in out


@pytest.mark.parametrize(
    "record,message",
    [
        ("just a string", "expected an object"),
        ({"txt": "typo"}, "expected a string 'text'"),
        ({"words": "so how"}, "'words' must be a list"),
        ({"words": [{"word": "", "start": 0, "end": 1}]}, "missing or empty"),
        ({"words": [{"word": "so", "start": "zero", "end": 1}]}, "must be numbers"),
        ({"words": [{"word": "so", "start": 2, "end": 1}]}, "start <= end"),
        ({"words": [{"word": "so", "start": 2, "end": 3}, {"word": "how", "start": 1, "end": 3}]}, "before the word"),
        ({"words": ["so", {"word": "how", "start": 1, "end": 3}]}, "for every word or for none"),
    ],
)
def test_bad_records_name_the_record(trained, record, message):
    with pytest.raises(RecordError, match=message) as error:
        list(punctuate_records(trained, [{"text": "ok"}, record]))
    assert "record 2" in str(error.value)


def test_a_record_over_spacys_length_limit_is_punctuated_as_a_text_line_is(trained, monkeypatch):
    """A 1.3 million character record stopped the job with spaCy's E088
    (here the limit is lowered to 120,000 characters, the same path)."""
    from spacy_punct import punctuate, timed

    monkeypatch.setattr(trained, "max_length", 120_000)
    monkeypatch.setattr(timed, "WORDS_PER_PART", 5_000)
    text = " ".join(["so how was the trip it was long"] * 5_000)
    assert len(text) > trained.max_length
    (out,) = punctuate_records(trained, [{"id": 7, "text": text}])
    assert out["id"] == 7 and out["text"] == text
    assert out["punctuated"] == next(punctuate(trained, [text])).text
    words = [{"word": word, "start": i * 0.1, "end": i * 0.1 + 0.05} for i, word in enumerate(text.split())]
    (out,) = punctuate_records(trained, [{"words": words}])
    assert len([t for t in out["tokens"] if t["source"] is not None]) == len(words)
    assert max(t.get("end_time", 0.0) for t in out["tokens"]) == words[-1]["end"]
