"""Timestamped lines as whisper.cpp and openai-whisper print them,
`[00:00:00.000 --> 00:00:02.000]  so how was the trip` (openai-whisper's
`--verbose` leaves out the hours under one): a console's output saved."""

import re
from typing import List, Optional, Sequence, Tuple

from ..captions import timestamp
from ..recognisers import OutputWord, Transcript, TranscriptFormat, sentence_indices, transcript_formats
from ..timed import RecordError, spread_words


@transcript_formats.register("timestamped")
class TimestampedLinesFormat(TranscriptFormat):
    """A line per segment, `[start --> end]` then its text; the words share
    their line's time by length, and lines are re-cut at sentence ends,
    written with the timestamps (hours or not) and the space the file has.
    Lines without a timestamp (a tool's messages) are kept where they are."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        # segments, maybe between a tool's messages (whisper.cpp's stderr sent along with 2>&1)
        lines = [line for line in text[:20_000].splitlines()[:200] if line.strip()]
        stamped = [timestamped_line(line) is not None for line in lines]
        if not any(stamped):
            return False
        first, last = stamped.index(True), len(stamped) - 1 - stamped[::-1].index(True)
        return all(stamped[first : last + 1])

    def read(self, text: str, name: str) -> Transcript:
        transcript = Transcript([], source={"hours": True, "gap": "  ", "before": [], "after": []})
        for number, line in enumerate(text.splitlines(), start=1):
            found = timestamped_line(line)
            if found is None:
                if line.strip() and not transcript.words:
                    transcript.source["before"].append(line)
                elif line.strip():
                    transcript.source["after"].append(line)
                continue
            start, end, said = found
            if transcript.source["after"]:
                raise RecordError(f"{name}, line {number}: a timestamped line after lines without one.")
            if not transcript.words:
                match = _LAYOUT.match(line)
                transcript.source.update(hours=bool(match and match.group(1)), gap=match.group(2) if match else "  ")
            for word in spread_words(said.split(), start, end):
                transcript.words.append(word)
                transcript.groups.append(number)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        source = transcript.source
        lines: List[str] = list(source["before"])
        for sentence in sentence_indices(words):
            start = transcript.words[sentence[0]].start or 0.0
            end = max(start, transcript.words[sentence[-1]].end or start)
            said = " ".join(words[k].text for k in sentence)
            lines.append(f"[{_stamp(start, source['hours'])} --> {_stamp(end, source['hours'])}]{source['gap']}{said}")
        return "\n".join(lines + source["after"]) + "\n"


# whisper.cpp's and openai-whisper's printed segment: [00:00:00.000 --> 00:00:02.000]  text
_TIMESTAMPED = re.compile(r"^\s*\[((?:\d+:)?\d\d:\d\d\.\d\d\d)\s+-->\s+((?:\d+:)?\d\d:\d\d\.\d\d\d)\](.*)$")


def timestamped_line(line: str) -> Optional[Tuple[float, float, str]]:
    """(start, end, text) of a segment as whisper.cpp and openai-whisper
    print it, `[00:00:00.000 --> 00:00:02.000]  text` (hours left out or
    not); None for any other line."""
    match = _TIMESTAMPED.match(line)
    if not match:
        return None
    start, end = (_clock_seconds(match.group(k)) for k in (1, 2))
    return start, max(start, end), match.group(3).strip()


def _clock_seconds(clock: str) -> float:
    """Seconds of [HH:]MM:SS.mmm."""
    seconds = 0.0
    for part in clock.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


_LAYOUT = re.compile(r"^\s*\[(\d+:)?\d\d:\d\d\.\d\d\d\s+-->\s+[\d:.]+\](\s*)")


def _stamp(seconds: float, hours: bool) -> str:
    """00:00:01.500, or without hours 00:01.500 (openai-whisper's under an hour)."""
    written = timestamp(seconds, ".")
    return written if hours or not written.startswith("00:") else written[3:]
