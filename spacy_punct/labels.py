"""The punctuation classes, the written characters that map to them, and how a
label set is chosen.

Every written mark is stored as the canonical mark of its most specific class
(`!` stays `!`). A label set then maps the canonical mark to the first class in
its fallback chain that the set contains (`!` is PERIOD in the default set),
following Nagy et al. 2021, Table 1. One converted corpus therefore serves every
label set.
"""
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

EMPTY = "EMPTY"
DEFAULT_LABELS: Tuple[str, ...] = ("EMPTY", "COMMA", "PERIOD", "QUESTION")

# class -> the mark written for it
LABEL_MARKS: Dict[str, str] = {
    "EMPTY": "",
    "COMMA": ",",
    "PERIOD": ".",
    "QUESTION": "?",
    "EXCLAMATION": "!",
    "COLON": ":",
    "SEMICOLON": ";",
    "DASH": "-",
    "ELLIPSIS": "...",
}
MARK_LABELS: Dict[str, str] = {mark: label for label, mark in LABEL_MARKS.items()}

# class -> the class it counts as in a label set that lacks it
FALLBACK: Dict[str, str] = {
    "EXCLAMATION": "PERIOD",
    "SEMICOLON": "PERIOD",
    "ELLIPSIS": "PERIOD",
    "COLON": "COMMA",
    "DASH": "COMMA",
}

# classes after which a new sentence starts
SENTENCE_FINAL = frozenset({"PERIOD", "QUESTION", "EXCLAMATION"})

# when several marks follow one word (`?"`, `.)`), the first class here wins
PRIORITY: Tuple[str, ...] = (
    "QUESTION",
    "EXCLAMATION",
    "PERIOD",
    "ELLIPSIS",
    "SEMICOLON",
    "COLON",
    "DASH",
    "COMMA",
)

# written character -> class, for every script we support (Latin, Bengali, CJK
# full-width, Arabic). Quotes count as COMMA (Nagy et al.).
_CHAR_LABELS: Dict[str, str] = {
    ",": "COMMA", "，": "COMMA", "、": "COMMA", "،": "COMMA",
    '"': "COMMA", "“": "COMMA", "”": "COMMA", "„": "COMMA", "«": "COMMA", "»": "COMMA",
    ".": "PERIOD", "。": "PERIOD", "।": "PERIOD", "॥": "PERIOD",
    "?": "QUESTION", "？": "QUESTION", "؟": "QUESTION",
    "!": "EXCLAMATION", "！": "EXCLAMATION",
    ":": "COLON", "：": "COLON",
    ";": "SEMICOLON", "；": "SEMICOLON", "؛": "SEMICOLON",
    "…": "ELLIPSIS",
    "–": "DASH", "—": "DASH",
}
# punctuation that is dropped: it carries no class of its own
_DROPPED_CHARS = frozenset("()[]{}'‘’‹›¿¡*_/\\-‐‑")
_MARK_CHARS = frozenset(_CHAR_LABELS) | _DROPPED_CHARS

# words written with a capital in any position, per language
ALWAYS_CAPITALISED: Dict[str, frozenset] = {"en": frozenset({"i"})}


def is_mark(text: str) -> bool:
    """Whether a token is punctuation (made only of mark characters)."""
    return bool(text) and all(char in _MARK_CHARS for char in text)


def written_label(text: str, spaced: bool = False) -> Optional[str]:
    """The most specific class of a punctuation token, or None when it is dropped.

    spaced: whether whitespace stands before the token; a hyphen between spaces
    is a dash, inside a word it is dropped (`co-pilot` -> `co pilot`).
    """
    if not is_mark(text):
        return None
    if text in ("...", ". . ."):
        return "ELLIPSIS"
    if set(text) == {"-"}:
        return "DASH" if spaced or len(text) > 1 else None
    best = None
    for char in text:
        label = _CHAR_LABELS.get(char)
        if label is not None and (best is None or PRIORITY.index(label) < PRIORITY.index(best)):
            best = label
    return best


def stronger(first: str, second: str) -> str:
    """Of two canonical marks following one word, the one that is kept."""
    if not first:
        return second
    if not second:
        return first
    rank = PRIORITY.index
    return first if rank(MARK_LABELS[first]) <= rank(MARK_LABELS[second]) else second


def validate_labels(labels: Iterable[str]) -> List[str]:
    """Check a label set: known classes, EMPTY first, no duplicates."""
    labels = list(labels)
    unknown = [label for label in labels if label not in LABEL_MARKS]
    if unknown:
        raise ValueError(
            f"Unknown punctuation label(s) {unknown}. Known labels: {sorted(LABEL_MARKS)}."
        )
    if len(set(labels)) != len(labels):
        raise ValueError(f"Duplicate punctuation labels in {labels}.")
    if EMPTY in labels:
        labels.remove(EMPTY)
    return [EMPTY] + labels


def label_for_mark(mark: str, labels: Sequence[str]) -> str:
    """The class of a canonical mark within a label set (EMPTY when none fits)."""
    label = MARK_LABELS.get(mark, EMPTY)
    while label not in labels:
        if label not in FALLBACK:
            return EMPTY
        label = FALLBACK[label]
    return label


def labels_for_marks(marks: Iterable[str]) -> List[str]:
    """The most specific label set that covers a collection of canonical marks."""
    found = {MARK_LABELS[mark] for mark in marks if mark}
    return [EMPTY] + [label for label in PRIORITY[::-1] if label in found]


def capitalise(text: str) -> str:
    """Upper-case the first character, where that keeps the length (`ß` stays)."""
    if not text:
        return text
    first = text[0].upper()
    return first + text[1:] if len(first) == 1 else text


def punct_flags(doc: Doc) -> List[bool]:
    """Per token, whether it is punctuation rather than a word.

    A doc with part-of-speech annotation (converted treebanks and token lists
    set it) says so itself: PUNCT. Otherwise the characters decide. Whitespace
    tokens are neither.
    """
    if doc.has_annotation("POS"):
        return [token.pos_ == "PUNCT" for token in doc]
    return [not token.is_space and is_mark(token.text) for token in doc]


def marks_after(doc: Doc, punct: Optional[Sequence[bool]] = None) -> List[str]:
    """Per token, the canonical mark of the written punctuation that follows it.

    Punctuation tokens and whitespace tokens get ""; of several marks after one
    word the strongest counts; marks before the first word are ignored.
    `punct`: the doc's `punct_flags`, when already computed.
    """
    if punct is None:
        punct = punct_flags(doc)
    marks = [""] * len(doc)
    last_word: Optional[int] = None
    for token, is_punct in zip(doc, punct):
        if token.is_space:
            continue
        if not is_punct:
            last_word = token.i
        elif last_word is not None:
            spaced = token.i > 0 and bool(doc[token.i - 1].whitespace_)
            label = written_label(token.text, spaced)
            if label is not None:
                marks[last_word] = stronger(marks[last_word], LABEL_MARKS[label])
    return marks
