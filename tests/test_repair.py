import random

import numpy
import spacy

from spacy_punct.labels import DEFAULT_LABELS, LabelSet
from spacy_punct.repair import (
    case_missing,
    damaged_doc,
    damaged_text,
    missing_stretches,
    n_features,
    repair_features,
    repaired_probs,
    slot_records,
)
from spacy_punct.word_records import word_records
from spacy_punct.words import mark_slots, token_table

TEXT = "So, how was the trip? It was long, but we saw the coast. Did you swim? No. It was cold - too cold."


def _records(text=TEXT):
    nlp = spacy.blank("en")
    return nlp, word_records(nlp(text))


def test_nothing_stripped_is_the_text_as_written_and_everything_stripped_is_bare():
    _, records = _records()
    kept = damaged_text(records, random.Random(0), strip_none=1.0)
    assert kept.text == TEXT and not any(kept.stripped)
    bare = damaged_text(records, random.Random(0), strip_all=1.0)
    assert bare.text == "so how was the trip it was long but we saw the coast did you swim no it was cold too cold"
    assert all(bare.stripped)
    for text in (kept, bare):  # each word found where its offsets say
        assert [text.text[s:e].lower() for s, e in zip(text.starts, text.ends)] == [r.text.lower() for r in records]


def test_the_damaged_doc_has_the_records_words_and_each_kept_mark_after_its_word():
    nlp, records = _records("We met the [UNK] of U.S. firms, in non-stop talks. Then - we left.")
    for seed in range(6):
        damaged = damaged_text(records, random.Random(seed))
        doc = damaged_doc(nlp.vocab, records, damaged)
        assert doc.text == damaged.text
        words = [t.text for t in doc if not t.is_punct]
        assert [w.lower() for w in words] == [r.text.lower() for r in records]
        marks = [t.text for t in doc if t.is_punct]
        assert marks == [r.mark for r, stripped in zip(records, damaged.stripped) if r.mark and not stripped]


def test_runs_of_whole_sentences_lose_marks_and_case_together():
    _, records = _records(" ".join([TEXT] * 6))
    damaged = damaged_text(records, random.Random(3))
    assert 0.2 < sum(damaged.stripped) / len(records) < 0.8
    for record, flag, start, end in zip(records, damaged.stripped, damaged.starts, damaged.ends):
        written = damaged.text[start:end]
        assert written == (record.text.lower() if flag else record.text)
    # a sentence is stripped or kept whole: a stripped word's sentence has no intact word
    marks = [r.mark for r in records]
    from spacy_punct.words import sentence_spans

    for start, end in sentence_spans(marks):
        assert len(set(damaged.stripped[start:end])) == 1
    lowered = damaged_text(records, random.Random(3), lower_all=1.0)
    assert lowered.text == lowered.text.lower() and "." in lowered.text


def test_run_edges_within_sentences_leave_each_sentence_an_intact_word():
    _, records = _records(" ".join([TEXT] * 6))
    from spacy_punct.words import sentence_spans

    spans = sentence_spans([r.mark for r in records])
    whole = damaged_text(records, random.Random(3), within=0.0)
    assert whole == damaged_text(records, random.Random(3))  # no draws without edges within
    inside = 0
    for seed in range(5):
        damaged = damaged_text(records, random.Random(seed), within=1.0)
        for record, flag, start, end in zip(records, damaged.stripped, damaged.starts, damaged.ends):
            assert damaged.text[start:end] == (record.text.lower() if flag else record.text)
        for start, end in spans:
            flags = damaged.stripped[start:end]
            if len(set(flags)) == 2:  # an edge inside: the sentence's intact words are one stretch
                inside += 1
                intact = [k for k, flag in enumerate(flags) if not flag]
                assert intact == list(range(intact[0], intact[-1] + 1))
    assert inside > 5


def test_slots_find_their_words_and_features_read_marks_and_case():
    nlp, records = _records()
    damaged = damaged_text(records, random.Random(0), strip_none=1.0)
    doc = nlp.make_doc(damaged.text)
    table, slots = token_table(doc), mark_slots(doc)
    assert slot_records(table, slots, damaged.ends) == list(range(len(records)))
    label_set = LabelSet(DEFAULT_LABELS)
    probs = numpy.full((len(doc), len(label_set)), 0.25, dtype="f")
    rows = repair_features(table, slots, probs, label_set)
    assert rows.shape == (len(records), n_features(label_set))
    n = len(label_set)
    assert rows[0, n + label_set.index("COMMA")] == 1.0  # `So,`
    assert rows[0, 2 * n + 1 + 1] == 1.0  # `So`: a capital first
    assert rows[1, n:].tolist()[: n + 1] == [0.0] * (n + 1)  # `how`: no mark
    flags = 2 * n + 1 + 4
    assert rows[:, flags : flags + 2].tolist() == [[1.0, 1.0]] * len(records)  # the text has capitals and marks
    # `So, how was the trip?`: `how` is 1 slot after `So,` and 3 before `trip?`
    gaps = numpy.expm1(rows[:, flags + 2 :] * numpy.log(64))
    assert numpy.allclose(gaps[1], [1, 3, 4], atol=1e-3) and numpy.allclose(gaps[0], [1, 0, 1], atol=1e-3)


def test_the_head_corrects_the_punctuators_probabilities():
    features = numpy.zeros((2, 11), dtype="f")
    features[:, :4] = [[0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]]
    scores = numpy.zeros((2, 5), dtype="f")
    assert numpy.allclose(repaired_probs(features, scores), features[:, :4], atol=1e-4)
    scores[1, 2] = 5.0
    assert repaired_probs(features, scores)[1].argmax() == 2


def test_missing_stretches_are_long_runs_without_a_mark():
    nlp = spacy.blank("en")
    long_run = " ".join(["word"] * 30)
    doc = nlp.make_doc(f"It was fine. {long_run} Then, we left.")
    slots = mark_slots(doc)
    missing = missing_stretches(slots, min_run=25)
    assert {doc[i].text for i in missing} == {"word"} and len(missing) == 30
    assert missing_stretches(mark_slots(nlp.make_doc("so how was it"))) == {0, 1, 2, 3}  # no mark at all


def test_case_is_missing_in_a_run_that_lost_a_mark_whatever_its_first_capital():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("It was long. Did you stay in lisbon the whole time no we drove down to lagos")
    table, slots = token_table(doc), mark_slots(doc)
    time_ = [t.i for t in doc if t.text == "time"][0]
    missing = case_missing(table, slots, stripped={time_}, min_run=100)
    assert {doc[i].text for i in missing} == {t.text for t in doc[4:]}  # `Did` to `lagos`
    assert case_missing(table, slots, stripped=set(), min_run=100) == set()  # nothing lost: case kept


def test_case_is_missing_in_a_long_run_lower_case_after_its_first_word():
    nlp = spacy.blank("en")
    lower = nlp.make_doc("It was long. Did you stay in lisbon the whole time no we drove down to lagos")
    cased = nlp.make_doc("It was long. Did you stay in Lisbon the whole time no we drove down to Lagos")
    for doc, expected in ((lower, 14), (cased, 0)):
        missing = case_missing(token_table(doc), mark_slots(doc), stripped=set(), min_run=12)
        assert len(missing) == expected
    short = nlp.make_doc("It was long. Did you stay in lisbon")  # five words: too few to tell
    assert case_missing(token_table(short), mark_slots(short), stripped=set(), min_run=12) == set()
