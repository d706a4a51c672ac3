import random

import pytest

from spacy.util import registry

from spacy_punct.training.augment import (
    create_asr_noise_augmenter,
    create_case_noise_augmenter,
    create_repair_input_augmenter,
    create_sentence_shuffle_augmenter,
)
from spacy_punct.align import gold_classes
from spacy_punct.labels import LabelSet
from spacy_punct.training.corpus import PunctCorpus
from spacy_punct.word_records import example_records, make_example, word_records


def test_asr_noise_changes_words_and_keeps_alignment(nlp, corpus_path):
    random.seed(0)
    augment = create_asr_noise_augmenter(level=0.5, substitute=0.4, delete=0.3)
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    noisy = [out for eg in examples for out in augment(nlp, eg)]
    assert len(noisy) == len(examples)
    texts = " ".join(eg.predicted.text for eg in noisy)
    assert "[UNK]" in texts
    assert texts != " ".join(eg.predicted.text for eg in examples)
    for eg in noisy:
        assert eg.alignment.x2y.lengths.tolist() == [1] * len(eg.predicted)
        assert eg.predicted.text.lower().split() == eg.reference.text.lower().split()
    # deleted words hand their mark on: no sentence end is lost except at a doc start
    n_final = sum(t._.punct in ".?" for eg in examples for t in eg.reference)
    assert sum(t._.punct in ".?" for eg in noisy for t in eg.reference) >= n_final - len(examples)


def test_asr_noise_with_real_words(nlp, corpus_path):
    """unknown_share=0: every replacing or inserted word is another word of the
    same text; the gold marks stay aligned."""
    random.seed(0)
    augment = create_asr_noise_augmenter(level=0.5, unknown_share=0.0)
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    noisy = [out for eg in examples for out in augment(nlp, eg)]
    for eg, out in zip(examples, noisy):
        assert "[UNK]" not in out.predicted.text
        assert {t.text for t in out.predicted} <= {t.text for t in eg.predicted}
        assert [t.text for t in out.predicted] != [t.text for t in eg.predicted]
        assert out.predicted.text.lower().split() == out.reference.text.lower().split()
    random.seed(0)
    mixed = create_asr_noise_augmenter(level=0.5, unknown_share=0.5)
    texts = " ".join(out.predicted.text for eg in examples for out in mixed(nlp, eg))
    assert "[UNK]" in texts


def test_asr_noise_placeholder_only_draws_as_before(nlp, corpus_path):
    """unknown_share=1 (the default) draws no extra random numbers: a seeded
    run gives the same noise with the option given or not."""
    eg = next(iter(PunctCorpus(corpus_path, max_length=0)(nlp)))
    random.seed(3)
    (default,) = create_asr_noise_augmenter(level=0.5)(nlp, eg)
    after_default = random.random()
    random.seed(3)
    (explicit,) = create_asr_noise_augmenter(level=0.5, unknown_share=1.0)(nlp, eg)
    assert explicit.predicted.text == default.predicted.text and random.random() == after_default


def test_asr_noise_level_zero_is_identity(nlp, corpus_path):
    augment = create_asr_noise_augmenter(level=0.0)
    eg = next(iter(PunctCorpus(corpus_path, max_length=0)(nlp)))
    assert list(augment(nlp, eg)) == [eg]


def test_asr_noise_rejects_bad_rates():
    with pytest.raises(ValueError):
        create_asr_noise_augmenter(level=1.5)
    with pytest.raises(ValueError):
        create_asr_noise_augmenter(substitute=0.7, delete=0.7)
    with pytest.raises(ValueError):
        create_asr_noise_augmenter(unknown_share=1.5)


def _case_noise(nlp, examples, **rates):
    random.seed(0)
    augment = create_case_noise_augmenter(**{"upper": 0.0, "title": 0.0, "natural": 0.0, **rates})
    return [out for eg in examples for out in augment(nlp, eg)]


def test_case_noise_changes_only_the_case_the_model_sees(nlp, corpus_path):
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    assert all(eg.predicted.text == eg.predicted.text.lower() for eg in examples)
    upper = _case_noise(nlp, examples, upper=1.0)
    title = _case_noise(nlp, examples, title=1.0)
    natural = _case_noise(nlp, examples, natural=1.0)
    for original, *augmented in zip(examples, upper, title, natural):
        for eg in augmented:
            assert eg.predicted.text.lower() == original.predicted.text
            assert [(t.text, t._.punct) for t in eg.reference] == [(t.text, t._.punct) for t in original.reference]
            assert eg.alignment.x2y.lengths.tolist() == [1] * len(eg.predicted)
    assert upper[0].predicted.text == upper[0].predicted.text.upper() != upper[0].predicted.text.lower()
    assert all(t.text[:1] == t.text[:1].upper() for eg in title for t in eg.predicted)
    assert [t.text for t in natural[0].predicted] == [t.text for t in examples[0].reference]


def test_case_noise_keeps_words_whose_capitals_change_their_letters(nlp):
    from spacy_punct.word_records import WordRecord, make_example

    eg = make_example(nlp.vocab, [WordRecord("Straße", "straße", True, ""), WordRecord("zu", "zu", False, ".")])
    [out] = _case_noise(nlp, [eg], upper=1.0)
    assert [t.text for t in out.predicted] == ["straße", "ZU"]


def test_case_noise_rate_zero_is_identity_and_bad_rates_fail(nlp, corpus_path):
    eg = next(iter(PunctCorpus(corpus_path, max_length=0)(nlp)))
    assert _case_noise(nlp, [eg]) == [eg]
    with pytest.raises(ValueError):
        create_case_noise_augmenter(upper=0.6, natural=0.6)
    with pytest.raises(ValueError):
        create_case_noise_augmenter(title=-0.1)


def test_chained_augmenters_apply_each_in_turn(nlp, corpus_path):
    config = {
        "@augmenters": "spacy_punct.chained_augmenters.v1",
        "*": {
            "noise": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.5},
            "case": {"@augmenters": "spacy_punct.case_noise.v1", "upper": 1.0, "title": 0.0, "natural": 0.0},
        },
    }
    augment = registry.resolve({"augmenter": config})["augmenter"]
    random.seed(0)
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    out = [aug for eg in examples for aug in augment(nlp, eg)]
    assert len(out) == len(examples)
    text = " ".join(eg.predicted.text for eg in out)
    assert "[UNK]" in text and text == text.upper()


def _sentences(example):
    """The example's sentences as (word, mark) tuples, in order."""
    sentences = [[]]
    for record in example_records(example):
        sentences[-1].append((record.text, record.seen, record.mark))
        if record.mark in (".", "?", "!"):
            sentences.append([])
    return [tuple(sentence) for sentence in sentences]


def test_sentence_shuffle_moves_whole_sentences_and_keeps_the_cut_ones_in_place(nlp):
    text = "well, it was cut. One two? Three, four. Five six! Seven. and the rest"
    records = word_records(nlp(text), lowercase=True)
    example = make_example(nlp.vocab, records)
    augment = create_sentence_shuffle_augmenter(share=1.0)
    before = _sentences(example)
    orders = set()
    for seed in range(20):
        random.seed(seed)
        (out,) = augment(nlp, example)
        after = _sentences(out)
        assert after[0] == before[0] and after[-1] == before[-1]
        assert sorted(after[1:-1]) == sorted(before[1:-1])
        assert out.predicted.text.split() == [w for s in after for (_, w, _) in s]
        assert not out.predicted[-1].whitespace_
        assert all(token.whitespace_ for token in out.predicted[:-1])
        orders.add(tuple(after))
    assert len(orders) > 1


def test_sentence_shuffle_leaves_short_examples_and_share_zero_alone(nlp, corpus_path):
    augment = create_sentence_shuffle_augmenter(share=1.0)
    example = make_example(nlp.vocab, word_records(nlp("only one sentence. and a cut one"), lowercase=True))
    assert list(augment(nlp, example)) == [example]
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    assert [out for eg in examples for out in create_sentence_shuffle_augmenter(share=0.0)(nlp, eg)] == examples
    with pytest.raises(ValueError):
        create_sentence_shuffle_augmenter(share=1.5)


def test_tag_questions_are_repeated_as_texts_of_their_own(nlp):
    from spacy_punct.training.augment import create_tag_question_augmenter

    text = (
        "we met at noon. It's cold in here, isn't it? She said so. "
        "You know the way, do n't you? Yes. Is that right? We left, right? ok"
    )
    doc = nlp.make_doc(text)
    records = [r for r in word_records(doc)]
    example = make_example(nlp.vocab, records)
    random.seed(0)
    out = list(create_tag_question_augmenter(repeat=2, with_next=0.0)(nlp, example))
    assert out[0] is example
    repeats = [_written(eg) for eg in out[1:]]
    assert repeats == ["It's cold in here, isn't it?"] * 2 + ["You know the way, do n't you?"] * 2
    # a question without a tag is not repeated, nor `, right?`, nor a sentence the chunk may have cut
    assert not any("Is that right" in text for text in repeats)
    for eg in out[1:]:
        assert eg.predicted.text.lower() == eg.reference.text.lower()


def _written(example):
    """The example's gold text, marks written after their words."""
    return "".join(r.text + (r.mark or "") + (" " if r.space else "") for r in example_records(example)).strip()


def test_tag_questions_with_the_next_sentence_and_bad_settings(nlp):
    from spacy_punct.training.augment import create_tag_question_augmenter

    doc = nlp.make_doc("It's cold in here, isn't it? She said so.")
    example = make_example(nlp.vocab, word_records(doc))
    out = list(create_tag_question_augmenter(repeat=1, with_next=1.0)(nlp, example))
    assert [_written(eg) for eg in out[1:]] == ["It's cold in here, isn't it? She said so."]
    assert list(create_tag_question_augmenter(repeat=0)(nlp, example)) == [example]
    with pytest.raises(ValueError):
        create_tag_question_augmenter(repeat=-1)
    with pytest.raises(ValueError):
        create_tag_question_augmenter(with_next=1.5)


def test_questions_are_repeated_with_or_without_the_next_sentence(nlp):
    from spacy_punct.training.augment import create_question_augmenter

    doc = nlp.make_doc("we met at noon. Where are you? Here. Is that right? Yes. ok")
    example = make_example(nlp.vocab, word_records(doc))
    random.seed(0)
    out = list(create_question_augmenter(repeat=1, with_next=0.0)(nlp, example))
    assert out[0] is example
    assert [_written(eg) for eg in out[1:]] == ["Where are you?", "Is that right?"]
    out = list(create_question_augmenter(repeat=1, with_next=1.0)(nlp, example))
    assert [_written(eg) for eg in out[1:]] == ["Where are you? Here.", "Is that right? Yes."]
    assert list(create_question_augmenter(repeat=0)(nlp, example)) == [example]


def test_repair_input_keeps_the_marks_of_some_runs_as_tokens_and_the_gold_of_every_word(nlp):
    """The damaged input: runs keep their marks (tokens of the input) and
    case, the others lose both; the gold classes are every word's, whatever
    the input shows."""
    random.seed(1)
    text = "So how was it? It was long, but fine. We saw the Coast. Then we left. Did you? Yes, we did."
    example = make_example(nlp.vocab, word_records(nlp.make_doc(text)))
    label_set = LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])
    augment = create_repair_input_augmenter(share=1.0, max_sentences=1, lower_all=0.0)
    outs = [out for _ in range(20) for out in augment(nlp, example)]
    assert len(outs) == 20
    gold = gold_classes(example, label_set)
    kept = set()
    for out in outs:
        marks = [t.text for t in out.predicted if t.is_punct]
        kept.update(marks)
        assert 0 < len(marks) < 8  # alternate runs: some sentences keep their marks, some lose them
        assert [g for g in gold_classes(out, label_set) if g >= 0] == gold
        assert (
            out.predicted.text.lower().replace(",", "").replace(".", "").replace("?", "").split()
            == text.lower().replace(",", "").replace(".", "").replace("?", "").split()
        )
    assert kept == {",", ".", "?"}
    assert any("Coast" in out.predicted.text for out in outs) and any("coast" in out.predicted.text for out in outs)


def test_repair_input_leaves_a_share_alone_and_rejects_bad_settings(nlp):
    random.seed(0)
    example = make_example(nlp.vocab, word_records(nlp.make_doc("One. Two, three. Four?")))
    assert [out is example for out in create_repair_input_augmenter(share=0.0)(nlp, example)] == [True]
    with pytest.raises(ValueError, match="share"):
        create_repair_input_augmenter(share=1.5)
    with pytest.raises(ValueError, match="max_sentences"):
        create_repair_input_augmenter(max_sentences=0)


def test_repair_input_carries_the_words_attributes_onto_the_new_input(nlp):
    random.seed(3)
    records = word_records(nlp.make_doc("Is it late? No, it is early. We can stay. Can we?"))
    for i, record in enumerate(records):
        record.extra = {"teacher_probs": [float(i), 0.0, 0.0, 0.0]}
    example = make_example(nlp.vocab, records)
    out = next(create_repair_input_augmenter(share=1.0, max_sentences=1, lower_all=0.0)(nlp, example))
    assert any(t.is_punct for t in out.predicted)
    carried = [t._.teacher_probs[0] for t in out.predicted if not t.is_punct]
    assert carried == [float(i) for i in range(len(records))]
    assert all(t._.teacher_probs is None for t in out.predicted if t.is_punct)
