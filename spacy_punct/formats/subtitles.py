"""Subtitles cut as subtitlers cut them: a sentence's words into cues of at
most two lines of `line_chars` characters, each cue ending, and each line
breaking, where a reader pauses (after a comma, before a conjunction or a
preposition), the lines balanced, and never between a title and a name, a
number and its unit, or an article and its noun; then each cue timed for its
reading speed (`cps`), at least `min_duration` long and `min_gap` before the
next. The cuts are chosen together over the whole sentence (the fewest,
best-placed cues), not greedily word by word."""

from dataclasses import dataclass
from functools import lru_cache
from typing import FrozenSet, List, Optional, Sequence, Tuple

from ..languages import language_rules

# what a cut costs, by where it falls
_AFTER_PAUSE = 0.0  # after a comma, colon, semicolon or dash
_BEFORE_CLAUSE = 1.5  # before a conjunction or preposition
_ELSEWHERE = 4.0
_BOUND = 40.0  # between a title and a name, a number and its unit, an article and its noun
_PER_CUE = 1.0  # each cue: fewer, fuller cues where the cuts are as good
_SHORT = 3.0  # a cue shorter than a line, by the share of the line it leaves empty
_SLOW_READING = 6.0  # per share of the reading speed over the limit
_UNBALANCED = 4.0  # per line length of difference between a cue's two lines
_PAUSE_MARKS = (",", ";", ":", "-", "–", "—")


@dataclass(frozen=True)
class SubtitleRules:
    """How subtitles are cut and timed (times in seconds)."""

    line_chars: int = 42
    lines: int = 2  # one or two
    cps: float = 17.0  # characters a second a reader reads
    min_duration: float = 0.833  # 20 frames at 24 a second
    min_gap: float = 0.083  # 2 frames
    max_duration: float = 7.0

    def __post_init__(self) -> None:
        if self.line_chars < 1 or self.lines not in (1, 2) or self.cps <= 0 or self.max_duration <= 0:
            raise ValueError(
                "subtitles need line_chars of at least 1, one or two lines, and cps and max_duration above 0."
            )
        if self.min_duration < 0 or self.min_gap < 0:
            raise ValueError("min_duration and min_gap cannot be negative.")


@dataclass(frozen=True)
class CutWords:
    """What the cutter reads of each word: its text and times."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class Cut:
    """A cue's words (`start` to `end`, exclusive) and the first word of each line after the first."""

    start: int
    end: int
    line_starts: Tuple[int, ...] = ()


@lru_cache(maxsize=None)
def _word_lists(lang: Optional[str]) -> Tuple[FrozenSet[str], FrozenSet[str]]:
    """The language's words a cut goes before (conjunctions, prepositions)
    and after which it never goes (articles, determiners, titles)."""
    if not lang:
        return frozenset(), frozenset()
    rules = language_rules(lang)
    return rules.break_before, rules.bound_forward | rules.titles


def break_cost(before: str, after: str, lang: Optional[str]) -> float:
    """What a cut (a cue's end or a line's) between two words costs."""
    break_before, bound_forward = _word_lists(lang)
    bare = before.rstrip(".").lower()
    if before.endswith(_PAUSE_MARKS):
        return _AFTER_PAUSE
    if bare in bound_forward or (bare.rstrip(".") in bound_forward):
        return _BOUND
    if _is_number(before) and after[:1].isalpha() and after.lower() not in break_before:
        return _BOUND
    if after.lower().strip(",.?!") in break_before:
        return _BEFORE_CLAUSE
    return _ELSEWHERE


def _is_number(text: str) -> bool:
    return any(char.isdigit() for char in text) and not any(char.isalpha() for char in text)


def cut_sentence(words: Sequence[CutWords], rules: SubtitleRules, lang: Optional[str] = None) -> List[Cut]:
    """The cues of one sentence's words (or of a stretch that must end a
    cue), chosen together: each fits `rules.lines` lines of
    `rules.line_chars` (a longer word alone) and `rules.max_duration`, and
    the cuts, the reading speed and the lines' balance cost least."""
    n = len(words)
    best: List[float] = [0.0] + [float("inf")] * n
    choice: List[Optional[Cut]] = [None] * (n + 1)
    for end in range(1, n + 1):
        for start in range(end - 1, -1, -1):
            chars = sum(len(w.text) for w in words[start:end]) + (end - start - 1)
            if start < end - 1 and chars > rules.lines * rules.line_chars:
                break
            if start < end - 1 and words[end - 1].end - words[start].start > rules.max_duration:
                break
            lines = _lines(words[start:end], rules, lang)
            if lines is None:
                continue
            line_starts, layout = lines
            cost = best[start] + _PER_CUE + layout + _reading(words[start:end], chars, rules)
            cost += _SHORT * max(0.0, 1.0 - chars / rules.line_chars)
            if end < n:
                cost += break_cost(words[end - 1].text, words[end].text, lang)
            if cost < best[end]:
                best[end] = cost
                choice[end] = Cut(start, end, tuple(start + k for k in line_starts))
    cuts: List[Cut] = []
    end = n
    while end > 0:
        cut = choice[end]
        assert cut is not None
        cuts.append(cut)
        end = cut.start
    return cuts[::-1]


def _lines(
    words: Sequence[CutWords], rules: SubtitleRules, lang: Optional[str]
) -> Optional[Tuple[Tuple[int, ...], float]]:
    """Where a cue's second line starts and what its layout costs: one line
    where it fits, else the best split into two lines of `rules.line_chars`;
    None where none fits."""
    lengths = [len(w.text) for w in words]
    total = sum(lengths) + len(words) - 1
    if total <= rules.line_chars or len(words) == 1:
        return (), 0.0
    if rules.lines < 2:
        return None
    best: Optional[Tuple[Tuple[int, ...], float]] = None
    for k in range(1, len(words)):
        first = sum(lengths[:k]) + k - 1
        second = total - first - 1
        if first > rules.line_chars:
            break
        if second > rules.line_chars:
            continue
        cost = _UNBALANCED * abs(first - second) / rules.line_chars + break_cost(words[k - 1].text, words[k].text, lang)
        if best is None or cost < best[1]:
            best = ((k,), cost)
    return best


def _reading(words: Sequence[CutWords], chars: int, rules: SubtitleRules) -> float:
    """What a cue read faster than `rules.cps` costs, over the time its words
    are said (at least the shortest duration)."""
    seconds = max(words[-1].end - words[0].start, rules.min_duration)
    speed = chars / seconds
    return _SLOW_READING * max(0.0, speed / rules.cps - 1.0)


def cue_times(spans: Sequence[Tuple[float, float, int]], rules: SubtitleRules) -> List[Tuple[float, float]]:
    """Each cue's start and end, given its words' (start, end, characters):
    shown long enough to be read at `rules.cps` and at least
    `rules.min_duration`, as far as the next cue leaves room (`rules.min_gap`
    before it), and never ending before its last word is said."""
    times: List[Tuple[float, float]] = []
    for k, (start, end, chars) in enumerate(spans):
        wanted = max(end, start + rules.min_duration, start + chars / rules.cps)
        if k + 1 < len(spans):
            wanted = min(wanted, max(spans[k + 1][0] - rules.min_gap, end))
        times.append((start, wanted))
    return times
