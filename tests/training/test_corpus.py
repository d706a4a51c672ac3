import pytest
from spacy.tokens import Doc, DocBin

from spacy_punct.training.augment import create_asr_noise_augmenter
from spacy_punct.training.corpus import PunctCorpus
from spacy_punct.word_records import read_docbins, strip_docs

from ..conftest import TEXTS, split_marks


def test_reader_strips_punctuation_and_keeps_gold(nlp, corpus_path):
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    assert len(examples) == len(TEXTS)
    eg = examples[0]
    assert eg.predicted.text == "so how was the trip it was long but we saw the coast"
    assert [t.text for t in eg.reference][:2] == ["So", "how"]
    assert [t._.punct for t in eg.reference] == [",", "", "", "", "?", "", "", ",", "", "", "", "", "."]
    assert eg.reference.has_unknown_spaces
    # the alignment spaCy builds must hold (texts equal up to case and spaces)
    assert eg.alignment.x2y.lengths.tolist() == [1] * len(eg.predicted)


def test_reader_keeps_case_when_asked(nlp, corpus_path):
    eg = next(iter(PunctCorpus(corpus_path, lowercase=False, max_length=0)(nlp)))
    assert eg.predicted.text.startswith("So how")


def test_reader_keeps_contractions_joined(nlp, corpus_path):
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    assert "doesn't like" in examples[4].predicted.text


def _words(examples):
    return [t.text for eg in examples for t in eg.reference]


def test_chunks_lose_nothing_and_vary_by_epoch(nlp, corpus_path):
    corpus = PunctCorpus(corpus_path, max_length=4, random_chunks=True, seed=1)
    whole = _words(PunctCorpus(corpus_path, max_length=0)(nlp))
    first = list(corpus(nlp))
    second = list(corpus(nlp))
    assert _words(first) == whole == _words(second)
    assert all(len(eg.predicted) <= 4 for eg in first)
    assert [len(eg.predicted) for eg in first] != [len(eg.predicted) for eg in second]
    again = PunctCorpus(corpus_path, max_length=4, random_chunks=True, seed=1)
    assert [len(eg.predicted) for eg in again(nlp)] == [len(eg.predicted) for eg in first]


def _chunk_texts(examples):
    return [(eg.predicted.text, [t._.punct for t in eg.reference], eg.predicted._.open_end) for eg in examples]


@pytest.mark.parametrize("shuffle,reads", [(True, 1), (False, 3)])
def test_shuffled_epochs_read_the_files_once(nlp, corpus_path, monkeypatch, shuffle, reads):
    from spacy_punct.training import corpus as module

    settings = dict(max_length=4, random_chunks=True, shuffle=shuffle, seed=1)
    expected = []
    for epoch in range(3):
        fresh = PunctCorpus(corpus_path, **settings)
        fresh.epoch = epoch
        expected.append(_chunk_texts(fresh(nlp)))
    calls = []
    read = module.read_docbin_files
    monkeypatch.setattr(module, "read_docbin_files", lambda *args: calls.append(args) or read(*args))
    corpus = PunctCorpus(corpus_path, **settings)
    assert [_chunk_texts(corpus(nlp)) for _ in range(3)] == expected
    assert len(calls) == reads
    assert expected[0] != expected[1]


def test_fixed_chunks(nlp, corpus_path):
    lengths = [len(eg.predicted) for eg in PunctCorpus(corpus_path, max_length=5)(nlp)]
    assert max(lengths) == 5
    assert sum(lengths) == len(_words(PunctCorpus(corpus_path, max_length=0)(nlp)))


def test_only_a_doc_s_last_chunk_ends_a_text(nlp, corpus_path):
    n_docs = len(list(PunctCorpus(corpus_path, max_length=0)(nlp)))
    noise = create_asr_noise_augmenter(level=0.5)
    for corpus in (
        PunctCorpus(corpus_path, max_length=0),
        PunctCorpus(corpus_path, max_length=5),
        PunctCorpus(corpus_path, max_length=5, augmenter=noise),
    ):
        closed = [not eg.predicted._.open_end for eg in corpus(nlp)]
        assert sum(closed) == n_docs
        assert closed[-1]


def test_limit_and_folder(nlp, corpus_path):
    assert len(list(PunctCorpus(corpus_path.parent, max_length=0, limit=2)(nlp))) == 2


def test_weights_read_a_file_s_docs_that_many_times_an_epoch(nlp, corpus_path, tmp_path):
    docs = list(read_docbins(corpus_path, nlp.vocab))
    folder = tmp_path / "weighted"
    folder.mkdir()
    DocBin(docs=docs[:2]).to_disk(folder / "talk.spacy")
    DocBin(docs=docs[2:3]).to_disk(folder / "subtitles.spacy")

    def texts(**weights):
        reader = PunctCorpus(folder, max_length=4, random_chunks=True, weights=weights or None, seed=3)
        return [eg.predicted.text for eg in reader(nlp)]

    def words(texts):
        return sorted(word for text in texts for word in text.split())

    once, weighted, subtitles = texts(), texts(subtitles=3), texts(talk=0)
    assert words(weighted) == sorted(words(once) + 2 * words(subtitles))
    assert sorted(words(texts(subtitles=0)) + words(subtitles)) == words(once)
    assert words(texts(films=1)) == words(once)
    with pytest.raises(ValueError, match="name no file of .*: films"):
        texts(films=2)
    with pytest.raises(ValueError, match="whole numbers"):
        PunctCorpus(folder, weights={"talk": -1})


def test_bad_paths(nlp, tmp_path):
    with pytest.raises(ValueError, match="not found"):
        list(read_docbins(tmp_path / "missing.spacy", nlp.vocab))
    with pytest.raises(ValueError, match="No .spacy files"):
        list(read_docbins(tmp_path, nlp.vocab))
    bad = tmp_path / "bad.spacy"
    bad.write_text("word\tO\n")
    with pytest.raises(ValueError, match="is not a DocBin"):
        list(read_docbins(bad, nlp.vocab))
    with pytest.raises(ValueError, match="needs a path"):
        PunctCorpus(None)


def test_split_marks(nlp):
    words, spaces, marks = split_marks(nlp("Yes, I don't."))
    assert words == ["Yes", "I", "do", "n't"]
    assert spaces == [True, True, False, True]
    assert marks == [",", "", "", "."]


def test_split_marks_reads_gold_form(nlp):
    doc = Doc(nlp.vocab, words=["yes", "i", "do"])
    doc[0]._.punct = ","
    doc[2]._.punct = "."
    assert split_marks(doc)[2] == [",", "", "."]


def test_strip_docs_round_trip(nlp, corpus_path, tmp_path):
    docs = list(read_docbins(corpus_path, nlp.vocab))
    gold = list(strip_docs(docs))
    DocBin(docs=gold, store_user_data=True).to_disk(tmp_path / "gold.spacy")
    reread = list(read_docbins(tmp_path / "gold.spacy", nlp.vocab))
    assert reread[4].text.startswith("my sister doesn't like boats")
    assert all(not any(t.is_punct for t in doc) for doc in reread)
    for original, stripped in zip(docs, reread):
        assert [m for m in split_marks(original)[2] if m] == [m for m in split_marks(stripped)[2] if m]


def test_word_timings_survive_the_reader_and_the_augmenter(nlp, tmp_path):
    import random

    from spacy_punct.training.augment import create_asr_noise_augmenter

    doc = nlp("So, how was it? Fine.")
    for token in doc:
        token._.start_time, token._.end_time = token.i * 1.0, token.i + 0.5
    path = tmp_path / "timed.spacy"
    DocBin(docs=[doc], store_user_data=True).to_disk(path)
    (example,) = PunctCorpus(path, max_length=0)(nlp)
    assert [(t.text, t._.start_time) for t in example.predicted] == [
        ("so", 0.0),
        ("how", 2.0),
        ("was", 3.0),
        ("it", 4.0),
        ("fine", 6.0),
    ]
    assert [t._.end_time for t in example.reference] == [0.5, 2.5, 3.5, 4.5, 6.5]
    random.seed(3)
    (noisy,) = create_asr_noise_augmenter(level=0.5)(nlp, example)
    kept = [(t.text, t._.start_time) for t in noisy.predicted if t.text != "[UNK]"]
    assert kept and all(
        start == dict([("so", 0.0), ("how", 2.0), ("was", 3.0), ("it", 4.0), ("fine", 6.0)])[text]
        for text, start in kept
    )
    assert [t._.start_time for t in noisy.reference] == [t._.start_time for t in noisy.predicted]


def test_lookahead_chunks_read_context_without_gold(nlp, corpus_path):
    from spacy_punct.align import gold_classes
    from spacy_punct.labels import LabelSet
    from spacy_punct.scorer import score_punctuation

    label_set = LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])
    plain = list(PunctCorpus(corpus_path, max_length=4)(nlp))
    edged = list(PunctCorpus(corpus_path, max_length=4, lookahead=[2, 2])(nlp))
    assert len(plain) == len(edged)
    labelled = 0
    for a, b in zip(plain, edged):
        assert b.predicted.text.startswith(a.predicted.text)
        gold = gold_classes(b, label_set)
        n_context = len(b.predicted) - len(a.predicted)
        assert n_context <= 2 and all(g == -1 for g in gold[len(gold) - n_context :])
        assert gold[: len(a.predicted)] == gold_classes(a, label_set)
        labelled += sum(g >= 0 for g in gold)
    assert labelled == sum(len(eg.predicted) for eg in plain)  # every word learned once
    # the scorer leaves the context words out: a perfect guess scores 1.0
    for eg in edged:
        eg.predicted = eg.reference.copy()
        for token in eg.predicted:
            token._.punct = token._.punct or ""
    assert score_punctuation(edged)["punct_f"] == 1.0
    with pytest.raises(ValueError, match="lookahead"):
        PunctCorpus(corpus_path, lookahead=[3, 1])


def test_short_texts_are_whole_sentences_and_lose_no_word(nlp, corpus_path):
    whole = _words(PunctCorpus(corpus_path, max_length=0)(nlp))
    examples = list(PunctCorpus(corpus_path, max_length=30, short_share=1.0, seed=3)(nlp))
    assert _words(examples) == whole
    assert len(examples) > len(list(PunctCorpus(corpus_path, max_length=30)(nlp)))
    for eg in examples:
        marks = [t._.punct for t in eg.reference]
        inner_ends = [m for m in marks[:-1] if m in (".", "?", "!")]
        assert len(inner_ends) <= 2  # one to three sentences
        if marks[-1] in (".", "?", "!"):
            assert not eg.predicted._.open_end


def test_short_share_zero_reads_as_before_and_bad_shares_fail(nlp, corpus_path):
    plain = _chunk_texts(PunctCorpus(corpus_path, max_length=5, random_chunks=True, seed=2)(nlp))
    assert (
        _chunk_texts(PunctCorpus(corpus_path, max_length=5, random_chunks=True, seed=2, short_share=0.0)(nlp)) == plain
    )
    with pytest.raises(ValueError):
        PunctCorpus(corpus_path, short_share=1.5)


def _built(examples):
    return [
        (eg.predicted.text, eg.reference.text, [t._.punct for t in eg.reference], eg.predicted._.open_end)
        for eg in examples
    ]


def test_a_records_augmenter_gets_the_words_as_read_and_builds_each_example_once(nlp, corpus_path, monkeypatch):
    """The reader hands the package's augmenters the records it read: the same
    examples as through spaCy's augmenter call, each built once."""
    import random

    from spacy_punct.training import augment, corpus
    from spacy_punct.training.augment import (
        create_chained_augmenters,
        create_sentence_shuffle_augmenter,
        create_tag_question_augmenter,
    )

    chain = create_chained_augmenters(
        create_tag_question_augmenter(repeat=2),
        create_sentence_shuffle_augmenter(share=1.0),
        create_asr_noise_augmenter(level=0.3),
    )
    builds = []
    for module in (augment, corpus):
        monkeypatch.setattr(
            module,
            "make_example",
            lambda vocab, records, make=module.make_example: builds.append(1) or make(vocab, records),
        )

    def read(augmenter):
        builds.clear()
        random.seed(4)
        reader = PunctCorpus(
            corpus_path, max_length=9, random_chunks=True, shuffle=True, short_share=0.3, seed=1, augmenter=augmenter
        )
        return _built(reader(nlp))

    as_read = read(chain)
    assert len(builds) == len(as_read)
    through_examples = read(lambda nlp, example: chain(nlp, example))  # spaCy's call: built, read back, built again
    assert len(builds) > len(as_read)
    assert as_read == through_examples
    assert any("[UNK]" in text for text, *_ in as_read)
