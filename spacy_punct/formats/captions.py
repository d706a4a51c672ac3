"""Captions from punctuated, timed words: SRT and WebVTT cues of one or two
lines, cut at sentence ends and inside sentences where a reader pauses
(`subtitles`), each shown for its reading speed."""

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, List, Optional, Tuple

from spacy.tokens import Doc

from .subtitles import CutWords, SubtitleRules, cue_times, cut_sentence
from .timed import RecordError

CAPTION_FORMATS = ("srt", "vtt")


@dataclass(frozen=True)
class CaptionWord:
    """A written word of the output (with its marks), when it was spoken, and
    whether it ends a sentence."""

    text: str
    start: float
    end: float
    sentence_end: bool = False
    settings: str = ""  # WebVTT cue settings (`align:start position:0%`) of the cue it was read from
    voice: str = ""  # WebVTT's speaker (`<v Bob>`) of the cue it was read from
    style: str = ""  # the caption's styles it was read in: "i", "b", "u" or several ("bi")


@dataclass(frozen=True)
class Cue:
    index: int  # from 1
    start: float
    end: float
    text: str
    settings: str = ""  # WebVTT cue settings: its first word's
    voice: str = ""  # WebVTT's speaker: its words'
    styled: Tuple[Tuple[str, str], ...] = ()  # its words and their styles, where any has one
    timed: Tuple[Tuple[str, float], ...] = ()  # its words and their starts, where written with them (WebVTT)
    breaks: Tuple[int, ...] = ()  # the first word of each line after the first


class CueBuilder:
    """Collect words into cues as subtitlers cut them (`subtitles`): a
    sentence's words, or a speaker's, are cut together into cues of at most
    two lines of half `max_chars` (42 of the default 84) and `max_seconds`,
    a cue ending at each sentence end and elsewhere where a reader pauses,
    the lines balanced; each cue is shown for its reading speed and at
    least `min_duration`, up to `min_gap` before the next, so a cue is
    given out once the next one's start is known (or at `flush`). A
    sentence longer than three cues is cut as it comes. With `word_times`,
    each cue keeps its words' starts, for WebVTT's inline timestamps. `lang`:
    the language whose words (conjunctions, articles) guide the cuts."""

    def __init__(
        self,
        max_chars: int = 84,
        max_seconds: float = 7.0,
        word_times: bool = False,
        *,
        lang: Optional[str] = None,
        rules: Optional[SubtitleRules] = None,
    ) -> None:
        if max_chars < 1 or max_seconds <= 0:
            raise ValueError(f"Need max_chars >= 1 and max_seconds > 0, not {max_chars}, {max_seconds}.")
        self.rules = rules or SubtitleRules(
            line_chars=max(1, -(-max_chars // 2)), lines=2 if max_chars > 1 else 1, max_duration=max_seconds
        )
        self.word_times = word_times
        self.lang = lang
        self._words: List[CaptionWord] = []
        self._held: Optional[Tuple[List[CaptionWord], Tuple[int, ...]]] = None  # cut, waiting for the next's start
        self._count = 0

    def add(self, word: CaptionWord) -> List[Cue]:
        """Add the next word; return the cues it completes."""
        cues = []
        if self._words and word.voice != self._words[0].voice:
            cues += self._cut(everything=True)
        self._words.append(word)
        if word.sentence_end:
            cues += self._cut(everything=True)
        elif self._too_long():
            cues += self._cut(everything=False)
        return cues

    def close_with(self, mark: str) -> List[Cue]:
        """Write `mark` onto the last word and end its cue there (a cue
        already given out stays as it is)."""
        if self._words:
            last = self._words[-1]
            self._words[-1] = replace(last, text=last.text + mark, sentence_end=True)
        elif self._held is not None:
            words, breaks = self._held
            self._held = (words[:-1] + [replace(words[-1], text=words[-1].text + mark, sentence_end=True)], breaks)
        return self.flush()

    def flush(self) -> List[Cue]:
        """The cues of the words left."""
        cues = self._cut(everything=True)
        if self._held is not None:
            cues.append(self._finish(*self._held, following=None))
            self._held = None
        return cues

    def _too_long(self) -> bool:
        chars = sum(len(w.text) + 1 for w in self._words)
        return chars > 3 * self.rules.lines * self.rules.line_chars or (
            self._words[-1].end - self._words[0].start > 3 * self.rules.max_duration
        )

    def _cut(self, everything: bool) -> List[Cue]:
        """Cut the words waiting into cues; all of them, or all but the last cue's."""
        if not self._words:
            return []
        timed = [CutWords(w.text, w.start, max(w.end, w.start)) for w in self._words]
        cuts = cut_sentence(timed, self.rules, self.lang)
        if not everything:
            cuts = cuts[:-1]
        cues: List[Cue] = []
        for cut in cuts:
            words = self._words[cut.start : cut.end]
            if self._held is not None:
                cues.append(self._finish(*self._held, following=words[0].start))
            self._held = (words, tuple(k - cut.start for k in cut.line_starts))
        self._words = self._words[cuts[-1].end :] if cuts else self._words
        return cues

    def _finish(self, words: List[CaptionWord], breaks: Tuple[int, ...], following: Optional[float]) -> Cue:
        self._count += 1
        start, said = words[0].start, max(max(w.end for w in words), words[0].start)
        lines = [words[a:b] for a, b in zip((0, *breaks), (*breaks, len(words)))]
        text = "\n".join(" ".join(w.text for w in line) for line in lines)
        spans = [(start, said, len(text))] + ([(following, following, 0)] if following is not None else [])
        end = cue_times(spans, self.rules)[0][1]
        styled = tuple((w.text, w.style) for w in words) if any(w.style for w in words) else ()
        timed = tuple((w.text, w.start) for w in words) if self.word_times else ()
        return Cue(self._count, start, end, text, words[0].settings, words[0].voice, styled, timed, breaks)


def cues(words: Iterable[CaptionWord], max_chars: int = 84, max_seconds: float = 7.0) -> Iterator[Cue]:
    """The cues of a sequence of words (see `CueBuilder`)."""
    builder = CueBuilder(max_chars, max_seconds)
    for word in words:
        yield from builder.add(word)
    yield from builder.flush()


def doc_caption_words(doc: Doc, where: str = "document") -> List[CaptionWord]:
    """The written words of a punctuated doc (tokens joined up to whitespace),
    timed from their tokens' `start_time`/`end_time`. Raises a `RecordError`
    if a word has no timings."""
    words: List[CaptionWord] = []
    text, start, end = "", None, None
    n_tokens = len(doc)
    for token in doc:
        if token.is_space:
            continue
        text += token.text
        if token._.start_time is not None:
            start = token._.start_time if start is None else min(start, token._.start_time)
            end = token._.end_time if end is None else max(end, token._.end_time)
        following = doc[token.i + 1] if token.i + 1 < n_tokens else None
        if following is None or token.whitespace_ or following.is_space:
            if start is None or end is None:
                raise RecordError(
                    f"{where}: word {len(words) + 1} ({text!r}) has no timings; captions need word timings."
                )
            ends = following is None or bool(doc[_next_word(doc, token.i)].is_sent_start)
            words.append(CaptionWord(text, start, end, ends))
            text, start, end = "", None, None
    return words


def _next_word(doc: Doc, i: int) -> int:
    """The index of the first token after `i` that is not whitespace (or `i`)."""
    for j in range(i + 1, len(doc)):
        if not doc[j].is_space:
            return j
    return i


def timestamp(seconds: float, separator: str) -> str:
    """HH:MM:SS,mmm (SRT: separator ",") or HH:MM:SS.mmm (WebVTT: ".")."""
    millis = int(round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{millis:03d}"


def format_cue(cue: Cue, kind: str) -> str:
    """One cue as SRT or WebVTT text, ending with a blank line."""
    if kind == "srt":
        return f"{cue.index}\n{timestamp(cue.start, ',')} --> {timestamp(cue.end, ',')}\n{_styled(cue, str)}\n\n"
    if kind == "vtt":
        settings = f" {cue.settings}" if cue.settings else ""
        voice = f"<v {cue.voice}>" if cue.voice else ""
        timing = f"{timestamp(cue.start, '.')} --> {timestamp(cue.end, '.')}{settings}"
        return f"{cue.index}\n{timing}\n{voice}{_timed(cue) if cue.timed else _styled(cue, vtt_escape)}\n\n"
    raise ValueError(f"Unknown caption format {kind!r}; choose one of {', '.join(CAPTION_FORMATS)}.")


def _styled(cue: Cue, escape: Callable[[str], str]) -> str:
    """A cue's text, each run of words in one style within its tags (`<i>so how</i> was`)."""
    if not cue.styled:
        return "\n".join(escape(line) for line in cue.text.split("\n"))
    lines = []
    for a, b in zip((0, *cue.breaks), (*cue.breaks, len(cue.styled))):
        runs: List[Tuple[str, List[str]]] = []
        for text, style in cue.styled[a:b]:
            if runs and runs[-1][0] == style:
                runs[-1][1].append(escape(text))
            else:
                runs.append((style, [escape(text)]))
        lines.append(
            " ".join(
                "".join(f"<{tag}>" for tag in style) + " ".join(words) + "".join(f"</{tag}>" for tag in reversed(style))
                for style, words in runs
            )
        )
    return "\n".join(lines)


def _timed(cue: Cue) -> str:
    """A WebVTT cue's text with each word after the first led by its start
    (`so<00:00:00.300><c> how</c>`), as YouTube writes its captions."""
    lines = []
    for a, b in zip((0, *cue.breaks), (*cue.breaks, len(cue.timed))):
        (first, _), rest = cue.timed[a], cue.timed[a + 1 : b]
        lines.append(
            vtt_escape(first) + "".join(f"<{timestamp(start, '.')}><c> {vtt_escape(text)}</c>" for text, start in rest)
        )
    return "\n".join(lines)


def vtt_escape(text: str) -> str:
    """Cue text as WebVTT reads it back: `&`, `<` and `>` as character
    references (a recogniser's `<unk>` is not a tag; no `-->` in a cue)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def caption_header(kind: str) -> str:
    """What a caption file starts with."""
    return "WEBVTT\n\n" if kind == "vtt" else ""
