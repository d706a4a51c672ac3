"""Punctuating a recogniser's file: each word as punctuated."""

from spacy_punct.formats.timed import TimedWord, words_doc
from spacy_punct.inference.texts import punctuate_docs
from spacy_punct.inference.transcripts import output_words

WORDS = "so how was the trip it was long".split()


def test_output_words_carry_marks_onto_their_words(trained):
    words = [TimedWord(text, k * 0.5, k * 0.5 + 0.4) for k, text in enumerate(WORDS)]
    doc, _ = next(iter(punctuate_docs(trained, [(words_doc(trained, words), None)])))
    out = output_words(doc, WORDS)
    assert [w.text.rstrip(",.?").lower() for w in out] == WORDS
    assert out[-1].sentence_end
