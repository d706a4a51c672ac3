"""The word level: which tokens are words and which are punctuation (the
token table), the marks written after each word, a doc's mark slots (where a
mark may go, the marks the text has there, the runs of marks standing alone),
abbreviations, whether a text breaks off unfinished, and its sentences by
the marks after its words. Everything that reads
a doc's words and marks reads them through this module: the decoder, the
rewrite, the alignment of predicted and reference words (`align.py`), the
records and the converters' statistics.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from spacy.attrs import IDX, IS_ASCII, IS_SPACE, ORTH, POS, SPACY
from spacy.symbols import PUNCT
from spacy.tokens import Doc
from spacy.util import get_lang_class

from .extensions import token_values
from .labels import EMPTY, LABEL_MARKS, ends_sentence, is_mark, is_replaceable, stronger, written_label
from .languages import language_rules

_DOTTED = re.compile(r"^(\w\.)+\w$")  # u.s, e.g, p.m
# closing brackets and quotes: written straight after a word, a mark goes after them
_CLOSING = frozenset({")", "]", "}", "'", "’", '"', "”", "»", "›"})
_ELLIPSES = frozenset({"...", "…", ". . ."})
_DASHES = frozenset({"-", "--", "–", "—"})
# marks that break a sentence off unfinished (`and then -`, `but ...`)
_BREAKS = _ELLIPSES | _DASHES
# a recogniser's or caption's tag for what is not a word: [Music], [laughter], <unk>, {noise}
_TAG = re.compile(r"^(\[[^\W\d][\w-]*\]|<[^\W\d][\w-]*>|\{[^\W\d][\w-]*\})$")
_TAG_OPENERS = frozenset({"[", "<", "{"})
# a tag of several words in square brackets, as Whisper writes them: [MUSIC PLAYING], [inaudible 00:12]
_TAG_WORDS = re.compile(r"^\[[^\W\d][^\[\]]*\]$")
_MAX_TAG_WORDS = 6


@dataclass
class TokenTable:
    """A doc's tokens as plain lists, read from the doc at once: much faster
    than a Token object per token on the paths every doc takes."""

    texts: List[str]
    spaced: List[bool]  # whitespace follows the token
    is_space: List[bool]  # the token is whitespace, format characters or a tag (see `tag_tokens`)
    punct: List[bool]  # the token is punctuation (see `punct_flags`)
    idx: List[int]  # character offsets
    lang: str

    def __len__(self) -> int:
        return len(self.texts)


def token_table(doc: Doc) -> TokenTable:
    """The doc's `TokenTable`."""
    columns = doc.to_array([ORTH, SPACY, IS_SPACE, IDX, POS, IS_ASCII]).tolist() if len(doc) else []
    strings = doc.vocab.strings
    texts = [strings[row[0]] for row in columns]
    # format characters are not ASCII
    is_space = [bool(row[2]) or (not row[5] and is_invisible(text)) for row, text in zip(columns, texts)]
    spaced = [bool(row[1]) for row in columns]
    for i in tag_tokens(texts, spaced, is_space):
        is_space[i] = True
    if any(row[4] for row in columns):  # part of speech is annotated
        punct = [row[4] == PUNCT and not space for row, space in zip(columns, is_space)]
    else:
        punct = [not space and _is_mark(text) for text, space in zip(texts, is_space)]
    return TokenTable(
        texts=texts,
        spaced=spaced,
        is_space=is_space,
        punct=punct,
        idx=[row[3] for row in columns],
        lang=doc.lang_,
    )


@lru_cache(maxsize=100_000)
def _is_mark(text: str) -> bool:
    return is_mark(text)


@lru_cache(maxsize=100_000)
def is_invisible(text: str) -> bool:
    """Whether a token is of format characters alone (a zero-width space, a
    byte-order mark, a word joiner): whitespace to the word level and the
    models (`layers.spaces`), so no mark is written after it."""
    return bool(text) and all(unicodedata.category(c) == "Cf" or c.isspace() for c in text)


def is_tag(word: str) -> bool:
    """Whether a written word is a recogniser's or a caption's tag (see `tag_tokens`)."""
    return bool(_TAG.match(word))


def tag_tokens(texts: Sequence[str], spaced: Sequence[bool], is_space: Sequence[bool]) -> List[int]:
    """The tokens of the written words that are a recogniser's or a
    caption's tag for what is not a word (`[Music]`, `[laughter]`, `<unk>`,
    `{noise}`, and up to six words in square brackets: `[MUSIC PLAYING]`):
    whitespace to the word level and the models, so that no mark is written
    after one, its case stays, and a sentence's capital goes to the word
    after it."""
    if _TAG_OPENERS.isdisjoint(texts):
        return []
    words = _written_words(spaced, is_space)
    found: List[int] = []
    k = 0
    while k < len(words):
        start, end = words[k]
        last = k if is_tag("".join(texts[start : end + 1])) else _bracketed_words(texts, words, k)
        if last is not None:
            found.extend(range(start, words[last][1] + 1))
            k = last
        k += 1
    return found


def _written_words(spaced: Sequence[bool], is_space: Sequence[bool]) -> List[Tuple[int, int]]:
    """The first and last token of each written word (tokens between whitespace)."""
    words: List[Tuple[int, int]] = []
    start, n = 0, len(spaced)
    for end in range(n):
        if is_space[end]:
            start = end + 1
        elif spaced[end] or end + 1 == n or is_space[end + 1]:
            words.append((start, end))
            start = end + 1
    return words


def _bracketed_words(texts: Sequence[str], words: Sequence[Tuple[int, int]], k: int) -> Optional[int]:
    """The last of the written words from `k` that a square bracket opened
    there closes, where they make a tag (`[MUSIC PLAYING]`); else None."""
    if texts[words[k][0]] != "[":
        return None
    said = []
    for j in range(k, min(k + _MAX_TAG_WORDS, len(words))):
        said.append("".join(texts[words[j][0] : words[j][1] + 1]))
        if "]" in said[-1]:
            return j if j > k and _TAG_WORDS.match(" ".join(said)) else None
    return None


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


def is_natural_table(table: TokenTable, marks: List[Optional[str]]) -> bool:
    return any(table.punct) and all(mark is None for mark in marks)


def is_natural_text(doc: Doc) -> bool:
    """Whether the doc is natural punctuated text (marks written as tokens, no
    `token._.punct`) rather than the gold form (bare words with `token._.punct`)."""
    table = token_table(doc)
    return is_natural_table(table, token_values(doc, "punct", table.idx))


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
        self.standing: Set[int] = (
            set()
        )  # words followed by a dash or a run of marks standing alone (`why !! london`): kept

    def __len__(self) -> int:
        return len(self.words)

    def anchor(self, word: int) -> int:
        """The token after which a mark for `word` is written."""
        return self.anchors.get(word, word)


def mark_slots(doc: Doc, table: Optional[TokenTable] = None) -> MarkSlots:
    """The doc's mark slots.

    Marks of the label set (`,` `.` `?` `!` `:` `;` `...`) standing between a
    slot's word and the next word are the slot's existing punctuation, which a
    prediction may replace. A dash there, or a run of marks standing alone
    (`why !! london`), is the writer's own and stays as it is. Quotes, brackets, abbreviation periods and punctuation inside a word
    (`win-win`, `c:/users`) are never part of it.
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
            elif text in _DASHES and not (glued and text == "-"):  # a hyphen written onto a word is no dash
                # the writer's own break: kept, and no mark is written before it
                # (`well - maybe`, not `well, - maybe`)
                slots.standing.add(current)
                existing[current] = stronger(existing.get(current, ""), LABEL_MARKS["DASH"])
            elif glued and text in _CLOSING and anchors.get(current, current) == i - 1:
                anchors[current] = i
        glued = glued and not spaced
    return slots


def _run_end(t: TokenTable, i: int) -> int:
    """The last token of the marks written together from token i on."""
    while not t.spaced[i] and i + 1 < len(t.texts) and t.punct[i + 1] and not t.is_space[i + 1]:
        i += 1
    return i


def sentence_spans(marks: Sequence[Optional[str]]) -> List[Tuple[int, int]]:
    """The sentences of a run of words by the mark after each (None: no
    gold): (start, end) word ranges that cover the run, each but perhaps the
    last ending with a mark that ends a sentence. The one walk over
    sentence-final marks that the training reader's short texts, the
    augmenters and the decoder's sentence starts read."""
    spans: List[Tuple[int, int]] = []
    start = 0
    for i, mark in enumerate(marks):
        if mark and ends_sentence(mark):
            spans.append((start, i + 1))
            start = i + 1
    if start < len(marks):
        spans.append((start, len(marks)))
    return spans


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
