from pathlib import Path

import pytest
import spacy

from spacy_punct.convert import ConversionError, ConversionStats, ConvertOptions
from spacy_punct.convert.transcripts import convert_transcripts

RECOGNISERS = Path(__file__).parents[1] / "data" / "recognisers"
CAPTIONS = "1\n00:00:00,000 --> 00:00:02,000\nSo, how was the trip?\n\n2\n00:00:02,000 --> 00:00:04,000\n"


def test_punctuated_captions_become_documents_ended_at_a_sentence_end(tmp_path):
    (tmp_path / "talk.srt").write_text(CAPTIONS + "[Music] It was long. We saw the coast.\n", encoding="utf8")
    (tmp_path / "notes.txt").write_text("no captions here", encoding="utf8")
    stats = ConversionStats()
    docs = list(convert_transcripts(tmp_path, spacy.blank("en"), stats, ConvertOptions(doc_length=6)))
    assert [doc.text for doc in docs] == ["So, how was the trip? [Music] It was long.", "We saw the coast."]
    assert stats.labels["QUESTION"] == 1 and stats.words == 12  # the tag is no word
    assert stats.skipped["files in no recogniser's format"] == 1


def test_a_whisper_result_is_read_as_its_words_and_a_file_in_no_format_is_named(tmp_path):
    docs = list(
        convert_transcripts(RECOGNISERS / "whisper.json", spacy.blank("en"), ConversionStats(), ConvertOptions())
    )
    assert docs[0].text == "so how was the trip it was long but we saw the coast"
    (tmp_path / "notes.txt").write_text("no captions here", encoding="utf8")
    with pytest.raises(ConversionError, match="notes.txt: not a recogniser's output"):
        list(convert_transcripts(tmp_path / "notes.txt", spacy.blank("en"), ConversionStats(), ConvertOptions()))
