"""Captions from punctuated, timed words: SRT and WebVTT cues cut at sentence
ends, and earlier where a cue would grow past a maximum length or duration."""

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, List, Tuple

from spacy.tokens import Doc

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


class CueBuilder:
    """Collect words into cues: a cue ends after a sentence end, or before a
    word that would take it past `max_chars` characters or `max_seconds`, or
    that another speaker says. With `word_times`, each cue keeps its words'
    starts, for WebVTT's inline timestamps."""

    def __init__(self, max_chars: int = 84, max_seconds: float = 7.0, word_times: bool = False) -> None:
        if max_chars < 1 or max_seconds <= 0:
            raise ValueError(f"Need max_chars >= 1 and max_seconds > 0, not {max_chars}, {max_seconds}.")
        self.max_chars = max_chars
        self.max_seconds = max_seconds
        self.word_times = word_times
        self._words: List[CaptionWord] = []
        self._count = 0

    def add(self, word: CaptionWord) -> List[Cue]:
        """Add the next word; return the cues it completes."""
        cues = []
        if self._words:
            chars = sum(len(w.text) + 1 for w in self._words) + len(word.text)
            too_long = chars > self.max_chars or word.end - self._words[0].start > self.max_seconds
            if too_long or word.voice != self._words[0].voice:
                cues.append(self._cue())
        self._words.append(word)
        if word.sentence_end:
            cues.append(self._cue())
        return cues

    def close_with(self, mark: str) -> List[Cue]:
        """Write `mark` onto the last word and end its cue there (a cue
        already written stays as it is)."""
        if not self._words:
            return []
        last = self._words[-1]
        self._words[-1] = replace(last, text=last.text + mark, sentence_end=True)
        return [self._cue()]

    def flush(self) -> List[Cue]:
        """The last cue, if words are left."""
        return [self._cue()] if self._words else []

    def _cue(self) -> Cue:
        words, self._words = self._words, []
        self._count += 1
        end = max(max(w.end for w in words), words[0].start)
        styled = tuple((w.text, w.style) for w in words) if any(w.style for w in words) else ()
        text = " ".join(w.text for w in words)
        timed = tuple((w.text, w.start) for w in words) if self.word_times else ()
        return Cue(self._count, words[0].start, end, text, words[0].settings, words[0].voice, styled, timed)


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
        return escape(cue.text)
    runs: List[Tuple[str, List[str]]] = []
    for text, style in cue.styled:
        if runs and runs[-1][0] == style:
            runs[-1][1].append(escape(text))
        else:
            runs.append((style, [escape(text)]))
    return " ".join(
        "".join(f"<{tag}>" for tag in style) + " ".join(words) + "".join(f"</{tag}>" for tag in reversed(style))
        for style, words in runs
    )


def _timed(cue: Cue) -> str:
    """A WebVTT cue's text with each word after the first led by its start
    (`so<00:00:00.300><c> how</c>`), as YouTube writes its captions."""
    (first, _), rest = cue.timed[0], cue.timed[1:]
    return vtt_escape(first) + "".join(f"<{timestamp(start, '.')}><c> {vtt_escape(text)}</c>" for text, start in rest)


def vtt_escape(text: str) -> str:
    """Cue text as WebVTT reads it back: `&`, `<` and `>` as character
    references (a recogniser's `<unk>` is not a tag; no `-->` in a cue)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def caption_header(kind: str) -> str:
    """What a caption file starts with."""
    return "WEBVTT\n\n" if kind == "vtt" else ""
