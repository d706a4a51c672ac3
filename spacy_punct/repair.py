"""Half-punctuated text: a recogniser's output whose marks and case vanished
part-way. Here are the repair mode's word-level pieces, shared by training,
inference and evaluation:

- `damaged_text`: the construction of such text from punctuated words (runs
  of one to six sentences, about half the words, lose their marks and case;
  the rest stay as written), for the repair head's training and the repair
  sets;
- `repair_features`: what the repair head reads at each mark slot besides the
  punctuator's probabilities: the mark the input has there, the word's case,
  and whether the text has any capital or mark at all;
- `missing_stretches`: the rule that decides, without a head, where a text
  misses its marks: `MISSING_RUN` words or more with no mark between them, or
  the whole text where it has no mark;
- `case_missing`: where a text misses its case, given where it misses its
  marks: every word of a run between two marks of the input that lost any
  mark (its first word's capital proves nothing: a recogniser's run often
  starts with one), and every word of a run of `CASE_RUN` words or more
  whose words after the first are all lower-case.

A text without a capital counts as missing its case everywhere: its marks
are kept, and case is filled throughout."""

import random
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy
from spacy.tokens import Doc
from spacy.vocab import Vocab

from .labels import LabelSet
from .word_records import WordRecord
from .words import MarkSlots, TokenTable, sentence_spans

# words with no mark between them from which a stretch counts as missing its marks
MISSING_RUN = 25
# words with no mark between them, all lower-case after the first, from which a run counts as missing its case
CASE_RUN = 12
# marks written with a space before them (`Clinics - Leading`), as the rewrite writes them
_SPACED_MARKS = frozenset({"-"})
# the case classes of a word as written: lower, a capital first, all capitals, no letter
_CASES = 4
# the distances to the input's marks before and after a slot, and their sum
_GAPS = 3
# a gap of this many slots reads 1.0 (log scale)
_GAP_SCALE = 64


@dataclass
class DamagedText:
    """A text made from punctuated words, with runs that lost their marks and
    case. Per word (record): whether it was stripped, and the offsets where it
    starts and ends in `text`."""

    text: str
    stripped: List[bool]
    starts: List[int]
    ends: List[int]


def damaged_text(
    records: Sequence[WordRecord],
    rng: random.Random,
    max_sentences: int = 6,
    strip_all: float = 0.0,
    lower_all: float = 0.0,
    strip_none: float = 0.0,
    within: float = 0.0,
) -> DamagedText:
    """The words as written, but for runs of 1 to `max_sentences` whole
    sentences that lose their marks and case: stripped and intact runs
    alternate (the first one either), so that about half the words are
    stripped. With probability `strip_all` every word is stripped, with
    `strip_none` none; with `lower_all`, every word is lower-cased and the
    runs lose their marks only (punctuated text without capitals). With
    probability `within`, each edge of a run moves into the intact sentence
    beside it, as where a recogniser's marks vanish or come back in the
    middle of a sentence (`Today I want to talk about the budget it was ...`)."""
    sentences = sentence_spans([record.mark for record in records])
    draw = rng.random()
    everything, nothing = draw < strip_all, strip_all <= draw < strip_all + strip_none
    lowered = not everything and rng.random() < lower_all
    stripped_sentences: List[bool] = []
    strip = rng.random() < 0.5
    while len(stripped_sentences) < len(sentences):
        stripped_sentences += [(strip or everything) and not nothing] * rng.randint(1, max_sentences)
        strip = not strip
    flags = [strip for (start, end), strip in zip(sentences, stripped_sentences) for _ in range(start, end)]
    if within > 0:
        flags = _edges_within(flags, sentences, rng, within)
    parts: List[str] = []
    starts: List[int] = []
    ends: List[int] = []
    position = 0
    for record, strip in zip(records, flags):
        text = record.text.lower() if strip or lowered else record.text
        parts.append(text)
        starts.append(position)
        position += len(text)
        ends.append(position)
        if record.mark and not strip:
            mark = " " + record.mark if record.mark in _SPACED_MARKS else record.mark
            parts.append(mark)
            position += len(mark)
        if record.space:
            parts.append(" ")
            position += 1
    return DamagedText("".join(parts).rstrip(" "), flags, starts, ends)


def _edges_within(
    flags: List[bool], sentences: Sequence[Tuple[int, int]], rng: random.Random, within: float
) -> List[bool]:
    """The stripped flags of whole sentences, each run's edges moved with
    probability `within` into the sentence beside it, leaving that sentence
    at least one intact word."""
    flags = list(flags)
    sentence_of = [k for k, (start, end) in enumerate(sentences) for _ in range(start, end)]
    k = 0
    while k < len(flags):
        if not flags[k]:
            k += 1
            continue
        end = k
        while end < len(flags) and flags[end]:
            end += 1
        if k > 0 and rng.random() < within:  # the marks vanish within the sentence before
            first = sentences[sentence_of[k - 1]][0]
            intact = 0
            while k - intact - 1 >= first and not flags[k - intact - 1]:
                intact += 1
            if intact >= 2:
                moved = rng.randint(1, intact - 1)
                flags[k - moved : k] = [True] * moved
        if end < len(flags) and rng.random() < within:  # they come back within the sentence after
            last = sentences[sentence_of[end]][1]
            if last - end >= 2:
                moved = rng.randint(1, last - end - 1)
                flags[end : end + moved] = [True] * moved
                end += moved
        k = end
    return flags


def damaged_doc(vocab: Vocab, records: Sequence[WordRecord], damaged: DamagedText) -> Doc:
    """The damaged text as a doc of the records' words, each kept mark a token
    of its own after its word: the words as the training text has them,
    whatever a tokenizer would make of `U.S.` or `[UNK]`."""
    words: List[str] = []
    spaces: List[bool] = []
    for record, stripped, start, end in zip(records, damaged.stripped, damaged.starts, damaged.ends):
        words.append(damaged.text[start:end])
        if record.mark and not stripped:
            spaces.append(record.mark in _SPACED_MARKS)
            words.append(record.mark)
        spaces.append(record.space)
    if spaces:
        spaces[-1] = False
    return Doc(vocab, words=words, spaces=spaces)


def slot_records(table: TokenTable, slots: MarkSlots, ends: Sequence[int]) -> List[Optional[int]]:
    """Per slot of a doc made from a `DamagedText`, the record (word) that
    ends where the slot's word ends; None where none does."""
    by_end: Dict[int, int] = {end: k for k, end in enumerate(ends)}
    return [by_end.get(table.idx[i] + len(table.texts[i])) for i in slots.words]


def n_features(label_set: LabelSet) -> int:
    """The width of `repair_features`' rows."""
    return 2 * len(label_set) + 1 + _CASES + 2 + _GAPS


def repair_features(table: TokenTable, slots: MarkSlots, probs: numpy.ndarray, label_set: LabelSet) -> numpy.ndarray:
    """One row per mark slot: the punctuator's probabilities at the slot's
    word (the first columns, which the head's scores correct: see
    `repaired_probs`), the class of the mark the input has there (or "another mark": one
    the set does not write), the word's case as written, and whether the
    text has any capital and any mark, and how far the slot is from the
    input's marks before and after it (a long stretch without one is what
    a recogniser leaves where its marks vanished, wherever it starts)."""
    n_labels = len(label_set)
    rows = numpy.zeros((len(slots.words), n_features(label_set)), dtype="f")
    if not slots.words:
        return rows
    rows[:, :n_labels] = probs[slots.words]
    for row, i in enumerate(slots.words):
        existing = slots.existing.get(i)
        if existing:
            column = label_set.class_of(existing) if label_set.writes(existing) else n_labels
            rows[row, n_labels + column] = 1.0
        rows[row, 2 * n_labels + 1 + _case(table.texts[_word_start(table, i)])] = 1.0
    flags = 2 * n_labels + 1 + _CASES
    rows[:, flags] = float(rows[:, 2 * n_labels + 2 : 2 * n_labels + 4].any())  # any capital
    rows[:, flags + 1] = float(bool(slots.existing))
    rows[:, flags + 2 :] = _gaps([i in slots.existing for i in slots.words])
    return rows


def _gaps(marked: Sequence[bool]) -> numpy.ndarray:
    """Per slot: the slots since the last one with a mark of the input and
    until the next (this one included), and their sum, on a log scale."""
    n = len(marked)
    before = numpy.zeros(n, dtype="f")
    after = numpy.zeros(n, dtype="f")
    last = -1
    for k in range(n):
        before[k] = k - last
        if marked[k]:
            last = k
    following = n
    for k in range(n - 1, -1, -1):
        if marked[k]:
            following = k
        after[k] = following - k
    gaps = numpy.stack([before, after, before + after], axis=1)
    return numpy.minimum(numpy.log1p(gaps) / numpy.log(_GAP_SCALE), 2.0)


def repaired_probs(features: numpy.ndarray, scores: numpy.ndarray) -> numpy.ndarray:
    """The class probabilities of the slots: the head's scores added to the
    log of the punctuator's probabilities (the head learns corrections), as a
    softmax."""
    n_labels = scores.shape[1] - 1
    logits = numpy.log(features[:, :n_labels] + 1e-6) + scores[:, :n_labels]
    exp = numpy.exp(logits - logits.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


def _word_start(table: TokenTable, i: int) -> int:
    """The first token of the word written together with token `i` (`Do` of `Don't`)."""
    while i > 0 and not (table.spaced[i - 1] or table.is_space[i - 1] or table.punct[i - 1]):
        i -= 1
    return i


def _case(text: str) -> int:
    if not any(char.isalpha() for char in text):
        return 3
    if text == text.lower():
        return 0
    return 2 if text == text.upper() and len(text) > 1 else 1


def missing_stretches(slots: MarkSlots, min_run: int = MISSING_RUN) -> Set[int]:
    """The slot words of stretches that miss their marks: `min_run` words or
    more with no mark of the input between them (the whole text where it has
    none)."""
    missing: Set[int] = set()
    run: List[int] = []
    for i in slots.words:
        run.append(i)
        if i in slots.existing:
            if len(run) >= min_run:
                missing.update(run[:-1])
            run = []
    if len(run) >= min_run or not slots.existing:
        missing.update(run)
    return missing


def case_missing(table: TokenTable, slots: MarkSlots, stripped: Set[int], min_run: int = CASE_RUN) -> Set[int]:
    """The slot words whose case counts as missing: those of each run between
    two marks of the input that holds a word of `stripped` (the words found
    missing their marks), and those of each run of `min_run` words or more
    whose words after the first have no capital."""
    missing: Set[int] = set()
    for run in _runs(slots):
        if any(i in stripped for i in run) or (
            len(run) >= min_run and all(_case(table.texts[j]) in (0, 3) for j in _tokens_after_first(table, run))
        ):
            missing.update(run)
    return missing


def _runs(slots: MarkSlots) -> List[List[int]]:
    """The slot words in runs, each ending at a word the input gives a mark."""
    runs: List[List[int]] = [[]]
    for i in slots.words:
        runs[-1].append(i)
        if i in slots.existing:
            runs.append([])
    return [run for run in runs if run]


def _tokens_after_first(table: TokenTable, run: List[int]) -> List[int]:
    """The tokens of a run's words after its first word."""
    return list(range(run[0] + 1, run[-1] + 1))
