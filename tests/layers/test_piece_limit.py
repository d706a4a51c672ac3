"""Windows over the encoder's limit are split, not cut (tiny local BERT: 128 pieces)."""

import warnings

import numpy
import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example

from spacy_punct.layers.piece_limit import fit_window, fit_windows

from ..conftest import TEXTS
from .test_transformer import trf_pipeline


def char_count(texts):
    """A stand-in tokenizer: one piece per character, two special pieces."""
    return [len(text) + 2 for text in texts]


def bounds(spans):
    return [(span.start, span.end) for span in spans]


def test_a_window_within_the_limit_is_kept():
    doc = Doc(spacy.blank("en").vocab, words=["a", "bb", "c"])
    assert fit_windows([[doc[0:3]], [doc[1:2]]], char_count, limit=10) is None


def test_a_window_is_split_around_its_longest_word_whitespace_riding_along():
    words = ["ab", "\n", "cd", "x" * 30, "ef", "  ", "gh", "ij"]
    doc = Doc(spacy.blank("en").vocab, words=words, spaces=[True, False, True, True, False, False, True, False])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = fit_window(doc[:], char_count(["x"])[0] + 100, char_count, limit=16)
    assert bounds(parts) == [(0, 3), (3, 4), (4, 8)]
    assert [str(w.message) for w in caught] == [
        "A word of 32 word pieces is more than the encoder reads at once (16): "
        "it is read from its first pieces ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…)."
    ]
    assert all(char_count([p.text])[0] <= 16 for p in parts if len([t for t in p if not t.is_space]) > 1)


def test_the_neighbours_of_a_long_word_stay_together():
    doc = Doc(spacy.blank("en").vocab, words=["aa", "bb", "c" * 10, "dd", "ee", "f" * 9, "gg"])
    parts = fit_window(doc[:], char_count([doc.text])[0], char_count, limit=12)
    assert bounds(parts) == [(0, 2), (2, 3), (3, 5), (5, 6), (6, 7)]
    assert all(n <= 12 for n in char_count([p.text for p in parts]))


LONG = "trip" * 24  # 97 pieces of the tiny BERT's vocabulary: one fits, two do not
LONGER = "trip," * 70  # 140 pieces (BERT splits at each comma; a longer word would be one [UNK])


def word_pieces(nlp, words):
    tokenizer = nlp.get_pipe("transformer").model.tokenizer
    return [len(tokenizer(w, add_special_tokens=False)["input_ids"]) for w in words]


def trf(tiny_bert, precision):
    nlp = trf_pipeline(tiny_bert, window=32, stride=32, cpu_precision=precision)
    nlp.initialize(lambda: [Example(nlp.make_doc(t.lower()), nlp.make_doc(t)) for t in TEXTS])
    return nlp


@pytest.mark.parametrize("precision", ["float32", None])
def test_every_word_keeps_its_pieces(tiny_bert, precision):
    """spacy-transformers' own transformer (precision None) cuts the window
    at 128 pieces and the words after the cut get none; ours reads them all."""
    nlp = trf(tiny_bert, precision)
    words = "so how was the trip".split() + [LONG, LONG] + "it was long but we saw the coast".split()
    doc = nlp.get_pipe("transformer")(Doc(nlp.vocab, words=words))
    aligned = list(doc._.trf_data.align.lengths)
    if precision is None:
        assert aligned[-1] == 0
    else:
        assert aligned == word_pieces(nlp, words)


def test_a_word_over_the_limit_is_cut_alone(tiny_bert):
    nlp = trf(tiny_bert, "float32")
    words = "so how was the trip".split() + [LONGER] + "it was long but we saw the coast".split()
    with pytest.warns(UserWarning, match="more than the encoder reads at once"):
        doc = nlp.get_pipe("transformer")(Doc(nlp.vocab, words=words))
    aligned = list(doc._.trf_data.align.lengths)
    expected = word_pieces(nlp, words)
    assert aligned[5] == 128 - 1 < expected[5]  # [CLS] and its first 127 pieces
    assert aligned[:5] + aligned[6:] == expected[:5] + expected[6:]


def test_split_windows_do_not_depend_on_the_batch(tiny_bert):
    nlp = trf(tiny_bert, "float32")
    pipe = nlp.get_pipe("punctuator")
    pipe.rewrite, pipe.store_probs = False, True
    text = "so how was the trip " + LONG + " " + LONG + " it was long but we saw the coast"
    alone = nlp(text)._.punct_probs
    plain, batched, other = nlp.pipe(["where did you stay", text, "did you agree"])
    numpy.testing.assert_allclose(batched._.punct_probs, alone, atol=1e-5)
    numpy.testing.assert_allclose(plain._.punct_probs, nlp("where did you stay")._.punct_probs, atol=1e-5)


def test_a_window_over_the_limit_raises_no_tokenizer_warning(tiny_bert):
    """The tokenizer warns that a sequence over its limit "will result in
    indexing errors"; split windows make none, so it must not say so."""
    import logging

    class Records(logging.Handler):
        def __init__(self):
            super().__init__()
            self.messages = []

        def emit(self, record):
            self.messages.append(record.getMessage())

    nlp = trf(tiny_bert, "float32")
    words = "so how was the trip".split() + [LONG, LONG] + "it was long but we saw the coast".split()
    records = Records()
    library_logger = logging.getLogger("transformers")  # transformers' own handler does not propagate
    library_logger.addHandler(records)
    try:
        doc = nlp.get_pipe("transformer")(Doc(nlp.vocab, words=words))
    finally:
        library_logger.removeHandler(records)
    assert list(doc._.trf_data.align.lengths) == word_pieces(nlp, words)
    assert not [m for m in records.messages if "Token indices sequence length" in m]
