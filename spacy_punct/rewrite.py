"""Build the punctuated, sentence-cased Doc from an annotated input Doc."""
from dataclasses import dataclass, field
from typing import Dict, List

import numpy

from spacy.attrs import LEMMA, MORPH, POS, TAG
from spacy.tokens import Doc, Span

from .labels import (
    ALWAYS_CAPITALISED,
    MARK_LABELS,
    SENTENCE_FINAL,
    capitalise,
    marks_after,
    punct_flags,
    written_label,
)

_CARRIED_ATTRS = [TAG, POS, MORPH, LEMMA]
_SPACED_MARKS = frozenset({"-"})  # written with a space before them
_CLOSING = frozenset({")", "]", "}", "'", "’"})


def is_final(mark: str) -> bool:
    """Whether a canonical mark ends a sentence."""
    return MARK_LABELS.get(mark) in SENTENCE_FINAL


@dataclass
class RewritePlan:
    """The tokens of the rewritten Doc, and where each came from."""

    words: List[str] = field(default_factory=list)
    spaces: List[bool] = field(default_factory=list)
    source_map: List[int] = field(default_factory=list)  # -1: an inserted mark
    sent_starts: List[bool] = field(default_factory=list)
    punct: List[str] = field(default_factory=list)

    def add(self, text: str, space: bool, source: int, mark: str, start: bool) -> None:
        self.words.append(text)
        self.spaces.append(space)
        self.source_map.append(source)
        self.punct.append(mark)
        self.sent_starts.append(start)

    @property
    def text(self) -> str:
        return "".join(w + " " if s else w for w, s in zip(self.words, self.spaces))


def rewrite_doc(doc: Doc, keep_existing: bool = False) -> Doc:
    """A new Doc with the marks in `token._.punct` written into the text.

    The first word of every sentence is capitalised (and words such as English
    "i"), sentence boundaries are set, and the input's tokens keep their
    annotations. `doc._.source_map`, `doc._.source_offsets` and
    `doc._.source_text` lead back to the input.
    """
    return build_rewritten(doc, plan_rewrite(doc, keep_existing))


def plan_rewrite(doc: Doc, keep_existing: bool = False) -> RewritePlan:
    """Lay out the rewritten tokens. Punctuation already in the input is kept
    when `keep_existing`; otherwise punctuation that carries a class is
    replaced by the predictions, and the rest (brackets, hyphens) is kept."""
    always_upper = ALWAYS_CAPITALISED.get(doc.lang_, frozenset())
    punct = punct_flags(doc)
    existing = marks_after(doc, punct) if keep_existing else None
    plan = RewritePlan()
    spaces = plan.spaces
    pending: Dict[int, str] = {}  # token index -> mark to write after it
    sentence_open = False  # whether the current sentence already has a word
    for token in doc:
        text = token.text
        if token.is_space:
            plan.add(text, bool(token.whitespace_), token.i, "", False)
        elif punct[token.i]:
            spaced = token.i > 0 and bool(doc[token.i - 1].whitespace_)
            if keep_existing or written_label(text, spaced) is None:
                plan.add(text, bool(token.whitespace_), token.i, "", False)
            elif spaces and not spaces[-1]:
                # a dropped mark must not glue its neighbours together
                spaces[-1] = bool(token.whitespace_) or token.i + 1 < len(doc)
        else:
            mark = token._.punct or ""
            if not sentence_open or text.lower() in always_upper:
                text = capitalise(text)
            plan.add(text, bool(token.whitespace_), token.i, mark, not sentence_open)
            sentence_open = not (mark and is_final(mark))
            if mark and not (existing and existing[token.i]):
                pending[_closing_end(doc, token.i)] = mark
        mark = pending.pop(token.i, "")
        if mark and plan.source_map and plan.source_map[-1] == token.i:
            spaces[-1] = mark in _SPACED_MARKS
            plan.add(mark, bool(token.whitespace_), -1, "", False)
    if plan.words:
        plan.sent_starts[0] = True
    return plan


def _closing_end(doc: Doc, i: int) -> int:
    """The last of the closing brackets attached to token i (`maybe)`), or i:
    a mark goes after them."""
    while i + 1 < len(doc) and not doc[i].whitespace_ and doc[i + 1].text in _CLOSING:
        i += 1
    return i


def build_rewritten(doc: Doc, plan: RewritePlan) -> Doc:
    """The rewritten Doc laid out by `plan`, with the input's annotations."""
    source_map = plan.source_map
    new = Doc(doc.vocab, words=plan.words, spaces=plan.spaces, sent_starts=plan.sent_starts)
    new_index = [-1] * len(doc)
    for i, source in enumerate(source_map):
        if source >= 0:
            new_index[source] = i
    kept = [i for i, source in enumerate(source_map) if source >= 0]
    if kept:
        values = doc.to_array(_CARRIED_ATTRS)[[source_map[i] for i in kept]]
        full = new.to_array(_CARRIED_ATTRS)
        full[kept] = values
        new.from_array(_CARRIED_ATTRS, full)
    for token, mark in zip(new, plan.punct):
        token._.punct = mark
    probs = doc._.punct_probs
    if probs is not None:
        new_probs = numpy.zeros((len(new), probs.shape[1]), dtype=probs.dtype)
        new_probs[kept] = probs[[source_map[i] for i in kept]]
        new._.punct_probs = new_probs
    new._.source_map = source_map
    new._.source_offsets = [doc[source].idx if source >= 0 else -1 for source in source_map]
    new._.source_text = doc.text
    new._.punctuated = new.text
    new.cats = dict(doc.cats)
    new._context = doc._context  # what nlp.pipe(..., as_tuples=True) passes along
    _copy_token_extensions(doc, new, new_index)
    new.ents = _map_spans(doc.ents, new, new_index)
    for key, group in doc.spans.items():
        new.spans[key] = _map_spans(group, new, new_index)
    return new


def _map_spans(spans, new: Doc, new_index: List[int]) -> List[Span]:
    """Carry spans over to the new Doc (a span whose tokens were all dropped is lost)."""
    mapped = []
    for span in spans:
        kept = [new_index[i] for i in range(span.start, span.end) if new_index[i] >= 0]
        if kept:
            mapped.append(
                Span(new, kept[0], kept[-1] + 1, label=span.label, kb_id=span.kb_id)
            )
    return mapped


def _copy_token_extensions(doc: Doc, new: Doc, new_index: List[int]) -> None:
    """Copy values of token extensions (word timings, confidences) to the new tokens."""
    by_offset = {token.idx: new_index[token.i] for token in doc if new_index[token.i] >= 0}
    for key, value in list(doc.user_data.items()):
        if not (isinstance(key, tuple) and len(key) == 4 and key[0] == "._." and key[3] is None):
            continue
        name, start = key[1], key[2]
        if name == "punct" or start is None or start not in by_offset:
            continue
        new.user_data[("._.", name, new[by_offset[start]].idx, None)] = value
