"""SRT and WebVTT captions read as timed words (YouTube's automatic captions,
whose rolling cues repeat words, de-duplicated) and written back as cues
re-cut at sentence ends."""

import re
from typing import Any, Iterator, List, Optional, Sequence, Set, Tuple

from ..captions import CaptionWord, CueBuilder, caption_header, format_cue
from ..recognisers import OutputWord, Transcript, TranscriptFormat, language_code, speaker_turns, transcript_formats
from ..timed import RecordError, TimedWord, spread_words


class CaptionFormat(TranscriptFormat):
    """SRT or WebVTT cues, their words timed by the cue (evenly by their
    length, or by WebVTT's inline word timestamps); a cue whose first line
    is the last line of the one before (YouTube's rolling captions) gives
    only its new lines. Written as cues re-cut at sentence ends, a WebVTT
    file with its header, STYLE, REGION and NOTE blocks (at its top) and
    each cue with the settings of the cue its first word came from. WebVTT
    speakers (`<v Bob>`, as in meeting transcripts): each speaker's turn is
    punctuated as a text of its own, and each cue written with its speaker."""

    kind = ""

    def __init__(self, max_chars: int = 84, max_seconds: float = 7.0, **options: Any) -> None:
        super().__init__(**options)
        self.max_chars, self.max_seconds = max_chars, max_seconds

    def read(self, text: str, name: str) -> Transcript:
        kept: List[str] = []
        transcript = Transcript([], source={"blocks": kept, "word_times": bool(_INLINE.search(text))})
        last_line: List[str] = []
        voice = None  # the speaker of the cues since the last `<v Name>`
        for number, (start, end, settings, body) in enumerate(_cues(text, name, kept)):
            said = _VOICE.match(body)
            if said:
                voice = said.group(1).strip()
            lines = [line for line in body.split("\n") if line.strip()]
            # a rolling cue repeats the line before above its new one (YouTube's, a
            # broadcast's roll-up), or for a moment alone; a cue that says it again is kept
            if lines and _plain_words(lines[0]) == last_line and (len(lines) > 1 or end - start < _MOMENT):
                lines = lines[1:]
            said_words = _cue_words(start, end, "\n".join(lines))
            styles = [""] * len(said_words) if _INLINE.search(body) else _word_styles("\n".join(lines))
            for word, style in zip(said_words, styles):
                transcript.words.append(word)
                transcript.fields.append({"settings": settings, "voice": voice or "", "style": style})
                transcript.groups.append(number)
            if lines:
                last_line = _plain_words(lines[-1])
        said = re.search(r"^Language:\s*(\S+)", kept[0], re.MULTILINE) if kept else None  # YouTube's header
        transcript.language = language_code(said.group(1)) if said else None
        if voice is not None:
            transcript.turns = speaker_turns([word_fields["voice"] or None for word_fields in transcript.fields])
            transcript.speakers = [word_fields["voice"] for word_fields in transcript.fields]
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        source = transcript.source or {"blocks": []}
        # WebVTT's inline word timestamps written back where the input had them (YouTube's captions)
        builder = CueBuilder(self.max_chars, self.max_seconds, self.kind == "vtt" and source.get("word_times", False))
        found = []
        for k, (word, out) in enumerate(zip(transcript.words, words)):
            start = word.start if word.start is not None else 0.0
            end = word.end if word.end is not None else start
            fields = transcript.fields[k] if transcript.fields else {}
            own = fields if self.kind == "vtt" else {}  # cue settings and speakers are WebVTT's
            found += builder.add(
                CaptionWord(
                    out.text,
                    start,
                    end,
                    out.sentence_end,
                    own.get("settings", ""),
                    own.get("voice", ""),
                    fields.get("style", ""),
                )  # fmt: skip
            )
        found += builder.flush()
        blocks = source["blocks"] if self.kind == "vtt" else []
        header = "".join(block + "\n\n" for block in blocks) or caption_header(self.kind)
        return header + "".join(format_cue(cue, self.kind) for cue in found)


@transcript_formats.register("srt")
class SrtFormat(CaptionFormat):
    kind = "srt"
    endings = (".srt",)

    @staticmethod
    def sniff(text: str) -> bool:
        return bool(re.match(r"\s*\d+\s*\n\d\d:\d\d:\d\d,\d\d\d\s*-->", text[:200]))


@transcript_formats.register("vtt")
class VttFormat(CaptionFormat):
    kind = "vtt"
    endings = (".vtt",)

    @staticmethod
    def sniff(text: str) -> bool:
        return text.lstrip("\ufeff").startswith("WEBVTT")


_MOMENT = 0.05  # seconds: YouTube shows each line alone for 10 ms before it rolls up
# `-->` with or without spaces around it, as some tools write it
_TIMING = re.compile(r"^\s*(?:(\d+):)?(\d\d):(\d\d)[,.](\d\d\d)\s*-->\s*(?:(\d+):)?(\d\d):(\d\d)[,.](\d\d\d)")
# two times on a line without `-->` between them (`00:00:01,000 -> 00:00:02,000`): a timing mistyped
_BROKEN_TIMING = re.compile(r"^\s*(?:\d+:)?\d\d:\d\d[,.]\d\d\d\s*\S{0,4}\s*(?:\d+:)?\d\d:\d\d[,.]\d\d\d")
_VOICE = re.compile(r"^\s*<v(?:\.[^\s>]*)?\s+([^>]*)>")  # WebVTT's speaker: <v Bob>, <v.loud Bob>
_INLINE = re.compile(r"<(?:(\d+):)?(\d\d):(\d\d)\.(\d\d\d)>")
# the captions' own markup (SRT's <i> <b> <u> <font>, WebVTT's <c.class> <v Name> <lang> <ruby> <rt>):
# not words; anything else in angle brackets (a recogniser's <unk>) is one
_STYLE = re.compile(r"<(/?)([ibu])(?:[.\s][^>]*)?>", re.IGNORECASE)  # italics, bold, underline
_TAG = re.compile(r"</?(?:i|b|u|c|v|font|lang|ruby|rt|span)(?:[.\s][^>]*)?>", re.IGNORECASE)


def _seconds(hours: Optional[str], minutes: str, seconds: str, millis: str) -> float:
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds) + int(millis) / 1000


def _cues(text: str, name: str, kept: List[str]) -> Iterator[Tuple[float, float, str, str]]:
    """(start, end, cue settings, text) per cue of an SRT or WebVTT file;
    WebVTT's header, STYLE, REGION and NOTE blocks are added to `kept`. Text
    outside a cue (no timing line before it) and an unreadable timing are
    errors naming their line: the words would otherwise be lost. Text right
    after a cue that has none, an empty line between them, is that cue's (as
    some tools write YouTube's captions)."""
    empty: Optional[Tuple[float, float, str]] = None  # the last cue, where it has no text yet
    for first, block in _blocks(text):
        timings = [k for k, line in enumerate(block) if "-->" in line]
        broken = [k for k, line in enumerate(block) if not timings and _BROKEN_TIMING.match(line)]
        if broken:
            line = block[broken[0]].strip()
            raise RecordError(
                f"{name}, line {first + broken[0] + 1}: cannot read the cue timing {line!r} ('-->' between the times)."
            )
        if not timings:
            if empty is not None and not _skipped_block(block, first):
                yield (*empty, "\n".join(block))
                empty = None
                continue
            if not _skipped_block(block, first):
                raise RecordError(f"{name}, line {first + 1}: text outside a cue (no timing line before it).")
            if not (len(block) == 1 and block[0].strip().isdigit()):  # a lone cue number goes
                kept.append("\n".join(block).lstrip("\ufeff"))
            continue
        if empty is not None:
            yield (*empty, "")
            empty = None
        k = timings[0]
        if len(timings) > 1:
            raise RecordError(
                f"{name}, line {first + timings[1] + 1}: a cue starts inside the one before (no empty line between them)."
            )
        if k > 1:
            raise RecordError(f"{name}, line {first + 1}: text outside a cue (no timing line before it).")
        match = _TIMING.match(block[k])
        if not match:
            raise RecordError(f"{name}, line {first + k + 1}: cannot read the cue timing {block[k].strip()!r}.")
        start, end = _seconds(*match.group(1, 2, 3, 4)), _seconds(*match.group(5, 6, 7, 8))
        if end < start:
            raise RecordError(f"{name}, line {first + k + 1}: the cue ends before it starts.")
        cue = (start, end, block[k][match.end() :].strip())
        body = "\n".join(block[k + 1 :])
        if body.strip():
            yield (*cue, body)
        else:
            empty = cue
    if empty is not None:
        yield (*empty, "")


def _blocks(text: str) -> Iterator[Tuple[int, List[str]]]:
    """(index of its first line, its lines) per block of lines between empty
    ones. A line of spaces inside a cue's text is the cue's (YouTube writes
    one above a cue's first line); before a cue's timing line, or its number
    and timing line, it parts the cues as an empty line does."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    block: List[str] = []
    first = 0
    for number, line in enumerate(lines):
        if line.strip():
            if not block:
                first = number
            block.append(line)
        elif block and line and not _cue_follows(lines, number + 1):
            block.append(line)
        elif block:
            yield first, block
            block = []
    if block:
        yield first, block


def _cue_follows(lines: List[str], at: int) -> bool:
    """Whether the next line with text from `at` on starts a cue (its timing
    line, or its number and then its timing line), or none is left."""
    rest = (line for line in lines[at:] if line.strip())
    following = next(rest, None)
    if following is None or "-->" in following:
        return True
    return following.strip().isdigit() and "-->" in next(rest, "")


def _skipped_block(block: List[str], first: int) -> bool:
    """A block with no words to read: WebVTT's header, a NOTE, STYLE or REGION
    block, or a lone cue number."""
    head = block[0].lstrip("\ufeff").strip()
    if first == 0 and head.startswith("WEBVTT"):
        return True
    return head.split(" ")[0] in ("NOTE", "STYLE", "REGION") or (len(block) == 1 and head.isdigit())


def _cue_words(start: float, end: float, body: str) -> List[TimedWord]:
    """The words of a cue with timings: WebVTT's inline timestamps where
    given (`<00:00:01.520><c> word</c>`), else spread over the cue by length."""
    if _INLINE.search(body):
        words: List[TimedWord] = []
        moments = [start] + [_seconds(*m.groups()) for m in _INLINE.finditer(body)]
        for moment, piece in zip(moments, _INLINE.split(body)[::5]):
            for word in _TAG.sub("", piece).split():
                words.append(TimedWord(_unescape(word), moment, moment))
        return _spread_ends(words, end)
    return spread_words([_unescape(word) for word in _TAG.sub("", body).split()], start, end)


def _word_styles(body: str) -> List[str]:
    """The style of each word of a cue's text, in the order `_TAG.sub("",
    body).split()` gives them: the tags `<i>`, `<b>`, `<u>` open at its first
    letter ("i", "b", "u", or several, as "bi")."""
    styles: List[str] = []
    open_styles: Set[str] = set()
    in_word, position = False, 0
    for match in [*_TAG.finditer(body), None]:
        for char in body[position : match.start() if match else len(body)]:
            if char.isspace():
                in_word = False
            elif not in_word:
                styles.append("".join(sorted(open_styles)))
                in_word = True
        if match is None:
            break
        style = _STYLE.fullmatch(match.group(0))
        if style:
            (open_styles.discard if style.group(1) else open_styles.add)(style.group(2).lower())
        position = match.end()
    return styles


def _spread_ends(words: List[TimedWord], end: float) -> List[TimedWord]:
    """Each word ends where the next starts (the last at the cue's end)."""
    return [
        TimedWord(
            word.text, word.start, max(word.start or 0.0, (words[k + 1].start if k + 1 < len(words) else end) or 0)
        )
        for k, word in enumerate(words)
    ]


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", " ").replace("&amp;", "&")


def _plain_words(line: str) -> List[str]:
    """A cue line's words, lower-case, without tags or inline timestamps."""
    return [_unescape(word).lower() for word in _TAG.sub("", _INLINE.sub("", line)).split()]
