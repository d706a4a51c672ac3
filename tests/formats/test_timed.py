import pytest
import spacy

from spacy_punct.formats.timed import (
    RecordError,
    TimedWord,
    fill_untimed,
    record_word_list,
    timed_words,
    words_doc,
)


def test_timed_words_accept_the_shapes_recognisers_write():
    words = timed_words([{"word": " how ", "start": 0.5, "end": 0.7}, {"text": "new york", "start": 1, "end": 2}], "r")
    assert words == [TimedWord("how", 0.5, 0.7), TimedWord("new", 1.0, 2.0), TimedWord("york", 1.0, 2.0)]
    assert timed_words(["so", {"word": "how"}], "r") == [TimedWord("so"), TimedWord("how")]
    vosk = {"result": [{"conf": 0.9, "end": 1.0, "start": 0.5, "word": "hi"}], "text": "hi"}
    assert record_word_list(vosk, "r") == vosk["result"]
    whisper = {
        "segments": [{"words": [{"word": "a", "start": 0, "end": 1}]}, {"words": [{"word": "b", "start": 1, "end": 2}]}]
    }
    assert [w["word"] for w in record_word_list(whisper, "r")] == ["a", "b"]
    assert record_word_list({"text": "a b"}, "r") is None
    assert record_word_list({"text": "a b", "words": None, "result": None}, "r") is None  # a column of nulls
    with pytest.raises(RecordError, match="'words' must be a list"):
        record_word_list({"words": "a b"}, "r")


@pytest.mark.parametrize(
    "entries,message",
    [
        ([{"word": "a", "start": 2, "end": 1}], "word 1 .'a'.: needs 0 <= start <= end"),
        # one rule for records and streams: timings for every word or for none
        (
            ["so", {"word": "how", "start": 0.5, "end": 0.7}],
            "word 2 .'how'.: timings must be given for every word or for none",
        ),
        ([{"word": "a", "start": 1, "end": 2}, {"word": "b", "start": 0.5, "end": 2}], "word 2 .'b'.: starts at 0.5"),
        ([{"word": "a", "start": "soon", "end": 2}], "must be numbers"),
        ([{"word": "a", "start": 1}], "must be numbers"),
        ([{"word": "  "}], "word 1: the word is missing or empty"),
        ([{"start": 1, "end": 2}], "missing or empty"),
        ([3], "expected a word"),
        ([{"word": "a", "start": float("nan"), "end": 1}], "needs 0 <= start <= end"),
    ],
)
def test_bad_words_name_the_word(entries, message):
    with pytest.raises(RecordError, match=message):
        timed_words(entries, "record 4")


def test_words_doc_puts_timings_on_tokens():
    nlp = spacy.blank("en")
    doc = words_doc(nlp, [TimedWord("we", 0.0, 0.2), TimedWord("didn't", 0.3, 0.6), TimedWord("go", 0.7, 0.9)])
    assert [(t.text, t._.start_time) for t in doc] == [("we", 0.0), ("did", 0.3), ("n't", 0.3), ("go", 0.7)]
    assert words_doc(nlp, [TimedWord("a"), TimedWord("b")])[0]._.start_time is None


def test_untimed_words_are_timed_between_their_neighbours_or_their_group():
    words = [TimedWord("20"), TimedWord("ab", 1.0, 1.2), TimedWord("a"), TimedWord("bbb"), TimedWord("cd", 2.0, 2.5)]
    bounds = [(0.5, 3.0)] * len(words)
    filled = fill_untimed(words, bounds)
    assert [(w.start, w.end) for w in filled] == [(0.5, 1.0), (1.0, 1.2), (1.2, 1.4), (1.4, 2.0), (2.0, 2.5)]
    assert [w.text for w in filled] == [w.text for w in words]
    untimed = [TimedWord("so"), TimedWord("what")]
    assert fill_untimed(untimed, [(None, None)] * 2) == untimed  # nothing known: nothing made up
