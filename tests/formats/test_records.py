"""Records in, records out: what a pipeline reads of a record, and the output record of a doc."""

import pytest

from spacy_punct.formats.records import output_record, record_doc
from spacy_punct.formats.timed import RecordError


def test_output_record_of_whitespace_has_no_sentences(trained):
    record = output_record(trained("   "), {"text": "   "})
    assert record["sentences"] == [] and record["punctuated"] == "   "


def test_a_record_whose_text_and_words_differ_is_named():
    import spacy

    nlp = spacy.blank("en")
    words = [{"word": "where", "start": 0.0, "end": 0.3}, {"word": "did", "start": 0.3, "end": 0.5}]
    record_doc(nlp, {"text": "Where, did?", "words": words}, 3)  # the same words: marks and case aside
    with pytest.raises(
        RecordError, match=r"^record 3: its 'text' and its words differ at word 2 \('you' against 'did'\)"
    ):
        record_doc(nlp, {"text": "where you", "words": words}, 3)
    with pytest.raises(RecordError, match="word 3 \\('go' against 'their end'\\)"):
        record_doc(nlp, {"text": "where did go", "words": words}, 3)
