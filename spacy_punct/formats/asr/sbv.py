"""YouTube's SubViewer captions (`.sbv`, as YouTube Studio downloads them):
`0:00:00.000,0:00:02.000` above each cue's text."""

import re
from typing import Any, List, Sequence

from ..captions import CaptionWord, Cue, CueBuilder
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, spread_words

_TIMING = re.compile(r"^(\d+):(\d\d):(\d\d)\.(\d\d\d),(\d+):(\d\d):(\d\d)\.(\d\d\d)\s*$")


@transcript_formats.register("sbv")
class SbvFormat(TranscriptFormat):
    """Cues of a timing line (`H:MM:SS.mmm,H:MM:SS.mmm`) and their text,
    blank lines between them; a cue's words share its time by length.
    Written as cues re-cut at sentence ends and at `max_chars` /
    `max_seconds`, as SRT's are."""

    endings = (".sbv",)

    def __init__(self, max_chars: int = 84, max_seconds: float = 7.0, **options: Any) -> None:
        super().__init__(**options)
        self.max_chars, self.max_seconds = max_chars, max_seconds

    @staticmethod
    def sniff(text: str) -> bool:
        first = text.lstrip("\ufeff \t\r\n")[:100].split("\n", 1)[0]
        return _TIMING.match(first.strip()) is not None

    def read(self, text: str, name: str) -> Transcript:
        transcript = Transcript([])
        lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
        number = 0
        while number < len(lines):
            if not lines[number].strip():
                number += 1
                continue
            timing = _TIMING.match(lines[number].strip())
            if timing is None:
                raise RecordError(f"{name}, line {number + 1}: expected a cue's timing, H:MM:SS.mmm,H:MM:SS.mmm.")
            start, end = _seconds(timing.groups()[:4]), _seconds(timing.groups()[4:])
            if end < start:
                raise RecordError(f"{name}, line {number + 1}: the cue ends before it starts.")
            cue = number + 1
            body: List[str] = []
            number += 1
            while number < len(lines) and lines[number].strip():
                body.append(lines[number])
                number += 1
            for word in spread_words(" ".join(body).split(), start, end):
                transcript.words.append(word)
                transcript.groups.append(cue)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        builder = CueBuilder(self.max_chars, self.max_seconds)
        cues: List[Cue] = []
        for word, out in zip(transcript.words, words):
            start = word.start or 0.0
            cues += builder.add(CaptionWord(out.text, start, max(start, word.end or start), out.sentence_end))
        cues += builder.flush()
        return "\n".join(f"{_stamp(cue.start)},{_stamp(cue.end)}\n{cue.text}\n" for cue in cues)


def _seconds(parts: Sequence[str]) -> float:
    hours, minutes, seconds, millis = (int(part) for part in parts)
    return hours * 3600 + minutes * 60 + seconds + millis / 1000


def _stamp(seconds: float) -> str:
    """H:MM:SS.mmm, as YouTube writes it."""
    millis = int(round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    return f"{hours}:{minutes:02d}:{millis // 1000:02d}.{millis % 1000:03d}"
