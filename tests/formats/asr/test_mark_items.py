"""Words and marks as items of one list: a word read with the marks after it, written back with its marks as items."""

import pytest

from spacy_punct.formats.asr.mark_items import item_words, split_marks, written_items, written_words
from spacy_punct.formats.timed import RecordError


def _item(kind, content, start=None):
    return {"type": kind, "alternatives": [{"content": content}], "start_time": start, "end_time": start}


def _mark(word, mark):
    return {"type": "mark", "alternatives": [{"content": mark}], "after": word["alternatives"][0]["content"]}


def test_a_word_is_read_with_the_marks_after_it_and_a_leading_mark_is_left_alone():
    items = [
        _item("mark", "¿"),
        _item("word", "so", 0.0),
        _item("mark", ","),
        _item("mark", "!"),
        _item("word", "how", 1),
    ]
    words = item_words(items, "talk.json", "mark")
    assert [(place, word.text, word.start) for place, word in words] == [(1, "so,!", 0.0), (4, "how", 1.0)]


def test_marks_are_written_as_items_after_their_words_and_ids_numbered_again():
    items = [dict(_item("word", "so", 0), id=0), dict(_item("mark", ".", 0), id=1), dict(_item("word", "how", 1), id=2)]
    written = written_words(items, [0, 2], ["So,", "how?"])
    out, ids = written_items(items, written, "mark", _mark)
    assert [(item["id"], item["alternatives"][0]["content"]) for item in out] == [
        (0, "So"),
        (1, ","),
        (2, "how"),
        (3, "?"),
    ]
    assert out[3]["after"] == "how" and ids == {0: [0, 1], 1: None, 2: [2, 3]}
    other = [_item("word", "well", 5), _item("mark", ".", 5)]  # a word not punctuated keeps its marks
    assert written_items(other, written, "mark", _mark)[0] == other


def test_a_mark_that_attaches_to_the_next_word_is_read_before_it_and_written_as_it_was():
    quote = dict(_item("mark", '"', 1), attaches_to="next")
    items = [_item("word", "said", 0), quote, _item("word", "we", 1), _item("mark", '"', 1), dict(quote)]
    words = item_words(items, "talk.json", "mark")
    assert [word.text for _, word in words] == ["said", '"we"']  # the last, with no word after it, is left out
    written = written_words(items, [0, 2], ["Said,", '"We."'])  # the closing quote read is written again
    out, _ = written_items(items, written, "mark", _mark)
    assert [item["alternatives"][0]["content"] for item in out] == ["Said", ",", '"', "We", ".", '"', '"']
    assert out[2] is quote


def test_a_punctuated_word_splits_into_its_content_and_marks():
    assert split_marks("trip", "Trip?!") == ("Trip", "?!")
    assert split_marks("straße", "STRASSE.") == ("STRASSE.", "")  # its case changed its length
    assert split_marks("we", '"We.') == ("We", ".")  # a mark before the word is an item of its own


def test_an_item_without_content_is_named():
    with pytest.raises(RecordError, match="talk.json, item 2: the content is missing"):
        item_words([_item("word", "so", 0), _item("word", " ", 1)], "talk.json", "mark")
