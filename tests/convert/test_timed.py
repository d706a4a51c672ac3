import json

import pytest
import spacy

from spacy_punct.convert import CONVERTERS, ConversionError, ConversionStats, ConvertOptions
from spacy_punct.word_records import word_records


def _convert(path):
    stats = ConversionStats()
    docs = list(CONVERTERS["timed-jsonl"](path, spacy.blank("en"), stats, ConvertOptions()))
    return docs, stats


def test_timed_transcripts_keep_timings_and_marks(tmp_path):
    source = tmp_path / "talk.jsonl"
    lines = [
        json.dumps(
            {
                "id": 1,
                "words": [
                    {"word": "So,", "start": 0.0, "end": 0.3},
                    {"word": "how", "start": 0.4, "end": 0.6},
                    {"word": "was", "start": 0.6, "end": 0.8},
                    {"word": "it?", "start": 0.8, "end": 1.1},
                ],
            }
        ),
        "",
        json.dumps({"result": [{"word": "Fine.", "start": 2.0, "end": 2.4, "conf": 0.8}], "text": "fine"}),
        json.dumps({"words": []}),
    ]
    source.write_text("\n".join(lines) + "\n", encoding="utf8")
    docs, stats = _convert(source)
    assert [doc.text for doc in docs] == ["So, how was it?", "Fine."]
    assert stats.documents == 2 and stats.labels["COMMA"] == 1 and stats.skipped["records without words"] == 1
    records = word_records(docs[0])
    assert [(r.text, r.mark, r.extra.get("start_time")) for r in records] == [
        ("So", ",", 0.0),
        ("how", "", 0.4),
        ("was", "", 0.6),
        ("it", "?", 0.8),
    ]


@pytest.mark.parametrize(
    "line,message",
    [
        ('{"words": [{"word": "a", "start": 2, "end": 1}]}', r"talk.jsonl:1, word 1 \('a'\): needs 0 <= start <= end"),
        ("not json", r"talk.jsonl:1: not JSON"),
        ('{"text": "no words"}', "no word list"),
        ("[1, 2]", "expected a record"),
    ],
)
def test_bad_timed_transcripts_name_the_line(tmp_path, line, message):
    source = tmp_path / "talk.jsonl"
    source.write_text(line + "\n", encoding="utf8")
    with pytest.raises(ConversionError, match=message):
        _convert(source)
