import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import DocBin

from spacy_punct.inference.texts import punctuate
from spacy_punct.pipelines.loading import find_punctuator
from spacy_punct.pipelines.repair import chunks, fit_repair
from spacy_punct.repair import damaged_text
from spacy_punct.word_records import word_records
from tests.conftest import TEXTS

WORD = re.compile(r"\w+")


@pytest.fixture(scope="module")
def repaired_bytes(trained_bytes):
    from tests.conftest import listener_pipeline

    nlp = listener_pipeline().from_bytes(trained_bytes)
    docs = [nlp.make_doc(" ".join(TEXTS[k:] + TEXTS[:k])) for k in range(len(TEXTS))]
    assert fit_repair(nlp, docs, epochs=2, width=16, log=lambda line: None) > 0
    return nlp.to_bytes()


@pytest.fixture
def repaired(repaired_bytes):
    from tests.conftest import listener_pipeline

    return listener_pipeline().from_bytes(repaired_bytes)


def test_chunks_are_whole_sentences(nlp):
    records = word_records(nlp(" ".join(TEXTS)))
    parts = list(chunks(records, size=12))
    assert [r for part in parts for r in part] == records
    assert all(part[-1].mark in (".", "?") for part in parts)


def test_the_head_is_saved_with_the_component(repaired, trained, tmp_path):
    pipe = find_punctuator(repaired)[1]
    assert pipe.repair_model is not None and pipe.cfg["repair"] == {"width": 16, "depth": 1}
    assert find_punctuator(trained)[1].repair_model is None  # a pipeline without one loads as before
    repaired.to_disk(tmp_path / "model")
    import spacy

    loaded = spacy.load(tmp_path / "model")
    text = "so how was the trip. It was long but we saw the coast"
    settings = pipe.settings.replace(repair=True)
    expected = [doc.text for doc in punctuate(repaired, [text], settings=settings)]
    assert [doc.text for doc in punctuate(loaded, [text], settings=settings)] == expected
    pipe.set_repair_model(None)
    assert "repair" not in pipe.cfg


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), head=st.booleans())
def test_repair_keeps_every_mark_capital_and_word(repaired_bytes, seed, head):
    from tests.conftest import listener_pipeline

    nlp = listener_pipeline().from_bytes(repaired_bytes)
    pipe = find_punctuator(nlp)[1]
    if not head:
        pipe.set_repair_model(None)  # the rule: marks filled only in long stretches without one
    rng = random.Random(seed)
    texts = rng.sample(TEXTS, 4)
    damaged = damaged_text(word_records(nlp.make_doc(" ".join(texts))), rng)
    out = next(iter(punctuate(nlp, [damaged.text], settings=pipe.settings.replace(repair=True)))).text
    assert WORD.findall(out.lower()) == WORD.findall(damaged.text.lower())
    # every word as written in the input, with the marks after it, is in the output in order
    position = 0
    for piece in damaged.text.split():
        if any(char.isupper() for char in piece) or not piece.isalnum():
            found = out.find(piece.rstrip(",.?!"), position)
            assert found >= 0, (piece, out)
            position = found
        for mark in ",.?!":
            if piece.endswith(mark):
                assert out[out.find(piece[:-1], position) + len(piece) - 1] == mark, (piece, out)


def test_fit_repair_reads_docbins(trained, tmp_path):
    path = tmp_path / "train.spacy"
    DocBin(docs=[trained.make_doc(text) for text in TEXTS]).to_disk(path)
    docs = list(DocBin().from_disk(path).get_docs(trained.vocab))
    # a word per mark slot: `doesn't` is one
    assert fit_repair(trained, docs, epochs=1, width=8, log=lambda line: None) == sum(
        len(doc.text.split()) for doc in docs
    )


def test_slots_without_a_mark_weigh_less_in_the_heads_class_loss():
    import numpy

    from spacy_punct.pipelines.repair import RepairExample, _loss

    features = numpy.full((2, 18), 0.25, dtype="f")
    example = RepairExample(features, numpy.array([0, 2]), numpy.array([1.0, 1.0], dtype="f"))
    score = numpy.zeros((2, 5), dtype="f")
    loss_full, full = _loss(score, example, 1.0)
    loss_half, half = _loss(score, example, 0.5)
    assert numpy.allclose(half[0, :4], 0.5 * full[0, :4]) and numpy.allclose(half[1], full[1])
    assert numpy.allclose(half[:, 4], full[:, 4]) and loss_half < loss_full  # the stripped score is not weighted
