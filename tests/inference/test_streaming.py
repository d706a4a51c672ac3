import tracemalloc

import numpy
import pytest

from spacy_punct.formats.timed import RecordError, TimedWord
from spacy_punct.inference.streaming import (
    EntropyLookahead,
    FixedLookahead,
    Streamer,
    entropy,
    stream_punctuate,
)
from spacy_punct.inference.texts import punctuate

from ..conftest import TEXTS

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]
ALL = " ".join(BARE)


def _text(committed):
    return " ".join(word.text for word in committed)


def test_stream_equals_offline_when_the_lookahead_covers_the_text(trained):
    for text in BARE + [ALL]:
        n = len(text.split())
        streamed = list(stream_punctuate(trained, text.split(), FixedLookahead(n), left_context=n))
        assert _text(streamed) == next(punctuate(trained, [text])).text


def test_every_word_is_committed_once_in_order_with_its_lookahead(trained):
    words = ALL.split()
    for lookahead in (0, 1, 3):
        streamer = Streamer(trained, FixedLookahead(lookahead), left_context=5)
        committed = []
        for i, word in enumerate(words):
            new = streamer.push(word)
            assert all(c.lookahead == lookahead for c in new)
            assert streamer.pending == min(lookahead, i + 1)
            committed += new
        committed += streamer.flush()
        assert [c.index for c in committed] == list(range(len(words)))
        assert [c.word for c in committed] == words
        for c in committed:  # only the mark and the case change
            assert c.text.lower() in (c.word, c.word + c.mark)
        assert committed[0].sentence_start
        ends = [c.index for c in committed if c.sentence_end]
        assert [c.index for c in committed if c.sentence_start][1:] == [i + 1 for i in ends if i + 1 < len(words)]


def test_committed_words_do_not_depend_on_what_follows(trained):
    words = ALL.split()
    full = list(stream_punctuate(trained, words, FixedLookahead(2), left_context=8))
    for cut in (7, 20, 33):
        prefix = Streamer(trained, FixedLookahead(2), left_context=8)
        early = [c for word in words[:cut] for c in prefix.push(word)]
        assert early == full[: len(early)] and len(early) == cut - 2


def test_entropy_policy():
    assert entropy(numpy.array([1.0, 0.0])) == 0.0
    assert entropy(numpy.array([0.5, 0.5])) == pytest.approx(numpy.log(2))
    eager = EntropyLookahead(threshold=10.0, max_lookahead=5, min_lookahead=1)
    assert not eager.ready(numpy.array([0.5, 0.5]), 0) and eager.ready(numpy.array([0.5, 0.5]), 1)
    patient = EntropyLookahead(threshold=0.0, max_lookahead=5)
    assert not patient.ready(numpy.array([0.5, 0.5]), 4) and patient.ready(numpy.array([0.5, 0.5]), 5)
    with pytest.raises(ValueError):
        EntropyLookahead(0.1, max_lookahead=2, min_lookahead=3)
    with pytest.raises(ValueError):
        FixedLookahead(-1)


def test_entropy_decoding_waits_between_its_bounds(trained):
    words = ALL.split()
    committed = list(stream_punctuate(trained, words, EntropyLookahead(0.2, max_lookahead=6), left_context=10))
    assert [c.word for c in committed] == words
    lookaheads = [c.lookahead for c in committed[:-6]]
    assert min(lookaheads) >= 1 and max(lookaheads) <= 6
    never = list(stream_punctuate(trained, words, EntropyLookahead(0.0, max_lookahead=3), left_context=10))
    assert {c.lookahead for c in never[:-3]} == {3}  # a softmax is never certain


def test_timings_survive(trained):
    streamer = Streamer(trained, FixedLookahead(1))
    committed = []
    for i, word in enumerate(BARE[0].split()):
        committed += streamer.push(TimedWord(word, i * 0.5, i * 0.5 + 0.3))
    committed += streamer.flush()
    assert [(c.start, c.end) for c in committed] == [(i * 0.5, i * 0.5 + 0.3) for i in range(len(committed))]


def test_bad_words_leave_the_stream_as_it_was(trained):
    streamer = Streamer(trained, FixedLookahead(2))
    streamer.push("so", 0.0, 0.2)
    streamer.push("how", 0.3, 0.5)
    for bad, message in [
        ({"word": "was", "start": 0.1, "end": 0.2}, "word 3 .'was'.: starts at 0.1"),
        ({"word": "was", "start": 0.9, "end": 0.8}, "needs 0 <= start <= end"),
        ({"word": ""}, "word 3: the word is missing or empty"),
        ({"word": "was", "start": "x", "end": 1}, "must be numbers"),
        ("was", "timings must be given for every word or for none"),
    ]:
        with pytest.raises(RecordError, match=message):
            streamer.push(bad)
    assert streamer.pending == 2
    committed = streamer.push("was", 0.6, 0.8) + streamer.flush()
    assert [c.word for c in committed] == ["so", "how", "was"]


def test_memory_stays_bounded(trained):
    words = ALL.split()
    streamer = Streamer(trained, FixedLookahead(2), left_context=20)
    for word in words * 5:  # warm up caches
        streamer.push(word)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for word in words * 30:  # 1,710 words
        streamer.push(word)
        assert len(streamer._left) <= 20 and streamer.pending <= 3
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert grown < 200_000, grown


def test_the_closing_mark_is_written_in_the_language_s_form(trained, monkeypatch):
    """A stream's closing mark as the rewrite writes a mark (Bangla's full stop `।`); `mark` keeps the label's."""
    from spacy_punct import streaming
    from spacy_punct.languages import LanguageRules

    monkeypatch.setattr(streaming, "language_rules", lambda lang: LanguageRules(written_marks={".": "।", "?": "？"}))
    settings = trained.get_pipe("punctuator").settings
    monkeypatch.setattr(trained.get_pipe("punctuator"), "settings", settings.replace(close_last_sentence=True))
    streamer = Streamer(trained, FixedLookahead(0))
    for word in BARE[1].split()[:3]:
        streamer.push(word)
    (closing,) = streamer.flush()
    assert closing.closes and closing.mark in (".", "?") and closing.text == {".": "।", "?": "？"}[closing.mark]


def test_streamer_needs_a_punctuator_and_left_context(trained):
    import spacy

    from spacy_punct.pipelines import PipelineError

    with pytest.raises(PipelineError):
        Streamer(spacy.blank("en"))
    with pytest.raises(ValueError, match="left_context"):
        Streamer(trained, left_context=0)


def test_window_docs_are_tokenised_as_offline_input(trained):
    streamer = Streamer(trained, FixedLookahead(3))
    words = "i'm sure it doesn't matter".split()
    for word in words:
        streamer.push(word)
    window = streamer._doc(streamer._left + streamer._pending)
    offline = trained.make_doc(" ".join(words))
    assert [(t.text, t.norm_) for t in window] == [(t.text, t.norm_) for t in offline]  # "'m" -> "am"


def test_a_stream_with_no_lookahead_still_closes_its_last_sentence(trained):
    """`stream --lookahead 0` never closed the last sentence nor wrote a final newline."""
    from spacy_punct.formats.output_formats import make_writer

    trained.get_pipe("punctuator").settings = trained.get_pipe("punctuator").settings.replace(close_last_sentence=True)
    streamer = Streamer(trained, FixedLookahead(0))
    words = BARE[1].split()[:3]  # cut where no sentence ends
    committed = [word for text in words for word in streamer.push(text)]
    assert len(committed) == len(words) and streamer.pending == 0
    closing = streamer.flush()
    assert not committed[-1].sentence_end, [w.text for w in committed]
    assert [(word.closes, word.sentence_end, word.text in (".", "?")) for word in closing] == [(True, True, True)]
    writer = make_writer("text")
    written = writer.words(committed + closing) + writer.footer()
    assert written.endswith(closing[0].text + "\n") and written.count("\n") >= 1
    assert not written.endswith(" " + closing[0].text + "\n")
    assert streamer.flush() == []  # closed once


def test_merge_reads_the_stream_lower_cased_as_punctuate_does():
    from spacy_punct import find_punctuator, load_pipeline

    nlp = load_pipeline("en_punct_sm")
    settings = find_punctuator(nlp)[1].settings.replace(merge=True)
    words = "So, how was the TRIP. It was LONG, but we saw the coast".split()
    streamed = list(stream_punctuate(nlp, words, FixedLookahead(3), settings=settings))
    offline = next(iter(punctuate(nlp, [" ".join(words)], settings=settings))).text
    assert offline == "So, how was the trip? It was long, but we saw the coast."
    assert " ".join(word.text for word in streamed).rstrip(".") == offline.rstrip(".")  # a stream's end stays open
