"""Case rules of the rewrite: sentence-initial capitals, words always written
with one (English "I"), tokens whose case is never touched (URLs, e-mail
addresses, paths, code), and symbols, which open no sentence."""

import re
from functools import lru_cache
from types import MappingProxyType
from typing import FrozenSet, Iterable, List, Mapping, Optional, Sequence

import spacy

from .languages import language_rules

_UNCASABLE = re.compile(
    r"""(
        ^[a-z][a-z0-9+.-]*://        # a URL with a scheme
      | ^www\.                       # a bare web address
      | ^[^@\s]+@[^@\s]+\.[^@\s]+$   # an e-mail address
      | [/\\]                        # a path
      | ^[^.\s]+(\.[^.\s]+)*\.(com|org|net|edu|gov|io|de|uk|hu|txt|py|json|html|pdf)$  # a domain or file name
      | _|[0-9][a-z]+[0-9]           # code: snake_case, letters between digits
      | ^v[0-9]+(\.[0-9a-z]+)+$|^[0-9]+(\.[0-9]+){2,}$  # a version: v1.2, 1.2.3
    )""",
    re.X | re.I,
)
# camelCase, checked case-sensitively
_CAMEL = re.compile(r"[a-z][A-Z]")
# a name with an apostrophe after its first letters: o'brien, d'angelo
_APOSTROPHE_NAME = re.compile(r"^([^\W\d_]+['\u2019])([^\W\d_]{2,})$")
_MC_NAME = re.compile(r"^(mc)([^\W\d_]{3,})$", re.IGNORECASE)
# a clitic written onto the word before it: 's 'm 're 've 'll 'd n't
_CLITIC = re.compile(r"^(['\u2019][a-z]{1,2}|n['\u2019]t)$", re.IGNORECASE)
# a model's placeholder token, such as the noise augmenter's [UNK]
_PLACEHOLDER = re.compile(r"^\[[A-Z]+\]$")
_ALNUM = re.compile(r"[^\W_]")  # a character that str.isalnum() accepts


def capitalise(text: str) -> str:
    """Upper-case the first character, where that keeps the length (`ß` stays)."""
    if not text:
        return text
    first = text[0].upper()
    return first + text[1:] if len(first) == 1 else text


def upper(text: str) -> str:
    """Upper-case every character whose capital is one character (`ß` stays:
    `SS` would be another word)."""
    capitals = text.upper()
    if len(capitals) == len(text):
        return capitals
    return "".join(char if len(char.upper()) != 1 else char.upper() for char in text)


def decapitalise(text: str) -> str:
    """Lower-case a capitalised word (`It` -> `it`); words with other capitals
    (`NASA`, `McDonald`) and single letters stay as they are."""
    if len(text) > 1 and text[0].isupper() and text[1:] == text[1:].lower() and text[1:].lower() != text[1:].upper():
        return text[0].lower() + text[1:]
    return text


@lru_cache(maxsize=100_000)
def is_uncasable(text: str) -> bool:
    """Whether a token looks like a URL, e-mail address, file path or code,
    whose case must never change."""
    return bool(_CAMEL.search(text) or _UNCASABLE.search(text))


def is_placeholder(text: str) -> bool:
    """Whether a token is a placeholder such as `[UNK]`, which stands for a
    word and has no case of its own."""
    return bool(_PLACEHOLDER.match(text))


def is_symbol(text: str) -> bool:
    """Whether a token has no letter or digit (an emoji, `&`, `→`): not a
    word to capitalise, so a sentence opened by one capitalises the word
    after it (`Fine. 🙂 Thanks`)."""
    return _ALNUM.search(text) is None


# what the rewrite may change of a token's case (see `case_roles`)
WHOLE, PART, FIRST, INNER, FIXED = "whole", "part", "first", "inner", "fixed"
_HYPHENS = frozenset({"-", "\u2010", "\u2011"})


def case_roles(
    texts: Sequence[str], spaced: Sequence[bool], is_space: Sequence[bool], punct: Sequence[bool]
) -> List[str]:
    """Per token, what the rewrite may change of its case, by the written
    word (the tokens between whitespace) it is part of, leading and trailing
    punctuation aside: WHOLE, a word in one token (clitics aside: `i'm`,
    `john's`), which takes every case rule; PART, a part of a hyphenated word
    (`jean` and `luc` of `jean-luc`), which takes a truecaser's form only
    where it is a capital first letter (`Jean-Luc`, not `CO-operate`), and
    the first one a sentence's first capital; FIRST, the first part of
    another longer word (`km` of `km/h`), which takes only a sentence's first
    capital; INNER, any other token, which keeps its case
    unless the text is written in capitals; FIXED, every token of a word that
    `is_uncasable` (`/home/i/notes`), which keeps its case."""
    roles = [INNER] * len(texts)
    start = 0
    for end in range(len(texts)):
        if is_space[end]:
            start = end + 1
        elif spaced[end] or end + 1 == len(texts) or is_space[end + 1]:
            _word_roles(roles, texts, punct, start, end + 1)
            start = end + 1
    return roles


def _word_roles(roles: List[str], texts: Sequence[str], punct: Sequence[bool], start: int, end: int) -> None:
    if end - start == 1:  # most words: one token
        if not punct[start]:
            roles[start] = FIXED if is_uncasable(texts[start]) else WHOLE
        return
    core = [i for i in range(start, end) if not punct[i]]
    if not core:
        return
    if is_uncasable("".join(texts[start:end])):
        roles[start:end] = [FIXED] * (end - start)
        return
    first, last = core[0], core[-1]
    rest = range(first + 1, last + 1)
    if all(_CLITIC.match(texts[i]) or punct[i] for i in rest):
        roles[first] = WHOLE
    elif all(texts[i] in _HYPHENS if punct[i] else texts[i].isalpha() for i in range(first, last + 1)):
        for i in core:
            roles[i] = PART
    else:
        roles[first] = FIRST


def always_capitalised(lang: str) -> FrozenSet[str]:
    """The lower-case words a language always writes with a capital."""
    return language_rules(lang).always_capitalised


@lru_cache(maxsize=None)
def function_words(lang: str) -> FrozenSet[str]:
    """A language's function words (spaCy's stop words; none for a language
    spaCy lacks): never a name, so never capitalised mid-sentence."""
    try:
        return frozenset(word.lower() for word in spacy.util.get_lang_class(lang).Defaults.stop_words)
    except ImportError:
        return frozenset()


def written_in_capitals(texts: Iterable[str]) -> bool:
    """Whether a text is written all in capitals, as some recognisers write:
    no token has a lower-case letter and some word has two capitals or more
    (`I` or `A` alone do not tell). Its case then says nothing about names,
    and a truecaser's forms replace it. URLs, code and placeholders such as
    `[UNK]` count for nothing."""
    capitals = False
    for text in texts:
        if text != text.upper():  # a lower-case letter
            if not is_uncasable(text):
                return False
        elif not capitals and sum(char.isupper() for char in text) > 1:
            capitals = not (is_uncasable(text) or is_placeholder(text))
    return capitals


# the case classes of a word, as the truecaser predicts them
CASE_LABELS = ("LOWER", "TITLE", "UPPER", "MIXED")


def case_label(text: str) -> str:
    """The case class of a written word: LOWER (`coast`, `5km`, `,`), TITLE
    (`Paris`, `I`), UPPER (`NASA`: more than one letter, all capitals), MIXED
    (`McDonald`, `iPhone`, `O'Brien`)."""
    if text == text.lower():
        return "LOWER"
    if text == text.upper() and sum(char.isalpha() for char in text) > 1:
        return "UPPER"
    if text == capitalise(text.lower()):
        return "TITLE"
    return "MIXED"


def is_caseless(text: str, forms: Mapping[str, str] = MappingProxyType({})) -> bool:
    """Whether a token keeps its case whatever is predicted: URLs, e-mail
    addresses, paths, code, and tokens with digits (numbers, units: `5km`)
    unless the training data wrote them with capitals (`L2`, `MP3`: a kept
    form in `forms`)."""
    if is_uncasable(text):
        return True
    return any(char.isdigit() for char in text) and text.lower() not in forms


def apply_case(text: str, label: str, forms: Mapping[str, str]) -> str:
    """A lower-case word written in a case class. A word predicted not
    lower-case takes its form from the training data where one was kept
    (`dh` -> `DH`, `mcdonald` -> `McDonald`, `l2` -> `L2`; where that form is
    of another class and the word's abbreviation's form of this one, that:
    `mr` -> `Mr` beside `MR` and `Mr.`), else the class's
    shape: all capitals for UPPER, the first letter for TITLE and MIXED, for
    UPPER or MIXED a capital after an apostrophe too (`O'Brien`: no acronym
    has one), and for MIXED a capital after a leading `Mc` (`McAllister`)."""
    if is_caseless(text, forms) or label == "LOWER":
        return text
    form = forms.get(text.lower())
    if form is not None:
        # the same word written as an abbreviation (`Mr.` beside an all-capitals `MR`) in the class predicted
        dotted = forms.get(text.lower() + ".")
        if dotted is not None and case_label(form) != label and case_label(dotted[:-1]) == label:
            return dotted[:-1]
        return form
    name = _APOSTROPHE_NAME.match(text) if label in ("UPPER", "MIXED") else None
    if name:
        return capitalise(name.group(1)) + capitalise(name.group(2))
    name = _MC_NAME.match(text) if label == "MIXED" else None
    if name:
        return capitalise(name.group(1)) + capitalise(name.group(2))
    if label == "UPPER":
        return upper(text)
    return capitalise(text)


def titles_before_names(texts: Sequence[str], cased: List[Optional[str]], titles: FrozenSet[str]) -> None:
    """Write as a title (`Ms`) each of `titles` that `cased` (each token's
    cased form, None where it has none) has in capitals right before a word
    with a capital (`MS Moreno`), in place."""
    following: Optional[str] = None  # the cased form of the next token with one
    for i in range(len(cased) - 1, -1, -1):
        value = cased[i]
        if value is None:
            if texts[i].strip():  # a mark between them: no title of the word after it
                following = None
            continue
        if following and following[0].isupper() and value.lower() in titles and value.isupper() and len(value) > 1:
            cased[i] = capitalise(value.lower())
        following = cased[i]
