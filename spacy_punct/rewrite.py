"""Build the punctuated, sentence-cased Doc from an annotated input Doc.

The rewrite reads the decisions the punctuator left on the doc: the mark after
each word (`token._.punct`) and the sentence starts. Where a slot's decided
mark equals the mark already written there, the input stays as it is;
elsewhere the slot's existing marks are removed and the decided one is
written.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Union, cast

import numpy
from spacy.attrs import ENT_IOB, IS_SPACE, LEMMA, MORPH, NORM, POS, SENT_START, TAG
from spacy.tokens import Doc, Span
from thinc.types import Ints2d

from .casing import (
    FIRST,
    FIXED,
    PART,
    WHOLE,
    always_capitalised,
    capitalise,
    case_roles,
    decapitalise,
    function_words,
    is_symbol,
    written_in_capitals,
)
from .decode import Decisions, sentence_starts
from .extensions import (
    copy_doc_extension_values,
    copy_span_extension_values,
    copy_token_extension_values,
    set_token_values,
    token_values,
)
from .labels import ends_sentence
from .languages import language_rules
from .words import MarkSlots, TokenTable, mark_slots, token_table

_CARRIED_ATTRS = [TAG, POS, MORPH, LEMMA]
_SPACED_MARKS = frozenset({"-"})  # written with a space before them


@dataclass
class RewritePlan:
    """The tokens of the rewritten Doc, and where each came from."""

    words: List[str] = field(default_factory=list)
    spaces: List[bool] = field(default_factory=list)
    source_map: List[int] = field(default_factory=list)  # -1: an inserted mark
    sent_starts: List[bool] = field(default_factory=list)
    punct: List[str] = field(default_factory=list)
    input_offsets: List[int] = field(default_factory=list)  # character offset of each input token

    def add(self, text: str, space: bool, source: int, mark: str, start: bool) -> None:
        self.words.append(text)
        self.spaces.append(space)
        self.source_map.append(source)
        self.punct.append(mark)
        self.sent_starts.append(start)

    @property
    def text(self) -> str:
        return "".join(w + " " if s else w for w, s in zip(self.words, self.spaces))


def rewrite_doc(doc: Doc) -> Doc:
    """A new Doc with the marks in `token._.punct` written into the text.

    Words take the case a truecaser wrote in `token._.truecase` (lower-case
    input words only, or every word of a text written all in capitals); the first word of every sentence is capitalised (and
    words such as English "i"), a capital left mid-sentence by a removed sentence end is lowered,
    sentence boundaries are set, and the input's tokens keep their annotations.
    `doc._.source_map`, `doc._.source_offsets` and `doc._.source_text` lead
    back to the input.
    """
    return build_rewritten(doc, plan_rewrite(doc))


def plan_rewrite(doc: Doc, decisions: Optional[Decisions] = None) -> RewritePlan:
    """Lay out the rewritten tokens from the decisions the punctuator made
    (else from the doc's `token._.punct` and sentence starts)."""
    if decisions is None:
        decisions = _read_decisions(doc)
    table, marks, starts, slots = decisions.table, decisions.marks, decisions.sent_starts, decisions.slots
    case_fill = decisions.case_fill  # the tokens whose case may change (None: all)
    dropped: Set[int] = set()
    inserted: Dict[int, str] = {}  # anchor token -> mark written after it
    lowered = set()  # slots whose sentence end was removed
    new_ends = set()  # slots where a sentence end is written that the input lacks
    for i in slots.words:
        mark = marks[i]
        existing = slots.existing.get(i, "")
        if mark == existing:
            continue
        dropped.update(slots.written.get(i, ()))
        if mark and not (i in slots.abbreviations and mark == "."):
            inserted[slots.anchor(i)] = mark
        if ends_sentence(existing) and not ends_sentence(mark):
            lowered.add(i)
        if ends_sentence(mark) and not ends_sentence(existing):
            new_ends.add(i)
    always_upper = always_capitalised(table.lang)
    written_marks = language_rules(table.lang).written_marks  # `।` for Bangla's full stop
    cased = token_values(doc, "truecase", table.idx)  # a truecaser's forms, where one ran
    # capitals in the input stay, unless the whole text is in capitals
    recase = written_in_capitals(table.texts)
    roles = case_roles(table.texts, table.spaced, table.is_space, table.punct)
    plan = RewritePlan(input_offsets=table.idx)
    spaces = plan.spaces
    lower_next = after_new_end = False
    # whether the current sentence has a word yet (a doc that does not start
    # a sentence continues one: a piece of a long text)
    has_word = not (len(table) and starts[0])
    n_tokens = len(table)
    whole_forms = _hyphenated_forms(table, roles, cased)
    # a closing quote reads to the encoder as a sentence's end, a comma as the
    # start of quoted speech, and a mark of the input (`note: it`) as what it
    # is, even where the decision removed it: a function word or interjection
    # after one takes no capital from the truecaser unless a sentence starts there
    no_capital = function_words(table.lang) | language_rules(table.lang).interjections
    after_break = _after_closing(slots) | _after_comma(slots, marks) | _after_replaced(slots, marks)
    for i, (text, spaced, is_space, is_punct) in enumerate(zip(table.texts, table.spaced, table.is_space, table.punct)):
        if i in dropped:
            if spaces and not spaces[-1]:
                # a removed mark must not glue its neighbours together, nor
                # put a space before whitespace that follows it (a tab)
                spaces[-1] = spaced or (i + 1 < n_tokens and not table.is_space[i + 1])
            continue
        has_word = has_word and not starts[i]
        if not (is_space or is_punct or is_symbol(text)):
            role = roles[i]
            # repair mode: a word of the input's punctuated text keeps its case, but for the capital of a
            # sentence that starts after an end the input lacks: that capital was lost with the mark
            may_case = case_fill is None or i in case_fill or (not has_word and after_new_end)
            if role == WHOLE or (recase and role != FIXED):
                form = cased[i] if may_case else None
                if form is not None and (recase or text == text.lower()):
                    text = form.lower() if i in after_break and text.lower() in no_capital else form
                if may_case and ((not has_word and not _has_digit(text)) or text.lower() in always_upper):
                    text = capitalise(text)  # not `v2`, `mp3`: a version or a code keeps its case
                elif lower_next and (form is None or form == form.lower()):
                    text = decapitalise(text)
            elif role == PART:
                if i in whole_forms and may_case:
                    text = cased[i]
                if not has_word and may_case:
                    text = capitalise(text)
            elif role == FIRST and not has_word and may_case:
                text = capitalise(text)
            has_word = True
            lower_next = i in lowered
            after_new_end = i in new_ends
        plan.add(text, spaced, i, marks[i], starts[i])
        after = inserted.get(i)
        if after:
            spaces[-1] = after in _SPACED_MARKS
            plan.add(written_marks.get(after, after), spaced, -1, "", False)
    return plan


def _after_closing(slots: MarkSlots) -> Set[int]:
    """The words right after a closing quote or bracket written onto the word
    before (`"hello" and`)."""
    words = slots.words
    return {
        words[k + 1]
        for k in range(len(words) - 1)
        if slots.anchor(words[k]) != words[k] and words[k] not in slots.abbreviations
    }


def _after_comma(slots: MarkSlots, marks: Sequence[str]) -> Set[int]:
    """The words right after a word whose mark is a comma."""
    words = slots.words
    return {words[k + 1] for k in range(len(words) - 1) if marks[words[k]] == ","}


def _after_replaced(slots: MarkSlots, marks: Sequence[str]) -> Set[int]:
    """The words right after a word whose mark in the input the decision
    removed or replaced."""
    words = slots.words
    return {
        words[k + 1]
        for k in range(len(words) - 1)
        if slots.existing.get(words[k], "") and marks[words[k]] != slots.existing[words[k]]
    }


def _has_digit(text: str) -> bool:
    return any(char.isdigit() for char in text)


def _hyphenated_forms(table: TokenTable, roles: Sequence[str], cased: Sequence[Optional[str]]) -> Set[int]:
    """The parts of hyphenated words that take the truecaser's forms: all
    parts of a word or none, and only capital first letters (`Jean-Luc`, never
    `x-Ray` or `Ab-Ab-ab`)."""
    taken: Set[int] = set()
    parts: List[int] = []
    for i, role in enumerate(roles):
        if role == PART:
            parts.append(i)
        word_ends = table.spaced[i] or i + 1 == len(roles) or table.is_space[i + 1]
        if not word_ends:
            continue
        if parts and all(_takes_capital(table.texts[j], cased[j]) for j in parts):
            taken.update(parts)
        parts = []
    return taken


def _takes_capital(text: str, form: Optional[str]) -> bool:
    return form is not None and text == text.lower() and form != text and form == capitalise(text)


def _read_decisions(doc: Doc) -> Decisions:
    """The decisions left on an annotated doc."""
    table = token_table(doc)
    marks = [mark or "" for mark in token_values(doc, "punct", table.idx)]
    annotated = doc.to_array([SENT_START]).tolist() if len(doc) else []
    if any(annotated[1:]):  # the first token is a sentence start unannotated too
        starts = [start == 1 for start in annotated]
    else:
        starts = sentence_starts(table, marks)
    return Decisions(marks, starts, mark_slots(doc, table), table, doc._.case_fill)


def build_rewritten(doc: Doc, plan: RewritePlan) -> Doc:
    """The rewritten Doc laid out by `plan`, with the input's annotations."""
    source_map = plan.source_map
    new = Doc(
        doc.vocab,
        words=plan.words,
        spaces=plan.spaces,
        sent_starts=cast(List[Union[bool, int, None]], plan.sent_starts),
    )
    new_index = [-1] * len(doc)
    for i, source in enumerate(source_map):
        if source >= 0:
            new_index[source] = i
    kept = [i for i, source in enumerate(source_map) if source >= 0]
    if kept:
        sources = [source_map[i] for i in kept]
        values = doc.to_array(_CARRIED_ATTRS)
        if values.any():  # a tagger, morphologizer or lemmatizer ran before
            full = new.to_array(_CARRIED_ATTRS)
            full[kept] = values[sources]
            new.from_array(_CARRIED_ATTRS, cast(Ints2d, full))
        # norms: where an earlier component or the tokenizer's exceptions set one (`'m` -> `am`)
        norms, new_norms = doc.to_array(NORM)[sources], new.to_array(NORM)
        if (norms != new_norms[kept]).any():
            new_norms[kept] = norms
            new.from_array([NORM], cast(Ints2d, new_norms[:, None]))
    offsets = _offsets(plan)
    set_token_values(new, "punct", offsets, plan.punct)
    probs = doc._.punct_probs
    if probs is not None:
        new_probs = numpy.zeros((len(new), probs.shape[1]), dtype=probs.dtype)
        new_probs[kept] = probs[[source_map[i] for i in kept]]
        new._.punct_probs = new_probs
    new._.source_map = source_map
    new._.source_offsets = [plan.input_offsets[source] if source >= 0 else -1 for source in source_map]
    new._.source_text = doc.text
    new._.source_words = int((doc.to_array(IS_SPACE)[sources] == 0).sum()) if kept else 0
    new.cats = dict(doc.cats)
    new._context = doc._context  # what nlp.pipe(..., as_tuples=True) passes along
    copy_doc_extension_values(doc, new)
    input_offsets = plan.input_offsets
    starts = {input_offsets[source]: offsets[i] for i, source in enumerate(source_map) if source >= 0}
    copy_token_extension_values(doc, new, starts, skip=("punct",))
    if any(isinstance(key, tuple) and len(key) == 4 and key[3] is not None for key in doc.user_data):
        ends = {
            input_offsets[source] + len(doc[source]): offsets[i] + len(plan.words[i])
            for i, source in enumerate(source_map)
            if source >= 0
        }
        copy_span_extension_values(doc, new, starts, ends)
    if len(doc) and doc.to_array([ENT_IOB]).any():  # faster than has_annotation
        new.ents = _map_spans(doc.ents, new, new_index)
    for key, group in doc.spans.items():
        new.spans[key] = _map_spans(group, new, new_index)
    return new


def _offsets(plan: RewritePlan) -> List[int]:
    """The character offset of each token of the planned doc."""
    offsets = []
    position = 0
    for word, space in zip(plan.words, plan.spaces):
        offsets.append(position)
        position += len(word) + space
    return offsets


def _map_spans(spans, new: Doc, new_index: List[int]) -> List[Span]:
    """Carry spans over to the new Doc (a span whose tokens were all dropped is lost)."""
    mapped = []
    for span in spans:
        kept = [new_index[i] for i in range(span.start, span.end) if new_index[i] >= 0]
        if kept:
            mapped.append(Span(new, kept[0], kept[-1] + 1, label=span.label, kb_id=span.kb_id))
    return mapped


def _punctuated(doc: Doc) -> Optional[str]:
    """The punctuated text: the doc's own on a rewritten doc, else the rewrite
    of the doc's annotations (None before the punctuator ran)."""
    if doc._.source_map is not None or not len(doc):
        return doc.text
    if doc[0]._.punct is None:
        return None
    return plan_rewrite(doc).text


def register_punctuated() -> None:
    """Register `doc._.punctuated` (safe to call repeatedly)."""
    if not Doc.has_extension("punctuated"):
        Doc.set_extension("punctuated", getter=_punctuated)


register_punctuated()
