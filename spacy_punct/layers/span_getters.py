"""Windows for a transformer counted in words: whitespace and punctuation
tokens take no place.

spacy-transformers' `strided_spans.v1` counts tokens, so a text in lines (a
`'\\n'` token after every line) reads fewer words per window than the same
text in one line, and other words share a window: the predictions change
with the line breaks. Here a window holds `window` words, the whitespace and
marks between them riding along (the encoder reads the marks: pretrained on
written text, it knows them); on docs of words only the windows are those
of `strided_spans.v1`.
"""

from functools import partial
from typing import Callable, Iterable, List, cast

from spacy.tokens import Doc, Span
from spacy.util import registry
from spacy_transformers.span_getters import get_strided_spans

from .tok2vec import word_rows

# spacy-transformers adds the span_getters registry to spaCy's
_span_getters = getattr(registry, "span_getters")


@_span_getters("spacy_punct.word_strided_spans.v1")
def configure_word_strided_spans(window: int, stride: int) -> Callable[[Iterable[Doc]], List[List[Span]]]:
    """Windows of `window` words, one every `stride` words (stride < window:
    each word read in about window / stride windows)."""
    return partial(get_word_strided_spans, window=window, stride=stride)


def get_word_strided_spans(docs: Iterable[Doc], window: int, stride: int) -> List[List[Span]]:
    """Per doc, its windows: `strided_spans.v1` over the doc's words, each
    window running to the next window's first word (the last one to the
    doc's end) and the first from the doc's start."""
    output = []
    for doc in docs:
        rows = word_rows(doc)
        if rows is None or not len(rows):
            output.extend(get_strided_spans([doc], window=window, stride=stride))
            continue
        n_words = len(rows)
        spans = []
        # strided windows over the word indices: ranges of words
        windows = cast(List[range], get_strided_spans([range(n_words)], window=window, stride=stride)[0])  # type: ignore[list-item]
        for words in windows:
            start = 0 if words.start == 0 else int(rows[words.start])
            end = len(doc) if words.stop >= n_words else int(rows[words.stop])
            spans.append(doc[start:end])
        output.append(spans)
    return output
