"""Which tokens are words and which are punctuation, the marks written after each
word, the mark slots of a doc, and the alignment of predicted and reference
words. The component's loss, the scorer, the tuner, the decoder, the rewrite
and the converters' statistics all read a doc through this module.

A mark is identified by the position, in the lower-cased words joined without
whitespace or punctuation, of the word it follows: two docs with the same words
align whatever their tokenisation, spacing and punctuation.
"""
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

from spacy.attrs import IDX, IS_SPACE, ORTH, POS, SPACY
from spacy.symbols import PUNCT
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import get_lang_class

from .casing import case_label, is_placeholder, is_symbol
from .extensions import token_values
from .labels import EMPTY, LABEL_MARKS, LabelSet, ends_sentence, is_mark, is_replaceable, stronger, written_label
from .languages import language_rules

_DOTTED = re.compile(r"^(\w\.)+\w$")  # u.s, e.g, p.m
# closing brackets and quotes: written straight after a word, a mark goes after them
_CLOSING = frozenset({")", "]", "}", "'", "’", '"', "”", "»", "›"})
_ELLIPSES = frozenset({"...", "…", ". . ."})
# marks that break a sentence off unfinished (`and then -`, `but ...`)
_BREAKS = _ELLIPSES | frozenset({"-", "--", "–", "—"})


@dataclass
class TokenTable:
    """A doc's tokens as plain lists, read from the doc at once: much faster
    than a Token object per token on the paths every doc takes."""

    texts: List[str]
    spaced: List[bool]  # whitespace follows the token
    is_space: List[bool]  # the token is whitespace
    punct: List[bool]  # the token is punctuation (see `punct_flags`)
    idx: List[int]  # character offsets
    lang: str

    def __len__(self) -> int:
        return len(self.texts)


def token_table(doc: Doc) -> TokenTable:
    """The doc's `TokenTable`."""
    columns = doc.to_array([ORTH, SPACY, IS_SPACE, IDX, POS]).tolist() if len(doc) else []
    strings = doc.vocab.strings
    texts = [strings[row[0]] for row in columns]
    is_space = [bool(row[2]) for row in columns]
    if any(row[4] for row in columns):  # part of speech is annotated
        punct = [row[4] == PUNCT for row in columns]
    else:
        punct = [not space and _is_mark(text) for text, space in zip(texts, is_space)]
    return TokenTable(
        texts=texts,
        spaced=[bool(row[1]) for row in columns],
        is_space=is_space,
        punct=punct,
        idx=[row[3] for row in columns],
        lang=doc.lang_,
    )


@lru_cache(maxsize=100_000)
def _is_mark(text: str) -> bool:
    return is_mark(text)


def punct_flags(doc: Doc) -> List[bool]:
    """Per token, whether it is punctuation rather than a word.

    A doc with part-of-speech annotation (converted treebanks and token lists
    set it) says so itself: PUNCT. Otherwise the characters decide. Whitespace
    tokens are neither.
    """
    return token_table(doc).punct


def marks_after(doc: Doc, table: Optional[TokenTable] = None) -> List[str]:
    """Per token, the canonical mark of the written punctuation that follows it
    (quotes and dashes included: the training targets of Nagy et al.).

    Punctuation tokens and whitespace tokens get ""; of several marks after one
    word the strongest counts; marks before the first word are ignored.
    `table`: the doc's `TokenTable`, when already read.
    """
    t = table or token_table(doc)
    marks = [""] * len(t)
    last_word: Optional[int] = None
    for i, (text, is_space, is_punct) in enumerate(zip(t.texts, t.is_space, t.punct)):
        if is_space:
            continue
        if not is_punct:
            last_word = i
        elif last_word is not None:
            label = written_label(text, i > 0 and t.spaced[i - 1])
            if label is not None:
                marks[last_word] = stronger(marks[last_word], LABEL_MARKS[label])
    return marks


def word_offsets(doc: Doc, table: Optional[TokenTable] = None) -> Tuple[str, List[Optional[int]]]:
    """The doc's words, lower-cased and joined, and per token the end offset of
    its word in that string (None for whitespace and punctuation tokens)."""
    t = table or token_table(doc)
    chars: List[str] = []
    ends: List[Optional[int]] = []
    length = 0
    for text, is_space, is_punct in zip(t.texts, t.is_space, t.punct):
        if is_space or is_punct:
            ends.append(None)
            continue
        lower = text.lower()
        chars.append(lower)
        length += len(lower)
        ends.append(length)
    return "".join(chars), ends


def _is_natural(table: TokenTable, marks: List[Optional[str]]) -> bool:
    return any(table.punct) and all(mark is None for mark in marks)


def is_natural_text(doc: Doc) -> bool:
    """Whether the doc is natural punctuated text (marks written as tokens, no
    `token._.punct`) rather than the gold form (bare words with `token._.punct`)."""
    table = token_table(doc)
    return _is_natural(table, token_values(doc, "punct", table.idx))


def input_mark_count(doc: Doc, label_set: LabelSet) -> int:
    """About how many marks of the label set the doc's input had: on a
    rewritten doc the words of its input text (`doc._.source_text`) that end
    in one, on any other doc its marks."""
    if doc._.source_text is not None:
        return sum(label_set.class_of(word[-1]) > 0 for word in doc._.source_text.split())
    return sum(label_set.class_of(text) > 0 for text in token_table(doc).texts)


def input_and_reference_marks(examples: Iterable[Example], label_set: LabelSet) -> Tuple[int, int]:
    """About how many marks of the label set the input of the examples with
    natural references had, and how many their references have: an input
    with half of them or more was the reference's own text (spaCy's
    `Corpus`, `spacy evaluate`), with nothing to restore."""
    natural = [eg for eg in examples if is_natural_text(eg.reference)]
    n_reference = sum(input_mark_count(eg.reference, label_set) for eg in natural)
    return sum(input_mark_count(eg.predicted, label_set) for eg in natural), n_reference


def doc_classes(doc: Doc, label_set: LabelSet) -> Tuple[str, Dict[int, int]]:
    """The doc's joined words and the class index of `token._.punct` after each
    word, keyed by the word's end offset (EMPTY left out; -1 where the mark is
    unknown: a reference word given as context only). A doc with
    punctuation and no `token._.punct` set is natural text: the marks
    written in it count."""
    table = token_table(doc)
    text, ends = word_offsets(doc, table)
    marks = token_values(doc, "punct", table.idx)
    if _is_natural(table, marks):
        # natural punctuated text, such as Example(make_doc(bare), make_doc(punctuated)):
        # the marks written in it are the gold
        marks = marks_after(doc, table)
    classes: Dict[int, int] = {}
    for mark, end in zip(marks, ends):
        if end is not None:
            index = UNKNOWN if mark is None and doc.has_unknown_spaces else label_set.class_of(mark)
            if index:
                classes[end] = index
    return text, classes


# the class of a word whose gold mark is not known
UNKNOWN = -1


def gold_classes(example: Example, label_set: LabelSet) -> List[int]:
    """Per predicted token, the class index of the reference's `token._.punct`
    after the same word; -1 for whitespace and punctuation tokens and for
    words whose mark is unknown."""
    pred_text, pred_ends = word_offsets(example.predicted)
    gold_text, gold = doc_classes(example.reference, label_set)
    if pred_text != gold_text:
        raise ValueError(
            "The predicted and reference docs of an example have different "
            f"words: {pred_text[:60]!r} vs {gold_text[:60]!r}."
        )
    return [-1 if end is None else gold.get(end, 0) for end in pred_ends]


def word_texts(doc: Doc) -> Dict[int, str]:
    """The doc's words as written, keyed by the end offset of each in the
    lower-cased joined words (see `word_offsets`)."""
    table = token_table(doc)
    _, ends = word_offsets(doc, table)
    return {end: text for text, end in zip(table.texts, ends) if end is not None}


def sentence_initial_words(doc: Doc) -> Set[int]:
    """The end offsets of the words that start a sentence in a doc with marks
    (gold form or natural text): the first word, and each word after a mark
    that ends a sentence, symbols such as emoji passed over."""
    table = token_table(doc)
    _, ends = word_offsets(doc, table)
    marks = [mark or "" for mark in token_values(doc, "punct", table.idx)]
    if not any(marks):
        marks = marks_after(doc, table)
    initial: Set[int] = set()
    sentence_open = False
    for text, end, mark in zip(table.texts, ends, marks):
        if end is None or (not sentence_open and is_symbol(text)):
            continue
        if not sentence_open:
            initial.add(end)
        sentence_open = not ends_sentence(mark)
    return initial


def cased_word_texts(doc: Doc) -> Dict[int, str]:
    """`word_texts` without placeholders such as `[UNK]`; empty for a doc
    written without capitals among the rest: an uncased corpus has no case to
    learn or score, even with placeholders inserted by the noise augmenter."""
    words = {end: text for end, text in word_texts(doc).items() if not is_placeholder(text)}
    return words if any(text != text.lower() for text in words.values()) else {}


def gold_case_classes(example: Example, labels: Tuple[str, ...], sentence_initial: bool = True) -> List[int]:
    """Per predicted token, the index in `labels` of the case class of the
    reference word ending at the same place; -1 for whitespace, punctuation,
    placeholders, words the reference does not have, sentence-initial words
    unless `sentence_initial`, and every word of a reference written without
    capitals (see `cased_word_texts`)."""
    _, pred_ends = word_offsets(example.predicted)
    gold = cased_word_texts(example.reference)
    if not gold:
        return [-1] * len(pred_ends)
    if not sentence_initial:
        for end in sentence_initial_words(example.reference):
            gold.pop(end, None)
    index = {label: i for i, label in enumerate(labels)}
    return [-1 if end is None or end not in gold else index[case_label(gold[end])] for end in pred_ends]


class MarkSlots:
    """Where marks can follow words in a doc: after the last word before
    whitespace or the end of the text (not `start` in `start-up`, not `do` in
    `don't`). Plain lists and dicts of token indices: one object per doc, not
    one per word, so that Python's garbage collector has little to scan."""

    __slots__ = ("words", "anchors", "existing", "written", "abbreviations", "standing")

    def __init__(self) -> None:
        self.words: List[int] = []  # the slots' word indices, in order
        self.anchors: Dict[int, int] = {}  # word -> token after which a mark goes, where not the word
        self.existing: Dict[int, str] = {}  # word -> canonical mark of its replaceable punctuation
        self.written: Dict[int, List[int]] = {}  # word -> those punctuation tokens
        self.abbreviations: Set[int] = set()  # words that end in an abbreviation period (`dr.`)
        self.standing: Set[int] = set()  # words followed by a run of marks standing alone (`why !! london`): kept

    def __len__(self) -> int:
        return len(self.words)

    def anchor(self, word: int) -> int:
        """The token after which a mark for `word` is written."""
        return self.anchors.get(word, word)


def mark_slots(doc: Doc, table: Optional[TokenTable] = None) -> MarkSlots:
    """The doc's mark slots.

    Marks of the label set (`,` `.` `?` `!` `:` `;` `...`) standing between a
    slot's word and the next word are the slot's existing punctuation, which a
    prediction may replace. Quotes, dashes, brackets, abbreviation periods and
    punctuation inside a word (`win-win`, `c:/users`) are never part of it.
    """
    t = table or token_table(doc)
    abbreviations = _abbreviations(t.lang)
    texts = t.texts
    slots = MarkSlots()
    words, anchors, existing, written = slots.words, slots.anchors, slots.existing, slots.written
    current = -1  # the last word
    glued = False  # no whitespace since the last word
    for i, (text, spaced, is_space, is_punct) in enumerate(zip(texts, t.spaced, t.is_space, t.punct)):
        if is_space:
            glued = False
            continue
        if not is_punct:
            if current >= 0 and glued:
                words.pop()  # written together with this word: not a slot
                anchors.pop(current, None)
                existing.pop(current, None)
                written.pop(current, None)
                slots.abbreviations.discard(current)
                slots.standing.discard(current)
            current = i
            words.append(i)
            if len(text) > 2 and text.endswith(".") and _is_abbreviation(text[:-1], abbreviations):
                slots.abbreviations.add(i)  # a word with its period in one token (`e.g.`)
            glued = not spaced
            continue
        if current >= 0:
            if glued and i == current + 1 and text == "." and _is_abbreviation(texts[current], abbreviations):
                slots.abbreviations.add(current)
                anchors[current] = i
            elif text in _ELLIPSES and not glued:
                pass  # an ellipsis standing alone (`well ... i think`) is a pause the speaker wrote: kept
            elif is_replaceable(text):
                if not glued and (len(text) > 1 or _run_end(t, i) > i):
                    slots.standing.add(current)  # `why !! london`: the writer's own, never replaced
                written.setdefault(current, []).append(i)
                mark = LABEL_MARKS[written_label(text) or EMPTY]
                existing[current] = stronger(existing.get(current, ""), mark)
            elif glued and text in _CLOSING and anchors.get(current, current) == i - 1:
                anchors[current] = i
        glued = glued and not spaced
    return slots


def _run_end(t: TokenTable, i: int) -> int:
    """The last token of the marks written together from token i on."""
    while not t.spaced[i] and i + 1 < len(t.texts) and t.punct[i + 1] and not t.is_space[i + 1]:
        i += 1
    return i


def ends_broken_off(table: TokenTable, word: int) -> bool:
    """Whether nothing but marks follows token `word` and the last of them is a
    dash or an ellipsis: the text breaks off unfinished (`and then -`)."""
    rest = [text for text, is_space in zip(table.texts[word + 1 :], table.is_space[word + 1 :]) if not is_space]
    return bool(rest) and rest[-1] in _BREAKS and all(_is_mark(text) for text in rest)


def _is_abbreviation(word: str, abbreviations: FrozenSet[str]) -> bool:
    """Whether a word followed by a period is an abbreviation (`dr`, `u.s`)."""
    return bool(_DOTTED.match(word)) or word in abbreviations or word.lower() in abbreviations


@lru_cache(maxsize=None)
def _abbreviations(lang: str) -> FrozenSet[str]:
    """Words written with a period of their own in a language: its tokenizer
    exceptions (`Dr.`, `e.g.`) and the lower-case forms listed here."""
    try:
        exceptions = get_lang_class(lang).Defaults.tokenizer_exceptions
    except Exception:
        exceptions = {}
    listed = {key[:-1] for key in exceptions if len(key) > 2 and key.endswith(".")}
    return frozenset(listed) | language_rules(lang).lower_abbreviations
