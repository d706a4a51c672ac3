"""The punctuation classes, the written characters that map to them, and the
label set: one object per component that turns marks into classes and back.

Every written mark is stored as the canonical mark of its most specific class
(`!` stays `!`). A label set then maps the canonical mark to the first class in
its fallback chain that the set contains (`!` is PERIOD in the default set),
following Nagy et al. 2021, Table 1. One converted corpus therefore serves every
label set.
"""

from typing import Dict, Iterable, Iterator, List, Optional, Tuple

import numpy

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

# classes whose written mark ends a sentence, whatever class it counts as in a
# label set (`;` counts as PERIOD for scoring but does not end a sentence)
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
# full-width, Arabic)
_MARK_CHARS_BY_LABEL: Dict[str, str] = {
    "COMMA": ",，、،",
    "PERIOD": ".。।॥",
    "QUESTION": "?？؟",
    "EXCLAMATION": "!！",
    "COLON": ":：",
    "SEMICOLON": ";；؛",
    "ELLIPSIS": "…",
    "DASH": "–—",
}
# quotes count as COMMA in training data (Nagy et al.), but are never replaced
QUOTES = frozenset('"“”„«»')
_CHAR_LABELS: Dict[str, str] = {char: label for label, chars in _MARK_CHARS_BY_LABEL.items() for char in chars}
_CHAR_LABELS.update({char: "COMMA" for char in QUOTES})
# punctuation that is dropped: it carries no class of its own
_DROPPED_CHARS = frozenset("()[]{}'‘’‹›¿¡*_/\\-‐‑")
_MARK_CHARS = frozenset(_CHAR_LABELS) | _DROPPED_CHARS
# marks that a prediction may replace: sentence and clause marks, not quotes or dashes
_REPLACEABLE_CHARS = frozenset(
    char
    for label in ("COMMA", "PERIOD", "QUESTION", "EXCLAMATION", "COLON", "SEMICOLON", "ELLIPSIS")
    for char in _MARK_CHARS_BY_LABEL[label]
)


# marks the training reader never leaves among the words a model reads:
# sentence and clause marks, double quotes, brackets (a dash, a slash or an
# apostrophe can stand there as a word, where a treebank tags it so)
_UNREAD_CHARS = _REPLACEABLE_CHARS | QUOTES | frozenset("()[]{}")


def is_unread_mark(text: str) -> bool:
    """Whether a token is punctuation that no model reads in training (`,`
    `?!` `"` `(`): the models' inputs leave it out (`layers.spaces`)."""
    return bool(text) and all(char in _UNREAD_CHARS for char in text)


def is_mark(text: str) -> bool:
    """Whether a token is punctuation (made only of mark characters)."""
    return bool(text) and all(char in _MARK_CHARS for char in text)


def is_replaceable(text: str) -> bool:
    """Whether a punctuation token is one a prediction may replace (`,` `.` `?!`
    `...`), rather than one always kept (quotes, dashes, brackets, hyphens)."""
    return bool(text) and all(char in _REPLACEABLE_CHARS for char in text)


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


def ends_sentence(mark: str) -> bool:
    """Whether a canonical mark ends a sentence (`.` `?` `!`, not `;`)."""
    return MARK_LABELS.get(mark) in SENTENCE_FINAL


def validate_labels(labels: Iterable[str]) -> List[str]:
    """Check a label set: known classes, EMPTY first, no duplicates."""
    labels = list(labels)
    unknown = [label for label in labels if label not in LABEL_MARKS]
    if unknown:
        raise ValueError(f"Unknown punctuation label(s) {unknown}. Known labels: {sorted(LABEL_MARKS)}.")
    if len(set(labels)) != len(labels):
        raise ValueError(f"Duplicate punctuation labels in {labels}.")
    if EMPTY in labels:
        labels.remove(EMPTY)
    return [EMPTY] + labels


def labels_for_marks(marks: Iterable[str]) -> List[str]:
    """The most specific label set that covers a collection of canonical marks."""
    found = {MARK_LABELS[mark] for mark in marks if mark}
    return [EMPTY] + [label for label in PRIORITY[::-1] if label in found]


class LabelSet:
    """A component's classes: label <-> index <-> written mark, with fallbacks
    for the marks of classes the set lacks. Index 0 is EMPTY."""

    def __init__(self, labels: Iterable[str]) -> None:
        self.labels: Tuple[str, ...] = tuple(validate_labels(labels))
        self.marks: Tuple[str, ...] = tuple(LABEL_MARKS[label] for label in self.labels)
        self._index = {label: i for i, label in enumerate(self.labels)}
        self._mark_index: Dict[str, int] = {}
        for mark, label in MARK_LABELS.items():
            while label not in self._index and label in FALLBACK:
                label = FALLBACK[label]
            self._mark_index[mark] = self._index.get(label, 0)

    def __len__(self) -> int:
        return len(self.labels)

    def __iter__(self) -> Iterator[str]:
        return iter(self.labels)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LabelSet) and other.labels == self.labels

    def __repr__(self) -> str:
        return f"LabelSet({list(self.labels)})"

    def index(self, label: str) -> int:
        """The index of a class of the set."""
        try:
            return self._index[label]
        except KeyError:
            raise ValueError(f"{label!r} is not in the label set {list(self.labels)}.") from None

    def class_of(self, mark: Optional[str]) -> int:
        """The index of the class a canonical mark counts as (0 when none fits)."""
        return self._mark_index.get(mark or "", 0)

    def writes(self, mark: Optional[str]) -> bool:
        """Whether a canonical mark's own class is in the set (`:` is not in
        the default set, where it only counts as COMMA)."""
        return MARK_LABELS.get(mark or "") in self._index

    def label_of(self, mark: Optional[str]) -> str:
        """The class a canonical mark counts as (EMPTY when none fits)."""
        return self.labels[self.class_of(mark)]

    def mark(self, index: int) -> str:
        """The mark written for the class at `index`."""
        return self.marks[index]

    @property
    def punctuation(self) -> Tuple[str, ...]:
        """The classes other than EMPTY."""
        return self.labels[1:]

    @property
    def final_mask(self) -> numpy.ndarray:
        """Per class index, whether its mark ends a sentence."""
        return numpy.array([label in SENTENCE_FINAL for label in self.labels], dtype=bool)

    def check_known(self, labels: Iterable[str], setting: str) -> None:
        """Raise if a setting names classes the set lacks."""
        unknown = set(labels) - set(self.labels)
        if unknown:
            raise ValueError(f"{setting} given for unknown labels {sorted(unknown)}.")
