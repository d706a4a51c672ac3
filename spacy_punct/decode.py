"""Probabilities -> decisions: the class per token (argmax, per-class
thresholds, Cai & Wang's margins, a sentence end decided first), the mark per token under the doc's masks
(only mark slots take marks; existing marks kept or matched), and the sentence
starts that follow from the marks. The annotations and the rewrite both read
these decisions, so each rule exists here once. `DecisionSettings` holds the
choices a caller may make (thresholds, margins, the sentence end, existing
marks, closing the last sentence): a component keeps its configured settings, and a caller passes
others per call instead of changing the component."""

import dataclasses
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Sequence, Set, Tuple

import numpy
from spacy.tokens import Doc

from .casing import is_symbol
from .labels import LabelSet, ends_sentence
from .languages import language_rules
from .merge import HeardMarks
from .words import MarkSlots, TokenTable, ends_broken_off, mark_slots, sentence_spans, token_table


def check_settings(
    label_set: LabelSet,
    thresholds: Optional[Mapping[str, float]] = None,
    margins: Optional[Mapping[str, float]] = None,
    names: Tuple[str, str] = ("Thresholds", "Margins"),
) -> None:
    """Raise if a threshold or margin names a class the set lacks or is not
    a number from 0 to 1; `names`: the two settings' names in the message."""
    for setting, values in zip(names, (thresholds or {}, margins or {})):
        label_set.check_known(values, setting)
        _check_shares(values, setting)


def _check_shares(values: Mapping[str, float], setting: str) -> None:
    for label, value in values.items():
        if not 0.0 <= value <= 1.0:
            named = f"{label}={value}" if label else str(value)
            raise ValueError(f"{setting} {named}: give a number from 0 to 1.")


@dataclass(frozen=True)
class DecisionSettings:
    """How class probabilities become marks.

    thresholds: per class, the probability from which its mark is written
        (and below which it never is; see `decide`).
    margins: per class, Cai & Wang's margin (see `decide`).
    keep_existing: keep punctuation already in the input and only fill gaps.
    add_marks: False writes no mark of its own and keeps the input's (text
        that is punctuated already: only case changes).
    close_last_sentence: a doc is a whole text, so its last word ends a
        sentence (see `decode`).
    repair: the text is punctuated and cased but where its marks vanished:
        every mark and capital it has stays, and marks and case are filled
        only where they are missing (see `Punctuator.decide`).
    end_threshold: above 0, whether a sentence ends is decided first: it
        ends where the sentence-final classes' probabilities together reach
        this; which final mark, or elsewhere which other class, is then
        decided on the classes' shares of their group (see `end_shares`),
        to which `thresholds` and `margins` apply.
    merge: the text is punctuated by a recogniser whose marks are evidence,
        not truth: each slot's probabilities are weighed with the mark the
        recogniser wrote there (`merge.merged_probs`), and every mark is
        decided again.
    heard_marks: the counts `merge` weighs the recogniser's marks by
        (`merge.HeardMarks`; default: the shipped ones, Whisper's).
    lone_word_sentences: False keeps no sentence of one word between two
        ends the punctuator wrote (`Segíthetek? Ma? Önnek?`), but for the
        language's interjections: the less sure end goes; True keeps them
        but for the language's words of a clause (`channel. Today. We`;
        see `join_lone_words`).
    """

    thresholds: Mapping[str, float] = field(default_factory=dict)
    margins: Mapping[str, float] = field(default_factory=dict)
    keep_existing: bool = False
    add_marks: bool = True
    close_last_sentence: bool = False
    repair: bool = False
    end_threshold: float = 0.0
    lone_word_sentences: bool = True
    merge: bool = False
    heard_marks: Optional[HeardMarks] = None

    def __post_init__(self) -> None:
        if self.merge and (self.repair or self.keep_existing or not self.add_marks):
            raise ValueError("merge decides every mark again: it cannot go with repair, keep_existing or no add_marks.")
        _check_shares(self.thresholds, "Thresholds")
        _check_shares(self.margins, "Margins")
        _check_shares({"": self.end_threshold}, "The end threshold")

    def replace(self, **changes: Any) -> "DecisionSettings":
        """A copy with the given settings changed; a value of None changes nothing."""
        return dataclasses.replace(self, **{key: value for key, value in changes.items() if value is not None})


def threshold_scores(
    probs: numpy.ndarray, label_set: LabelSet, thresholds: Optional[Mapping[str, float]] = None
) -> numpy.ndarray:
    """Per row and class, a score whose largest value is the class chosen
    under `thresholds` (see `decide`): a class with a threshold scores -1
    below it and 1 + p at or above it; other classes score p."""
    probs = numpy.asarray(probs, dtype="float64")  # float32 would lose 1 + p for a tiny p
    scores = probs.copy()
    for label, threshold in (thresholds or {}).items():
        column = label_set.index(label)
        if column == 0:
            continue
        reached = probs[:, column] >= threshold
        scores[~reached, column] = -1.0
        scores[reached, column] += 1.0
    return scores


def end_shares(probs: numpy.ndarray, label_set: LabelSet, end_threshold: float) -> numpy.ndarray:
    """Each row's probabilities as shares of its group: where the
    sentence-final classes together reach `end_threshold`, those classes'
    shares of their sum (the others 0); elsewhere the other classes' shares
    of theirs. A row whose end is unsure (`so ... ma ... önnek`) then takes
    no sentence end from a final class alone reaching its threshold."""
    probs = numpy.asarray(probs, dtype="float64")
    final = label_set.final_mask
    if not final.any() or not len(probs):
        return probs
    ends = probs[:, final].sum(axis=1) >= end_threshold
    group = numpy.where(ends[:, None], final[None, :], ~final[None, :])
    kept = numpy.where(group, probs, 0.0)
    return kept / numpy.maximum(kept.sum(axis=1, keepdims=True), 1e-12)


def decide(
    probs: numpy.ndarray,
    label_set: LabelSet,
    thresholds: Optional[Mapping[str, float]] = None,
    margins: Optional[Mapping[str, float]] = None,
    end_threshold: float = 0.0,
) -> numpy.ndarray:
    """The class index per row of `probs`.

    thresholds: a class with a threshold is chosen wherever its probability
        reaches the threshold (the most probable such class first), and never
        below it; elsewhere the most probable class wins.
    margins: Cai & Wang (2019): a mark q with margin ξ is written only if
        (p(q) - p(w)) / p(q) > ξ for every other class w; else EMPTY.
    end_threshold: above 0, the sentence end is decided first and the
        thresholds and margins apply to the shares of `end_shares`.
    """
    margins = dict(margins or {})
    check_settings(label_set, thresholds, margins)
    if not len(probs):
        return numpy.zeros((0,), dtype="i")
    probs = numpy.asarray(probs, dtype="float64")
    if end_threshold:
        probs = end_shares(probs, label_set, end_threshold)
    guesses = threshold_scores(probs, label_set, thresholds).argmax(axis=1)
    for label, margin in margins.items():
        column = label_set.index(label)
        if column == 0:
            continue
        rows = numpy.flatnonzero(guesses == column)
        chosen = probs[rows, column]
        others = numpy.delete(probs[rows], column, axis=1).max(axis=1, initial=0.0)
        relative = (chosen - others) / numpy.maximum(chosen, 1e-12)
        guesses[rows[relative <= margin]] = 0
    return guesses


def closing_mark(
    probs: numpy.ndarray,
    label_set: LabelSet,
    thresholds: Optional[Mapping[str, float]] = None,
    end_threshold: float = 0.0,
) -> str:
    """The sentence-final mark for a text's last word, whose class
    probabilities are `probs`: the most probable final class whose threshold
    (if any) is reached; the most probable final class where none is. With
    an `end_threshold`, the thresholds apply to the final classes' shares of
    their sum, as `decide` reads them where a sentence ends."""
    final = numpy.flatnonzero(label_set.final_mask)
    if not len(final):
        return ""
    if end_threshold:
        probs = end_shares(probs[None, :], label_set, 0.0)[0]
    scores = threshold_scores(probs[None, :], label_set, thresholds)[0, final]
    if scores.max() < 0:
        scores = numpy.asarray(probs, dtype="float64")[final]
    return label_set.mark(int(final[numpy.argmax(scores)]))


@dataclass
class Decisions:
    """What the punctuator decided for one doc."""

    marks: List[str]  # per token: the canonical mark after it ("" for none)
    sent_starts: List[bool]  # per token: whether it starts a sentence
    slots: MarkSlots  # the doc's mark slots, for the rewrite
    table: TokenTable  # the doc's tokens, for the rewrite
    # the tokens whose case may change (None: all); the others keep theirs unless a sentence starts there
    case_fill: Optional[Set[int]] = None


def decode(
    doc: Doc,
    probs: numpy.ndarray,
    label_set: LabelSet,
    settings: DecisionSettings = DecisionSettings(),
    *,
    open_end: bool = False,
    mark_fill: Optional[Set[int]] = None,
    case_fill: Optional[Set[int]] = None,
) -> Decisions:
    """The marks and sentence starts of a doc from its class probabilities,
    decided under `settings`. With `mark_fill`, only those slot words take a
    mark the input does not have; `case_fill`: the tokens whose case may
    change (None: all).

    Only mark slots take marks (not whitespace, punctuation, or words written
    together with the next one). A slot that already has a mark of the label
    set keeps it with `keep_existing`; otherwise the prediction decides, and a
    prediction of the class the existing mark counts as keeps that mark, and
    a mark the label set cannot write stays wherever any mark is predicted
    (`things: bread`, not `things. Bread`, in the default label set). A run of marks
    standing alone (`why !! london`), or a dash after a word, is always kept.
    With `close_last_sentence`, unless `open_end` (the doc is a piece of a
    text that goes on), the last word ends a sentence: where no
    sentence-final mark was decided there, the text's own final mark stays,
    an abbreviation's period ends it, a dash or an ellipsis that ends the text
    breaks it off (`and then -`), or else the `closing_mark` is written (not,
    with `keep_existing`, after a mark the text has there).
    """
    thresholds, margins = settings.thresholds, settings.margins
    keep_existing = settings.keep_existing or settings.repair
    close_end = settings.close_last_sentence and not open_end
    table = token_table(doc)
    slots = mark_slots(doc, table)
    marks = [""] * len(doc)
    if not settings.add_marks:
        for i, existing in slots.existing.items():
            marks[i] = existing
        return Decisions(marks, sentence_starts(table, marks), slots, table, case_fill)
    guesses = (
        decide(probs, label_set, thresholds, margins, settings.end_threshold) if slots else numpy.zeros(0, dtype="i")
    )
    chosen = [label_set.mark(index) for index in guesses[slots.words].tolist()] if slots else []
    for i, mark in zip(slots.words, chosen):
        marks[i] = mark if mark_fill is None or i in mark_fill else ""
    for i, existing in slots.existing.items():
        guess = guesses[i]
        if (
            keep_existing
            or i in slots.standing
            or label_set.class_of(existing) == guess
            or (guess and not label_set.writes(existing))
        ):
            marks[i] = existing
    if close_end and slots:
        last = slots.words[-1]
        existing = slots.existing.get(last, "")
        if ends_sentence(marks[last]) or (keep_existing and existing):
            pass
        elif ends_sentence(existing):  # the text's own final mark, where the prediction was weaker
            marks[last] = existing
        elif last in slots.abbreviations:  # its period ends the text (and is not written twice)
            marks[last] = "."
        elif ends_broken_off(table, slots.anchor(last)):  # `and then -`: the dash ends it, no period before it
            pass
        else:
            marks[last] = closing_mark(probs[last], label_set, thresholds, settings.end_threshold)
    join_lone_words(
        table, slots, marks, probs, label_set, last_ends=close_end, all_words=not settings.lone_word_sentences
    )
    join_question_tags(table, slots, marks, label_set)
    drop_marks_after_symbols(table, slots, marks)
    return Decisions(marks, sentence_starts(table, marks), slots, table, case_fill)


def join_lone_words(
    table: TokenTable,
    slots: MarkSlots,
    marks: List[str],
    probs: numpy.ndarray,
    label_set: LabelSet,
    last_ends: bool = False,
    all_words: bool = False,
) -> None:
    """A word of the language's `clause_words` alone between two sentence
    ends the punctuator wrote belongs to one of the sentences beside it
    (`the channel today. We're`, or `the channel. Today, we're`): the end
    whose final classes are less probable becomes the most probable other
    class. With `all_words`, any word but the language's interjections
    (`yes. No.`) does. Marks of the input stay; with `last_ends`, the
    text's last word keeps its end."""
    final = label_set.final_mask
    rules = language_rules(table.lang)
    if not final.any() or not (all_words or rules.clause_words):
        return
    others = numpy.flatnonzero(~final)
    words = slots.words
    fixed = set(slots.existing) | slots.abbreviations
    for before, word in zip(words, words[1:]):
        if not (ends_sentence(marks[before]) and ends_sentence(marks[word])):
            continue
        if before in fixed or word in fixed:
            continue
        written = _written_word(table, slots.anchor(before), word)
        if written in rules.interjections or not (all_words or written in rules.clause_words):
            continue
        weaker = before
        if not (last_ends and word == words[-1]) and probs[word, final].sum() < probs[before, final].sum():
            weaker = word
        marks[weaker] = label_set.mark(int(others[numpy.argmax(probs[weaker, others])]))


def drop_marks_after_symbols(table: TokenTable, slots: MarkSlots, marks: List[str]) -> None:
    """A symbol (an emoji, `��`) takes no mark of its own: after a word with
    a mark it loses it (`trip? 😀 It`, not `trip? 😀? It`), unless it ends a
    sentence the word's mark did not (`trip, 😀. It`); after a word without
    one, the mark goes to the word (`trip? 😀 It`, not `trip 😀? It`). Marks
    of the input stay."""
    words = slots.words
    for k in range(1, len(words)):
        symbol = words[k]
        mark = marks[symbol]
        if not mark or symbol in slots.existing or not is_symbol(table.texts[symbol]):
            continue
        j = k - 1
        while j > 0 and not marks[words[j]] and is_symbol(table.texts[words[j]]):
            j -= 1  # a run of symbols: the word before them
        before = words[j]
        if not marks[before]:
            if not is_symbol(table.texts[before]):
                marks[before], marks[symbol] = mark, ""
        elif not ends_sentence(mark) or ends_sentence(marks[before]):
            marks[symbol] = ""


def join_question_tags(table: TokenTable, slots: MarkSlots, marks: List[str], label_set: LabelSet) -> None:
    """A question of a tag alone (`isn't it?`, the language's `tag_verbs`
    and `tag_subjects`) after a period the punctuator wrote is the tag of the
    sentence before: the period becomes a comma (`it's cold in here, isn't
    it?`, not `it's cold in here. isn't it?`). Marks of the input stay."""
    rules = language_rules(table.lang)
    if not rules.tag_verbs or not {"COMMA", "PERIOD", "QUESTION"} <= set(label_set.labels):
        return
    comma, period, question = (label_set.mark(label_set.index(label)) for label in ("COMMA", "PERIOD", "QUESTION"))
    words = slots.words
    for k in range(len(words) - 2):
        before, verb, subject = words[k : k + 3]
        if marks[before] != period or marks[verb] or marks[subject] != question:
            continue
        if before in slots.existing or before in slots.abbreviations or verb in slots.existing:
            continue
        if (
            _written_word(table, slots.anchor(before), verb) in rules.tag_verbs
            and _written_word(table, slots.anchor(verb), subject) in rules.tag_subjects
        ):
            marks[before] = comma


def _written_word(table: TokenTable, after: int, last: int) -> str:
    """The word ending at token `last` that follows token `after`: its
    tokens joined (`is` `n't`), lower-case, with a straight apostrophe."""
    parts = (table.texts[i] for i in range(after + 1, last + 1) if not (table.is_space[i] or table.punct[i]))
    return "".join(parts).lower().replace("’", "'")


def sentence_starts(table: TokenTable, marks: Sequence[str]) -> List[bool]:
    """Per token, whether it starts a sentence: the first token of the doc, and
    each first word after a mark that ends a sentence, or the first of the
    tags (`[Music]`) before that word. Whitespace before the first word
    belongs to the first sentence."""
    starts = [False] * len(table)
    words = [i for i, (is_space, is_punct) in enumerate(zip(table.is_space, table.punct)) if not (is_space or is_punct)]
    for start, _ in sentence_spans([marks[i] for i in words])[1:]:  # the first: the doc's first token
        first = k = words[start]
        while k > 0 and table.is_space[k - 1]:
            k -= 1
            if not table.texts[k].isspace():  # a tag: whitespace to the words, yet written
                first = k
        starts[first] = True
    if starts:
        starts[0] = True
    return starts
