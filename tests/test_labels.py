import pytest

from spacy_punct.labels import (
    DEFAULT_LABELS,
    LabelSet,
    is_mark,
    is_unread_mark,
    labels_for_marks,
    validate_labels,
    written_label,
)


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


def test_label_set_maps_marks_classes_and_indices():
    label_set = LabelSet(["COMMA", "PERIOD", "QUESTION"])
    assert label_set.labels == DEFAULT_LABELS and len(label_set) == 4
    assert label_set.index("PERIOD") == 2 and label_set.mark(2) == "." and label_set.mark(0) == ""
    assert label_set.class_of("!") == 2 and label_set.class_of(None) == 0 and label_set.class_of("~") == 0
    assert label_set.final_mask.tolist() == [False, False, True, True]
    assert label_set.punctuation == ("COMMA", "PERIOD", "QUESTION")
    assert label_set == LabelSet(DEFAULT_LABELS) != LabelSet(["PERIOD"])
    with pytest.raises(ValueError, match="not in the label set"):
        label_set.index("COLON")
    with pytest.raises(ValueError, match="Thresholds given for unknown labels"):
        label_set.check_known({"COLON": 0.5}, "Thresholds")


def test_sentence_ends_by_the_written_mark():
    from spacy_punct.labels import ends_sentence

    assert ends_sentence(".") and ends_sentence("?") and ends_sentence("!")
    assert not ends_sentence(";") and not ends_sentence(",") and not ends_sentence("")
    # ";" counts as PERIOD in the default label set, but ends no sentence
    assert LabelSet(DEFAULT_LABELS).label_of(";") == "PERIOD"


def test_replaceable_marks():
    from spacy_punct.labels import is_replaceable

    assert is_replaceable(",") and is_replaceable("?!") and is_replaceable("...") and is_replaceable("।")
    assert not is_replaceable('"') and not is_replaceable("-") and not is_replaceable("—") and not is_replaceable(")")


def test_unread_marks_are_those_the_training_reader_never_leaves():
    for text in [",", ".", "?!", "...", "…", '"', "“", "(", "]", "।", ";"]:
        assert is_unread_mark(text), text
    # dashes, slashes and apostrophes can stand as words in the training text
    for text in ["-", "--", "–", "/", "'", "’", "dr.", "u.s", "a", ""]:
        assert not is_unread_mark(text), text
