import numpy
import pytest
import spacy

from spacy_punct.decode import DecisionSettings as S
from spacy_punct.decode import check_settings, decide, decode, sentence_starts
from spacy_punct.labels import LabelSet
from spacy_punct.words import token_table

LABELS = LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])


def test_decide_with_and_without_thresholds():
    probs = numpy.array([[0.6, 0.3, 0.1, 0.0], [0.15, 0.5, 0.1, 0.25], [0.5, 0.0, 0.1, 0.4]], dtype="f")
    assert decide(probs, LABELS, {}).tolist() == [0, 1, 0]
    # reached: chosen although EMPTY is more probable; not reached: never chosen
    assert decide(probs, LABELS, {"COMMA": 0.25, "QUESTION": 0.35}).tolist() == [1, 1, 3]
    assert decide(probs, LABELS, {"COMMA": 0.9}).tolist() == [0, 3, 0]
    with pytest.raises(ValueError, match="unknown labels"):
        decide(probs, LABELS, {"TILDE": 0.5})


def test_margins_veto_marks_without_a_clear_lead():
    probs = numpy.array([[0.1, 0.5, 0.4, 0.0], [0.1, 0.8, 0.1, 0.0], [0.05, 0.05, 0.45, 0.45]], dtype="f")
    assert decide(probs, LABELS).tolist() == [1, 1, 2]
    # COMMA's relative margin: (0.5 - 0.4) / 0.5 = 0.2 in row 0, (0.8 - 0.1) / 0.8 = 0.875 in row 1
    assert decide(probs, LABELS, margins={"COMMA": 0.19}).tolist() == [1, 1, 2]
    assert decide(probs, LABELS, margins={"COMMA": 0.2}).tolist() == [0, 1, 2]
    assert decide(probs, LABELS, margins={"COMMA": 0.9}).tolist() == [0, 0, 2]
    # a tie never passes a margin
    assert decide(probs, LABELS, margins={"PERIOD": 0.0}).tolist() == [1, 1, 0]
    with pytest.raises(ValueError, match="Margins given for unknown labels"):
        decide(probs, LABELS, margins={"TILDE": 0.5})


def test_thresholds_and_margins_together():
    probs = numpy.array([[0.6, 0.4, 0.0, 0.0]], dtype="f")
    assert decide(probs, LABELS, {"COMMA": 0.3}).tolist() == [1]
    # a threshold picks COMMA below EMPTY; a margin over EMPTY then vetoes it
    assert decide(probs, LABELS, {"COMMA": 0.3}, {"COMMA": 0.0}).tolist() == [0]


def _probs(doc, classes):
    probs = numpy.zeros((len(doc), 4), dtype="f")
    probs[:, 0] = 1.0
    for i, c in classes.items():
        probs[i] = 0.0
        probs[i, c] = 1.0
    return probs


def test_only_mark_slots_take_marks(nlp):
    doc = nlp("a start-up and don't stop")
    decisions = decode(doc, numpy.full((len(doc), 4), [0.0, 0.0, 1.0, 0.0], dtype="f"), LABELS)
    assert [t.text for t in doc] == ["a", "start", "-", "up", "and", "do", "n't", "stop"]
    assert decisions.marks == [".", "", "", ".", ".", "", ".", "."]


def test_existing_marks_kept_or_matched(nlp):
    doc = nlp("wow! so, what")
    # predicted PERIOD after "wow": the existing "!" counts as PERIOD and stays
    probs = _probs(doc, {0: 2, 2: 0, 4: 3})
    assert decode(doc, probs, LABELS).marks == ["!", "", "", "", "?"]
    # predicted EMPTY after "so" replaces the comma; kept with keep_existing
    assert decode(doc, probs, LABELS, S(keep_existing=True)).marks == ["!", "", ",", "", "?"]


def test_marks_the_label_set_cannot_write_stay_where_a_mark_is_predicted(nlp):
    doc = nlp("three things: bread; milk! eggs")
    # PERIOD after "things", COMMA after "bread" and "milk": none of them can write ":" ";" "!"
    probs = _probs(doc, {1: 2, 3: 1, 5: 1})
    assert decode(doc, probs, LABELS).marks == ["", ":", "", ";", "", "!", "", ""]
    # predicted EMPTY: removed, as every mark of the input is
    assert decode(doc, _probs(doc, {}), LABELS).marks == [""] * len(doc)
    # a label set that has COLON writes its own decision there
    five = LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION", "COLON"])
    probs5 = numpy.zeros((len(doc), 5), dtype="f")
    probs5[:, 0] = 1.0
    probs5[1] = [0, 0, 1, 0, 0]
    assert decode(doc, probs5, five).marks[1] == "."


def test_add_marks_off_keeps_the_input_marks_and_adds_none(nlp):
    doc = nlp("wow! so, what is it")
    # predictions that would drop "!" and "," and write "?" and a closing mark
    probs = _probs(doc, {0: 0, 2: 0, 4: 1, 6: 3})
    decisions = decode(doc, probs, LABELS, S(add_marks=False, close_last_sentence=True))
    assert decisions.marks == ["!", "", ",", "", "", "", ""]
    assert [t.text for t in doc if decisions.sent_starts[t.i]] == ["wow", "so"]


def test_sentence_starts(nlp):
    doc = nlp("  so; it is. yes")
    assert [t.text for t in doc] == ["  ", "so", ";", "it", "is", ".", "yes"]
    marks = ["", ";", "", "", ".", "", ""]
    starts = sentence_starts(token_table(doc), marks)
    # whitespace before the first word belongs to the first sentence; ";" ends none
    assert [t.text for t in doc if starts[t.i]] == [doc[0].text, "yes"]


def test_empty_doc(nlp):
    doc = nlp("")
    decisions = decode(doc, numpy.zeros((0, 4), dtype="f"), LABELS)
    assert decisions.marks == [] and decisions.sent_starts == []


def test_close_end_writes_the_likeliest_final_mark(nlp):
    doc = nlp("so how was it")
    probs = numpy.tile(numpy.array([0.9, 0.04, 0.02, 0.04], dtype="f"), (len(doc), 1))
    assert decode(doc, probs, LABELS).marks == ["", "", "", ""]
    assert decode(doc, probs, LABELS, S(close_last_sentence=True)).marks == ["", "", "", "?"]  # QUESTION over PERIOD
    probs[3] = [0.1, 0.6, 0.2, 0.1]  # a comma predicted at the end becomes a full stop
    assert decode(doc, probs, LABELS, S(close_last_sentence=True)).marks == ["", "", "", "."]
    # a mark written at the end stays with keep_existing
    doc = nlp("so how was it,")
    probs = numpy.tile(numpy.array([0.9, 0.04, 0.02, 0.04], dtype="f"), (len(doc), 1))
    marks = decode(doc, probs, LABELS, S(keep_existing=True, close_last_sentence=True)).marks
    assert marks == decode(doc, probs, LABELS, S(keep_existing=True)).marks == ["", "", "", ",", ""]


def test_close_end_keeps_the_texts_own_final_mark(nlp):
    """`it was long.` lost its period where the prediction was EMPTY; `yes;`
    ended with a comma: every text ends a sentence."""
    doc = nlp("so how was the trip it was long.")
    probs = numpy.tile(numpy.array([0.9, 0.04, 0.02, 0.04], dtype="f"), (len(doc), 1))
    assert decode(doc, probs, LABELS, S(close_last_sentence=True)).marks[-2] == "."
    doc = nlp("yes;")
    probs = numpy.array([[0.1, 0.6, 0.2, 0.1], [1.0, 0.0, 0.0, 0.0]], dtype="f")
    assert decode(doc, probs, LABELS, S(close_last_sentence=True)).marks == [".", ""]
    assert decode(doc, probs, LABELS, S(close_last_sentence=True, keep_existing=True)).marks == [";", ""]


@pytest.mark.parametrize("text", ["and then -", "but --", "i think ...", "so we —"])
def test_a_text_broken_off_by_a_dash_or_an_ellipsis_gets_no_period_before_it(nlp, text):
    doc = nlp(text)
    probs = numpy.tile(numpy.array([0.9, 0.04, 0.02, 0.04], dtype="f"), (len(doc), 1))
    marks = decode(doc, probs, LABELS, S(close_last_sentence=True)).marks
    assert set(marks) <= {"", "-"}, marks  # a dash is the word's mark, kept as written
    # a dash inside the text leaves the end to the closing mark
    doc = nlp("we went home -- it was late")
    probs = numpy.tile(numpy.array([0.9, 0.04, 0.02, 0.04], dtype="f"), (len(doc), 1))
    assert decode(doc, probs, LABELS, S(close_last_sentence=True)).marks[-1] == "?"


@pytest.mark.parametrize("text", ["we met dr.", "we use e.g.", "that is i.e."])
def test_an_abbreviations_period_ends_the_text(nlp, text):
    doc = nlp(text)
    probs = numpy.tile(numpy.array([0.1, 0.8, 0.05, 0.05], dtype="f"), (len(doc), 1))  # commas everywhere
    last = max(i for i, t in enumerate(doc) if not t.is_punct)
    for keep_existing in (False, True):
        marks = decode(doc, probs, LABELS, S(close_last_sentence=True, keep_existing=keep_existing)).marks
        assert marks[last] == "."


def test_close_end_respects_thresholds(nlp):
    """--threshold QUESTION=0.99 still gave `?` at the end with p = 0.17."""
    doc = nlp("it was long")
    probs = numpy.tile(numpy.array([0.7, 0.03, 0.1, 0.17], dtype="f"), (len(doc), 1))
    assert decode(doc, probs, LABELS, S(close_last_sentence=True)).marks[-1] == "?"
    assert decode(doc, probs, LABELS, S(close_last_sentence=True, thresholds={"QUESTION": 0.99})).marks[-1] == "."
    # where no final class reaches its threshold, the most probable one closes the text
    both = {"QUESTION": 0.99, "PERIOD": 0.99}
    assert decode(doc, probs, LABELS, S(close_last_sentence=True, thresholds=both)).marks[-1] == "?"


def test_an_end_threshold_decides_the_sentence_end_first():
    probs = numpy.array(
        [
            [0.75, 0.05, 0.05, 0.15],  # an unsure end: a question alone reaching 0.15 wrote `Ma?`
            [0.3, 0.1, 0.3, 0.3],  # a sure end, half of it a question
            [0.3, 0.1, 0.45, 0.15],  # a sure end, a quarter of it a question
            [0.45, 0.35, 0.15, 0.05],  # no end: EMPTY and COMMA decide alone
            [0.4, 0.3, 0.25, 0.05],  # no end, although PERIOD is likelier than COMMA
        ],
        dtype="f",
    )
    assert decide(probs, LABELS, {"QUESTION": 0.15}).tolist() == [3, 3, 3, 0, 0]
    assert decide(probs, LABELS, {"QUESTION": 0.3}, end_threshold=0.55).tolist() == [0, 3, 2, 0, 0]
    # the thresholds and margins read the shares of each group
    assert decide(probs, LABELS, {"QUESTION": 0.3, "COMMA": 0.4}, end_threshold=0.55).tolist() == [0, 3, 2, 1, 1]
    assert decide(probs, LABELS, {"QUESTION": 0.2}, end_threshold=0.55).tolist() == [0, 3, 3, 0, 0]
    # the last row's end (0.3) reaches a lower threshold
    assert decide(probs, LABELS, end_threshold=0.3).tolist() == [0, 2, 2, 0, 2]
    # a text's last word closes with the final class's share reaching its threshold
    doc = spacy.blank("en")("it was long")
    last = numpy.tile(numpy.array([0.8, 0.05, 0.12, 0.03], dtype="f"), (len(doc), 1))
    closing = S(close_last_sentence=True, thresholds={"QUESTION": 0.3}, end_threshold=0.55)
    assert decode(doc, last, LABELS, closing).marks == ["", "", "."]
    last[:] = [0.8, 0.05, 0.1, 0.05]  # a third of the end a question
    assert decode(doc, last, LABELS, closing).marks == ["", "", "?"]
    with pytest.raises(ValueError, match="The end threshold 1.5: give a number from 0 to 1"):
        S(end_threshold=1.5)


def test_settings_are_probabilities():
    probs = numpy.array([[0.6, 0.3, 0.1, 0.0]], dtype="f")
    for bad in ({"QUESTION": 1.5}, {"COMMA": -0.1}):
        with pytest.raises(ValueError, match="give a number from 0 to 1"):
            decide(probs, LABELS, bad)
        with pytest.raises(ValueError, match="give a number from 0 to 1"):
            decide(probs, LABELS, margins=bad)
    assert decide(probs, LABELS, {"QUESTION": 1.0}, {"COMMA": 0.0}).tolist() == [0]
    # the settings object refuses them too, as the command line does
    for bad in ({"QUESTION": 1.5}, {"COMMA": -0.1}):
        with pytest.raises(ValueError, match="give a number from 0 to 1"):
            S(thresholds=bad)
        with pytest.raises(ValueError, match="give a number from 0 to 1"):
            S().replace(margins=bad)


def test_an_open_end_is_not_closed(nlp):
    doc = nlp("so how was it")
    probs = numpy.tile(numpy.array([0.6, 0.1, 0.1, 0.2], dtype="f"), (len(doc), 1))
    closing = S(close_last_sentence=True)
    assert decode(doc, probs, LABELS, closing).marks[-1] == "?"
    assert decode(doc, probs, LABELS, closing, open_end=True).marks[-1] == ""


def test_settings_replace_only_what_is_given():
    settings = S(thresholds={"COMMA": 0.4}, keep_existing=True)
    assert settings.replace(keep_existing=None, add_marks=False) == S(
        thresholds={"COMMA": 0.4}, keep_existing=True, add_marks=False
    )
    with pytest.raises(ValueError, match="--threshold COMMA=1.5"):
        check_settings(LABELS, {"COMMA": 1.5}, None, ("--threshold", "--margin"))


def _tag_probs(doc, period_after, question_after):
    """EMPTY everywhere, a period after token `period_after` and a question
    mark after token `question_after`."""
    probs = numpy.tile(numpy.array([0.9, 0.04, 0.02, 0.04], dtype="f"), (len(doc), 1))
    probs[period_after] = [0.1, 0.1, 0.7, 0.1]
    probs[question_after] = [0.1, 0.1, 0.1, 0.7]
    return probs


@pytest.mark.parametrize(
    "text,before",
    [
        ("it's cold in here isn't it", "here"),
        ("we can go now can't we", "now"),
        ("you told her didn't you", "her"),
        ("it’s cold isn’t it", "cold"),
        ("we'll be fine won't we", "fine"),
    ],
)
def test_a_question_tag_joins_the_sentence_before(nlp, text, before):
    doc = nlp(text)
    i = [t.text for t in doc].index(before)
    decisions = decode(doc, _tag_probs(doc, i, len(doc) - 1), LABELS)
    assert decisions.marks[i] == "," and decisions.marks[-1] == "?"
    assert not any(decisions.sent_starts[i + 1 :])  # one sentence: the tag starts none


def test_what_is_not_a_question_tag_stays(nlp):
    # more words after the tag, a positive verb, a question before, a pronoun that is not a subject
    for text, before in [
        ("it was cold isn't it warm", "cold"),
        ("it was cold is it", "cold"),
        ("it was cold isn't them", "cold"),
    ]:
        doc = nlp(text)
        i = [t.text for t in doc].index(before)
        assert decode(doc, _tag_probs(doc, i, len(doc) - 1), LABELS).marks[i] == "."
    doc = nlp("is it cold isn't it")
    probs = _tag_probs(doc, 2, 5)
    probs[2] = [0.1, 0.1, 0.1, 0.7]
    assert decode(doc, probs, LABELS).marks[2] == "?"


def test_a_period_of_the_input_before_a_tag_stays(nlp):
    doc = nlp("it's cold in here. isn't it")
    here = [t.text for t in doc].index("here")
    for keep_existing in (False, True):
        marks = decode(doc, _tag_probs(doc, here, len(doc) - 1), LABELS, S(keep_existing=keep_existing)).marks
        assert marks[here] == "." and marks[-1] == "?"


def test_question_tags_are_a_language_rule():
    doc = spacy.blank("hu")("hideg van isn't it")
    assert decode(doc, _tag_probs(doc, 1, len(doc) - 1), LABELS).marks[1] == "."
    # a label set without COMMA has nothing to join with
    no_comma = LabelSet(["EMPTY", "PERIOD", "QUESTION"])
    doc = spacy.blank("en")("it's cold isn't it")
    probs = numpy.tile(numpy.array([0.9, 0.05, 0.05], dtype="f"), (len(doc), 1))
    probs[2], probs[-1] = [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]
    assert decode(doc, probs, no_comma).marks[2] == "."


def _row(*probs):
    return numpy.array(probs, dtype="f")


def test_a_word_alone_between_two_ends_joins_the_surer_ones_sentence(nlp):
    doc = nlp("welcome to the channel madam we talk")
    probs = numpy.tile(_row(0.9, 0.05, 0.05, 0.0), (len(doc), 1))
    probs[3] = _row(0.2, 0.04, 0.76, 0.0)  # channel: sure of its end
    probs[4] = _row(0.2, 0.29, 0.51, 0.0)  # madam: less sure; a comma next
    assert decode(doc, probs, LABELS).marks[3:5] == [".", "."]
    assert decode(doc, probs, LABELS, S(lone_word_sentences=False)).marks[3:5] == [".", ","]
    probs[3], probs[4] = _row(0.54, 0.02, 0.44, 0.0), _row(0.13, 0.08, 0.79, 0.0)
    assert decode(doc, probs, LABELS, S(lone_word_sentences=False)).marks[3:5] == ["", "."]


def test_a_word_of_a_clause_never_stands_alone(nlp):
    doc = nlp("welcome to the channel today we talk")
    probs = numpy.tile(_row(0.9, 0.05, 0.05, 0.0), (len(doc), 1))
    probs[3], probs[4] = _row(0.2, 0.04, 0.76, 0.0), _row(0.2, 0.29, 0.51, 0.0)
    assert decode(doc, probs, LABELS).marks[3:5] == [".", ","]  # English `today`: `the channel. Today, we`
    hungarian = spacy.blank("hu")("a csatorna today mi")  # a rule of English's: another language keeps both ends
    assert decode(hungarian, probs[2:6], LABELS).marks[1:3] == [".", "."]


def test_interjections_the_inputs_marks_and_the_texts_last_end_stay_alone(nlp):
    ends = _row(0.1, 0.1, 0.8, 0.0)
    doc = nlp("you came yes we did")
    probs = numpy.tile(_row(0.9, 0.05, 0.05, 0.0), (len(doc), 1))
    probs[1] = probs[2] = ends
    assert decode(doc, probs, LABELS, S(lone_word_sentences=False)).marks[1:3] == [".", "."]
    doc = nlp("you came. today we did")  # the input's period stays, and the end after it
    probs = numpy.tile(_row(0.9, 0.05, 0.05, 0.0), (len(doc), 1))
    probs[1] = probs[3] = ends
    assert decode(doc, probs, LABELS, S(keep_existing=True, lone_word_sentences=False)).marks[1:4] == [".", "", "."]
    doc = nlp("we came today")  # the text's last word ends it: the end before it goes
    probs = numpy.tile(_row(0.9, 0.05, 0.05, 0.0), (len(doc), 1))
    probs[1], probs[2] = _row(0.05, 0.05, 0.9, 0.0), _row(0.5, 0.1, 0.4, 0.0)
    settings = S(close_last_sentence=True, lone_word_sentences=False)
    assert decode(doc, probs, LABELS, settings).marks == ["", "", "."]
