"""A marker piece after every word, the word read from it."""

import numpy
import pytest
import spacy
from transformers import AutoTokenizer

from spacy_punct.layers.word_markers import WordMarkingTokenizer

from .test_transformer import trf_pipeline


@pytest.fixture(scope="module")
def marking(tiny_bert):
    return WordMarkingTokenizer(AutoTokenizer.from_pretrained(str(tiny_bert), use_fast=True), "[MASK]")


def test_a_marker_follows_each_word_and_carries_its_characters(marking):
    text = "so how was the trip we know"
    marked = marking([text])
    pieces = marking.convert_ids_to_tokens(marked["input_ids"][0])
    assert pieces[-6:] == ["k", "##n", "##o", "##w", "[MASK]", "[SEP]"]  # one marker after a word's last piece
    assert len(pieces) == len(marking.tokenizer([text])["input_ids"][0]) + 7
    words = [text[start:end] for piece, (start, end) in zip(pieces, marked["offset_mapping"][0]) if piece == "[MASK]"]
    assert words == text.split()
    assert all(tuple(o) == (0, 0) for piece, o in zip(pieces, marked["offset_mapping"][0]) if piece != "[MASK]")


def test_padded_arrays_as_spacy_transformers_asks(marking):
    encoding = marking(["so how was the trip", "yes"], return_tensors="np", padding="longest")
    assert encoding["input_ids"].shape == encoding["attention_mask"].shape == encoding["token_type_ids"].shape
    assert encoding["offset_mapping"].shape == encoding["input_ids"].shape + (2,)
    assert encoding["attention_mask"][1].sum() == 4  # [CLS] yes [MASK] [SEP]
    assert (encoding["input_ids"][1][4:] == marking.pad_token_id).all()
    assert marking(["so how"])["input_ids"] == [marking([t])["input_ids"][0] for t in ["so how"]]


def test_no_token_types_where_the_tokenizer_gives_none(marking, monkeypatch):
    monkeypatch.setattr(marking.tokenizer, "model_input_names", ["input_ids", "attention_mask"])
    encoding = marking(["so how", "yes"], return_tensors="np", padding="longest")
    assert "token_type_ids" not in encoding
    assert encoding["input_ids"].shape == encoding["attention_mask"].shape == (2, 6)


def test_a_marker_outside_the_vocabulary_fails(tiny_bert):
    tokenizer = AutoTokenizer.from_pretrained(str(tiny_bert), use_fast=True)
    with pytest.raises(ValueError, match="not a piece"):
        WordMarkingTokenizer(tokenizer, "[unused0]")


def test_each_token_is_read_from_its_markers(tiny_bert, tmp_path):
    nlp = trf_pipeline(tiny_bert, cpu_precision="float32", word_marker="[MASK]")
    nlp.initialize()
    doc = nlp("so how was the trip it was long but we don't know")
    data = doc._.trf_data
    pieces = [p for row in data.wordpieces.strings for p in row]
    aligned = [[pieces[j] for j in data.align[i].dataXd.ravel()] for i in range(len(doc))]
    assert all(row and set(row) == {"[MASK]"} for row in aligned)
    do = [t.text for t in doc].index("do")
    # spaCy's "do" "n't" are "don" "'" "t" to the pre-tokenizer: a token takes the markers of the words it overlaps
    assert [len(aligned[do]), len(aligned[do + 1])] == [1, 3]
    assert data.align[do].dataXd.ravel()[0] == data.align[do + 1].dataXd.ravel()[0]
    nlp.to_disk(tmp_path / "marked")
    loaded = spacy.load(tmp_path / "marked")
    assert loaded.config["components"]["transformer"]["model"]["word_marker"] == "[MASK]"
    again = loaded(doc.text)._.trf_data
    numpy.testing.assert_allclose(again.model_output.last_hidden_state, data.model_output.last_hidden_state, atol=1e-6)
