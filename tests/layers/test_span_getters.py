import pytest
import spacy
from spacy.tokens import Doc
from spacy_transformers.span_getters import get_strided_spans

from spacy_punct.layers.span_getters import get_word_strided_spans


@pytest.mark.parametrize("window,stride", [(4, 4), (4, 3), (8, 2), (5, 7), (128, 96)])
@pytest.mark.parametrize("n_words", [0, 1, 3, 4, 9, 30])
def test_the_windows_of_strided_spans_on_docs_of_words(window, stride, n_words):
    if stride > window:
        stride = window
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=[f"w{i}" for i in range(n_words)])
    ours = get_word_strided_spans([doc], window=window, stride=stride)
    theirs = get_strided_spans([doc], window=window, stride=stride)
    assert [[(s.start, s.end) for s in spans] for spans in ours] == [
        [(s.start, s.end) for s in spans] for spans in theirs
    ]


@pytest.mark.parametrize("window,stride", [(4, 4), (4, 3), (8, 2), (3, 1)])
def test_whitespace_and_marks_take_no_place_in_a_window(window, stride):
    nlp = spacy.blank("en")
    words = [f"w{i}" for i in range(17)]
    plain = nlp.make_doc(" ".join(words))
    spaced = nlp.make_doc('  "' + "\n".join(words[:9]) + '", \n\n (' + "\t".join(words[9:]) + ") ?\n")
    assert len(spaced) > len(plain)
    (plain_spans,), (spaced_spans,) = (get_word_strided_spans([d], window, stride) for d in (plain, spaced))
    assert [[t.text for t in s if not (t.is_space or t.is_punct)] for s in spaced_spans] == [
        [t.text for t in s] for s in plain_spans
    ]
    # every token is in a window: the first starts the doc, the last ends it, no gap between them
    assert spaced_spans[0].start == 0 and spaced_spans[-1].end == len(spaced)
    assert all(b.start <= a.end for a, b in zip(spaced_spans, spaced_spans[1:]))


def test_a_doc_of_whitespace_only():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("  \n ")
    assert [(s.start, s.end) for s in get_word_strided_spans([doc], 4, 4)[0]] == [
        (s.start, s.end) for s in get_strided_spans([doc], 4, 4)[0]
    ]
