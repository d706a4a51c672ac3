import pytest
import spacy

from spacy_punct.align import marks_after, punct_flags
from spacy_punct.casing import capitalise
from spacy_punct.labels import DEFAULT_LABELS, LabelSet, is_mark, labels_for_marks, validate_labels, written_label


def label_for_mark(mark, labels):
    return LabelSet(labels).label_of(mark)


@pytest.mark.parametrize(
    "text,spaced,label",
    [
        (",", False, "COMMA"),
        (".", False, "PERIOD"),
        ("?", False, "QUESTION"),
        ("!", False, "EXCLAMATION"),
        (";", False, "SEMICOLON"),
        (":", False, "COLON"),
        ("...", False, "ELLIPSIS"),
        ('"', False, "COMMA"),
        ("।", False, "PERIOD"),
        ("—", False, "DASH"),
        ("-", True, "DASH"),
        ("-", False, None),
        ("(", False, None),
        ("?!", False, "QUESTION"),
        ("word", False, None),
        ("%", False, None),
    ],
)
def test_written_label(text, spaced, label):
    assert written_label(text, spaced) == label


def test_is_mark():
    assert is_mark(",") and is_mark("?!") and is_mark("।")
    assert not is_mark("%") and not is_mark("n't") and not is_mark("") and not is_mark("3.5")


def test_label_for_mark_falls_back_within_the_label_set():
    assert label_for_mark("!", DEFAULT_LABELS) == "PERIOD"
    assert label_for_mark(";", DEFAULT_LABELS) == "PERIOD"
    assert label_for_mark(":", DEFAULT_LABELS) == "COMMA"
    assert label_for_mark("-", DEFAULT_LABELS) == "COMMA"
    assert label_for_mark("!", ["EMPTY", "PERIOD", "EXCLAMATION"]) == "EXCLAMATION"
    assert label_for_mark(",", ["EMPTY", "PERIOD"]) == "EMPTY"
    assert label_for_mark("", DEFAULT_LABELS) == "EMPTY"


def test_validate_labels():
    assert validate_labels(["COMMA", "EMPTY", "PERIOD"]) == ["EMPTY", "COMMA", "PERIOD"]
    assert validate_labels(["PERIOD"]) == ["EMPTY", "PERIOD"]
    with pytest.raises(ValueError, match="Unknown punctuation label"):
        validate_labels(["EMPTY", "TILDE"])
    with pytest.raises(ValueError, match="Duplicate"):
        validate_labels(["COMMA", "COMMA"])


def test_labels_for_marks():
    assert labels_for_marks({",", ".", "?", ""}) == list(DEFAULT_LABELS)
    assert labels_for_marks({"!", ","}) == ["EMPTY", "COMMA", "EXCLAMATION"]


def test_marks_after():
    nlp = spacy.blank("en")
    doc = nlp('"Well," she said - it\'s a co-pilot?! Yes.')
    marks = dict(zip([t.text for t in doc], marks_after(doc)))
    assert marks["Well"] == ","
    assert marks["said"] == "-"
    assert marks["co"] == ""
    assert marks["pilot"] == "?"
    assert marks["Yes"] == "."


def test_capitalise():
    assert capitalise("hello") == "Hello"
    assert capitalise("ßa") == "ßa"
    assert capitalise("") == ""


def test_punct_flags_follow_part_of_speech_when_present(nlp):
    from spacy.tokens import Doc

    doc = Doc(nlp.vocab, words=["mistakes", "--", ".", "so"])
    assert punct_flags(doc) == [False, True, True, False]
    assert marks_after(doc)[0] == "."
    doc = Doc(nlp.vocab, words=["mistakes", "--", ".", "so"], pos=["X", "X", "PUNCT", "X"])
    assert punct_flags(doc) == [False, False, True, False]
    assert marks_after(doc)[:2] == ["", "."]
