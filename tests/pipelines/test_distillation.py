"""Distillation: the teacher's probabilities on training words, carried by the
reader, mixed into the punctuator's targets."""

import numpy
import pytest
import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.components.word_classifier import teacher_targets
from spacy_punct.pipelines import predict_probs
from spacy_punct.pipelines.distillation import teacher_docs
from spacy_punct.training.corpus import PunctCorpus
from spacy_punct.word_records import read_docbins, word_records

from ..conftest import TEXTS, listener_pipeline, reader_examples, train


def distilled(trained, corpus_path):
    return list(teacher_docs(trained, read_docbins(corpus_path, trained.vocab), batch_size=4))


def test_teacher_probabilities_on_the_words(trained, corpus_path):
    docs = distilled(trained, corpus_path)
    assert [doc.text for doc in docs] == TEXTS  # the text is left as it is
    for doc in docs:
        records = word_records(doc, lowercase=True)
        bare = spacy.tokens.Doc(trained.vocab, words=[r.seen for r in records], spaces=[r.space for r in records])
        ((_, expected),) = predict_probs(trained, [bare])
        words = [t for t in doc if not t.is_punct]
        assert [t._.teacher_probs is None for t in doc] == [t.is_punct for t in doc]
        got = numpy.array(
            [[t._.teacher_probs[label] for label in ("EMPTY", "COMMA", "PERIOD", "QUESTION")] for t in words]
        )
        numpy.testing.assert_allclose(got, expected, atol=1e-4)


def test_an_ensemble_gives_the_mean_of_its_teachers(trained, trained_bytes, corpus_path):
    weaker = listener_pipeline()
    weaker.initialize(lambda: reader_examples(weaker, corpus_path))  # untrained: other probabilities
    docs = list(teacher_docs([trained, weaker], read_docbins(corpus_path, trained.vocab), batch_size=4))
    alone = [distilled(model, corpus_path) for model in (trained, weaker)]
    labels = ("EMPTY", "COMMA", "PERIOD", "QUESTION")
    for doc, first, second in zip(docs, *alone):
        for token, a, b in zip(doc, first, second):
            if token._.teacher_probs is None:
                continue
            mean = [(a._.teacher_probs[label] + b._.teacher_probs[label]) / 2 for label in labels]
            numpy.testing.assert_allclose([token._.teacher_probs[label] for label in labels], mean, atol=2e-4)
    assert any(a._.teacher_probs != b._.teacher_probs for a, b in zip(alone[0][0], alone[1][0]))


def test_teachers_with_other_labels_are_refused(trained, corpus_path):
    other = spacy.blank("en")
    other.add_pipe("punctuator", config={"labels": ["EMPTY", "PERIOD"]})
    other.initialize()
    with pytest.raises(ValueError, match="labels differ"):
        list(teacher_docs([trained, other], read_docbins(corpus_path, trained.vocab)))


def test_the_reader_carries_them_to_both_sides(trained, corpus_path, tmp_path):
    DocBin(docs=distilled(trained, corpus_path), store_user_data=True).to_disk(tmp_path / "taught.spacy")
    examples = list(PunctCorpus(tmp_path / "taught.spacy", max_length=5, random_chunks=True)(trained))
    assert len(examples) > len(TEXTS)
    label_set = trained.get_pipe("punctuator").label_set
    for eg in examples:
        targets = teacher_targets(eg.predicted, label_set)
        assert not numpy.isnan(targets).any()
        numpy.testing.assert_allclose(targets.sum(axis=1), 1.0, atol=1e-3)
        assert all(t._.teacher_probs for t in eg.reference)


def test_distill_weight_mixes_the_teacher_into_the_targets(trained, corpus_path, tmp_path):
    DocBin(docs=distilled(trained, corpus_path), store_user_data=True).to_disk(tmp_path / "taught.spacy")
    examples = reader_examples(trained, tmp_path / "taught.spacy")
    pipe = trained.get_pipe("punctuator")
    teacher = [teacher_targets(eg.predicted, pipe.label_set) for eg in examples]
    uniform = [numpy.full(t.shape, 0.25, dtype="f") for t in teacher]
    n_words = sum(len(t) for t in teacher)
    _, gold_d = pipe.get_loss(examples, uniform)
    pipe.distill_weight = 1.0
    _, taught_d = pipe.get_loss(examples, uniform)
    for d, t, u in zip(taught_d, teacher, uniform):
        numpy.testing.assert_allclose(d * n_words, u - t, atol=1e-5)
    _, own_d = pipe.get_loss(examples, teacher)
    assert max(float(numpy.abs(d).max()) for d in own_d) < 1e-6  # nothing to learn from itself
    pipe.distill_weight = 0.5
    _, half_d = pipe.get_loss(examples, uniform)
    for half, gold, taught in zip(half_d, gold_d, taught_d):
        numpy.testing.assert_allclose(half, (gold + taught) / 2, atol=1e-6)


def test_words_without_teacher_keep_the_gold_target(trained, corpus_path):
    examples = reader_examples(trained, corpus_path)
    pipe = trained.get_pipe("punctuator")
    scores = [numpy.full((len(eg.predicted), 4), 0.25, dtype="f") for eg in examples]
    before = pipe.get_loss(examples, scores)
    pipe.distill_weight = 0.7
    after = pipe.get_loss(examples, scores)
    assert before[0] == pytest.approx(after[0])
    for a, b in zip(before[1], after[1]):
        numpy.testing.assert_array_equal(a, b)


def test_distill_weight_must_be_a_share():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match="distill_weight"):
        nlp.add_pipe("punctuator", config={"distill_weight": 1.5})


def test_a_student_learns_from_the_teacher(trained, corpus_path, tmp_path):
    from ..conftest import listener_pipeline

    DocBin(docs=distilled(trained, corpus_path), store_user_data=True).to_disk(tmp_path / "taught.spacy")
    student = listener_pipeline()
    student.get_pipe("punctuator").distill_weight = 0.5
    examples = reader_examples(student, tmp_path / "taught.spacy")
    train(student, examples, n_iter=60)
    assert student("so how was the trip it was long but we saw the coast").text == TEXTS[0]


def test_distill_command(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "teacher")
    out = tmp_path / "taught.spacy"
    result = CliRunner().invoke(app, ["distill", str(tmp_path / "teacher"), str(corpus_path), str(out)])
    assert result.exit_code == 0, result.output
    assert f"Wrote {len(TEXTS)} docs" in result.output
    docs = list(read_docbins(out, trained.vocab))
    assert all(t._.teacher_probs for doc in docs for t in doc if not t.is_punct)
    result = CliRunner().invoke(app, ["distill", str(tmp_path / "teacher"), str(corpus_path), str(corpus_path)])
    assert result.exit_code == 1 and "is the input" in result.output


def test_distill_into_a_folder_writes_files_of_bounded_size(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "teacher")
    out = tmp_path / "taught"
    n_tokens = sum(len(doc) for doc in read_docbins(corpus_path, trained.vocab))
    args = ["distill", str(tmp_path / "teacher"), str(corpus_path), str(out), "--tokens-per-file", "20"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.spacy"))
    assert len(files) > 1 and f"{len(files)} file(s) in {out}" in result.output
    parts = [list(read_docbins(f, trained.vocab)) for f in files]
    assert all(sum(len(d) for d in part) <= 20 or len(part) == 1 for part in parts)
    docs = [doc for part in parts for doc in part]
    assert [doc.text for doc in docs] == TEXTS and sum(len(d) for d in docs) == n_tokens
    assert all(t._.teacher_probs for doc in docs for t in doc if not t.is_punct)
    # nothing overwritten: a folder that holds .spacy files is refused, its files kept
    before = [f.read_bytes() for f in files]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and "holds the parts of a distill run" in result.output
    assert [f.read_bytes() for f in files] == before


def test_distill_refuses_a_folder_inside_the_input_folder(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "teacher")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "train.spacy").write_bytes(corpus_path.read_bytes())
    result = CliRunner().invoke(app, ["distill", str(tmp_path / "teacher"), str(corpus), str(corpus / "taught")])
    assert result.exit_code == 1 and "inside the input folder" in result.output
    assert not (corpus / "taught").exists()
