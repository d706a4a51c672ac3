import pytest
import spacy
from spacy.training import Example

from spacy_punct.align import doc_classes, gold_classes, mark_slots, marks_after, punct_flags, word_offsets
from spacy_punct.labels import DEFAULT_LABELS, LabelSet

from .conftest import gold

LABELS = LabelSet(DEFAULT_LABELS)


def test_marks_after():
    nlp = spacy.blank("en")
    doc = nlp('"Well," she said - it\'s a co-pilot?! Yes.')
    marks = dict(zip([t.text for t in doc], marks_after(doc)))
    assert marks["Well"] == ","
    assert marks["said"] == "-"
    assert marks["co"] == ""
    assert marks["pilot"] == "?"
    assert marks["Yes"] == "."


def test_punct_flags_follow_part_of_speech_when_present(nlp):
    from spacy.tokens import Doc

    doc = Doc(nlp.vocab, words=["mistakes", "--", ".", "so"])
    assert punct_flags(doc) == [False, True, True, False]
    assert marks_after(doc)[0] == "."
    doc = Doc(nlp.vocab, words=["mistakes", "--", ".", "so"], pos=["X", "X", "PUNCT", "X"])
    assert punct_flags(doc) == [False, False, True, False]
    assert marks_after(doc)[:2] == ["", "."]


def test_word_offsets_ignore_case_spaces_and_punctuation(nlp):
    a = word_offsets(nlp("So, how  was it?"))
    b = word_offsets(nlp("so how was it"))
    assert a[0] == b[0] == "sohowwasit"
    assert a[1] == [2, None, 5, None, 8, 10, None]  # the double space is a token


def test_gold_classes_per_predicted_token(nlp):
    reference = gold(nlp.vocab, ["So", "how", "was", "it"], [",", "", "", "?"])
    predicted = nlp("so how was it")
    assert gold_classes(Example(predicted, reference), LABELS) == [1, 0, 0, 3]
    predicted = nlp("so , how was it ?")
    assert gold_classes(Example(predicted, reference), LABELS) == [1, -1, 0, 0, 3, -1]
    with pytest.raises(ValueError, match="different words"):
        gold_classes(Example(nlp("so how is it"), reference), LABELS)


def test_doc_classes(nlp):
    doc = nlp("a b c")
    for token, mark in zip(doc, [",", "!", ""]):
        token._.punct = mark
    assert doc_classes(doc, LABELS) == ("abc", {1: 1, 2: 2})


def _slots(nlp, text):
    doc = nlp(text)
    slots = mark_slots(doc)
    return doc, slots, {doc[i].text: i for i in slots.words}


def test_slots_are_words_before_whitespace(nlp):
    doc, slots, words = _slots(nlp, "a start-up, win-win c:/users/me/doc.txt and don't")
    assert list(words) == ["a", "up", "win", "doc.txt", "and", "n't"]
    assert [doc[i].text for i in slots.written[words["up"]]] == [","] and slots.existing[words["up"]] == ","
    # the first "win" is written together with the second: only the last is a slot
    assert words["win"] == [t.text for t in doc].index("win", 6)


def test_slot_existing_marks_and_anchor(nlp):
    doc, slots, words = _slots(nlp, 'he said "hello" (maybe). ok ?! fine , yes')
    assert words["said"] not in slots.existing  # quotes are never replaced
    # a mark after "hello" goes after its closing quote
    assert words["hello"] not in slots.existing and slots.anchor(words["hello"]) == words["hello"] + 1
    assert doc[slots.anchor(words["maybe"])].text == ")" and slots.existing[words["maybe"]] == "."
    assert slots.existing[words["ok"]] == "?" and len(slots.written[words["ok"]]) == 2
    assert slots.standing == {words["ok"]}  # a run standing alone: kept as written
    assert slots.existing[words["fine"]] == ","


def test_abbreviation_periods_are_not_replaceable(nlp):
    doc, slots, words = _slots(nlp, "dr. smith and the u.s. army etc. the end.")
    dr = words["dr"]
    assert dr in slots.abbreviations and dr not in slots.existing and doc[slots.anchor(dr)].text == "."
    assert words["u.s"] in slots.abbreviations and words["etc"] in slots.abbreviations
    assert words["end"] not in slots.abbreviations and slots.existing[words["end"]] == "."


def test_a_natural_punctuated_reference_gives_its_marks(nlp):
    """spaCy's natural data form, Example(make_doc(bare), make_doc(punctuated)),
    trained on gold that was all EMPTY."""
    from spacy.training import Example

    from spacy_punct.align import gold_classes
    from spacy_punct.labels import LabelSet

    labels = LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])
    example = Example(nlp.make_doc("so how was the trip it was long"), nlp.make_doc("So, how was the trip? It was long."))
    assert gold_classes(example, labels) == [1, 0, 0, 0, 3, 0, 0, 2]
