"""LRC lines, as whisper.cpp writes them (`-olrc`): `[mm:ss.xx]` and the
text spoken from then on, ID tags such as `[by:whisper.cpp]` above them."""

import re
from typing import List, Optional, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, spread_words

_LINE = re.compile(r"^\[(\d+):(\d\d(?:\.\d+)?)\](\(speaker [^)]*\))?(.*)$")
_ID_TAG = re.compile(r"^\[[a-z#]+:[^\]]*\]\s*$", re.IGNORECASE)  # [by:whisper.cpp], [ar:...], [length:03:20]
# where a file has no next line to end its last one: seconds a word, at the file's own pace where known
_WORD_SECONDS = 0.4


@transcript_formats.register("lrc")
class LrcFormat(TranscriptFormat):
    """A line per segment, `[mm:ss.xx]` then its text (whisper.cpp's
    `--diarize` puts `(speaker 1)` between them); a line ends where the
    next starts (the last one after as many seconds a word as the file's
    lines take), its words sharing the time by length. Lines are re-cut at
    sentence ends, written with the file's ID tags, centiseconds and the
    space before the text; each speaker's turn is a text of its own."""

    endings = (".lrc",)

    @staticmethod
    def sniff(text: str) -> bool:
        lines = [line.strip() for line in text[:4000].splitlines() if line.strip()][:50]
        timed = [line for line in lines if _LINE.match(line)]
        return bool(timed) and all(_LINE.match(line) or _ID_TAG.match(line) for line in lines)

    def read(self, text: str, name: str) -> Transcript:
        tags: List[str] = []
        rows: List[Tuple[int, float, Optional[str], str]] = []  # (line number, start, speaker, text)
        digits = 2  # after the seconds' point: centiseconds, or as the file's first line writes them
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if not stripped:
                continue
            found = _LINE.match(stripped)
            if found is None:
                if _ID_TAG.match(stripped) and not rows:
                    tags.append(stripped)
                    continue
                raise RecordError(f"{name}, line {number}: expected [mm:ss.xx] and the words spoken from then on.")
            start = int(found.group(1)) * 60 + float(found.group(2))
            if rows and start < rows[-1][1]:
                raise RecordError(f"{name}, line {number}: starts before the line above it.")
            if not rows:
                digits = len(found.group(2).partition(".")[2])
            rows.append((number, start, found.group(3), found.group(4)))
        transcript = Transcript([], source={"tags": tags, "gap": _gap(rows[0][3]) if rows else "", "digits": digits})
        spoken = sum(len(row[3].split()) for row in rows[:-1])
        pace = (rows[-1][1] - rows[0][1]) / spoken if spoken and len(rows) > 1 else _WORD_SECONDS
        labels: List[str] = []
        for k, (number, start, speaker, said) in enumerate(rows):
            end = rows[k + 1][1] if k + 1 < len(rows) else start + pace * len(said.split())
            for word in spread_words(said.split(), start, end):
                transcript.words.append(word)
                transcript.groups.append(number)
                transcript.fields.append({"speaker": speaker or ""})
                labels.append(speaker or "")
                transcript.speakers.append(recognisers.speaker_name(_speaker_number(speaker)))
        transcript.take_turns(labels)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        lines = list(transcript.source["tags"])
        for sentence in recognisers.sentence_indices(words):
            start = transcript.words[sentence[0]].start or 0.0
            speaker = transcript.fields[sentence[0]]["speaker"] if transcript.fields else ""
            said = " ".join(words[k].text for k in sentence)
            stamp = _stamp(start, transcript.source["digits"])
            lines.append(f"[{stamp}]{speaker}{transcript.source['gap']}{said}")
        return "\n".join(lines) + "\n"


def _gap(said: str) -> str:
    return said[: len(said) - len(said.lstrip())]


def _speaker_number(label: Optional[str]) -> Optional[str]:
    """whisper.cpp's "(speaker 1)" as "1" ("(speaker ?)": none named)."""
    inside = label[len("(speaker ") : -1].strip() if label else ""
    return inside if inside and inside != "?" else None


def _stamp(seconds: float, digits: int = 2) -> str:
    """mm:ss.xx as whisper.cpp writes it (`digits` after the point: 2), or
    with as many digits as a file has (mm:ss.xxx, mm:ss)."""
    units = 10**digits
    ticks = int(round(seconds * units))
    minutes, ticks = divmod(ticks, 60 * units)
    fraction = f".{ticks % units:0{digits}d}" if digits else ""
    return f"{minutes:02d}:{ticks // units:02d}{fraction}"
