"""Segments as rows of a table: openai-whisper's TSV (`--output_format tsv`)
and whisper.cpp's CSV (`-ocsv`), each row a segment's start and end in
milliseconds and its text."""

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..recognisers import (
    OutputWord,
    Transcript,
    TranscriptFormat,
    sentence_indices,
    speaker_name,
    speaker_turns,
    transcript_formats,
)
from ..timed import RecordError, spread_words


class SegmentTable(TranscriptFormat):
    """A header line, then a row per segment: its words share its time by
    length; rows are re-cut at sentence ends, each new one timed from its
    first word to its last."""

    headers: Tuple[str, ...] = ()

    @classmethod
    def sniff(cls, text: str) -> bool:
        first = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
        return first in cls.headers

    def read(self, text: str, name: str) -> Transcript:
        lines = text.lstrip("\ufeff").splitlines()
        header = lines[0].rstrip("\r") if lines else ""
        if header not in self.headers:
            raise RecordError(f"{name}, line 1: expected the header {self.headers[0]!r}.")
        transcript = Transcript([], source={"header": header, "spaced": False})
        speakers: List[Optional[str]] = []
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            start, end, speaker, said = self.row(line, header, f"{name}, line {number}")
            transcript.source["spaced"] |= said.startswith(" ")  # whisper.cpp's texts start with a space
            for word in spread_words(said.split(), start / 1000, end / 1000):
                transcript.words.append(word)
                transcript.fields.append({"speaker": speaker})
                transcript.groups.append(number)
                speakers.append(None if speaker in (None, "?") else speaker)
        if any(speaker is not None for speaker in speakers):
            transcript.turns = speaker_turns(speakers)
            transcript.speakers = [speaker_name(speaker) for speaker in speakers]
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        lines = [transcript.source["header"]]
        lead = " " if transcript.source["spaced"] else ""
        for sentence in sentence_indices(words):
            first, last = transcript.words[sentence[0]], transcript.words[sentence[-1]]
            start = round((first.start or 0.0) * 1000)
            end = max(start, round((last.end or 0.0) * 1000))
            said = lead + " ".join(words[k].text for k in sentence)
            lines.append(self.written_row(start, end, transcript.fields[sentence[0]].get("speaker"), said))
        return "\n".join(lines) + "\n"

    def row(self, line: str, header: str, where: str) -> Tuple[int, int, Optional[str], str]:
        """(start ms, end ms, speaker or None, text) of a row."""
        raise NotImplementedError

    def written_row(self, start: int, end: int, speaker: Optional[str], text: str) -> str:
        raise NotImplementedError


@transcript_formats.register("tsv")
class WhisperTsvFormat(SegmentTable):
    """openai-whisper's TSV: `start<TAB>end<TAB>text`, times in milliseconds."""

    headers = ("start\tend\ttext",)

    def row(self, line: str, header: str, where: str) -> Tuple[int, int, Optional[str], str]:
        parts = line.rstrip("\r").split("\t", 2)
        if len(parts) != 3 or not all(re.fullmatch(r"\d+", part) for part in parts[:2]):
            raise RecordError(f"{where}: expected start<TAB>end<TAB>text, times in milliseconds.")
        return _ordered(int(parts[0]), int(parts[1]), where) + (None, parts[2])

    def written_row(self, start: int, end: int, speaker: Optional[str], text: str) -> str:
        return f"{start}\t{end}\t{text.replace(chr(9), ' ')}"


@transcript_formats.register("csv")
class WhisperCppCsvFormat(SegmentTable):
    """whisper.cpp's CSV: `start,end,"text"` (with `--diarize` on stereo
    input, `start,end,speaker,"text"`), times in milliseconds, the text in
    double quotes with `"` and `\\` escaped by a backslash."""

    headers = ("start,end,text", "start,end,speaker,text")

    def row(self, line: str, header: str, where: str) -> Tuple[int, int, Optional[str], str]:
        speaker_column = header.count(",") == 3
        match = (_DIARIZED_ROW if speaker_column else _ROW).match(line.rstrip("\r"))
        if not match:
            raise RecordError(f"{where}: expected {header.replace('text', chr(34) + 'text' + chr(34))}.")
        values: Dict[str, Any] = match.groupdict()
        said = re.sub(r"\\(.)", r"\1", values["text"])
        return _ordered(int(values["start"]), int(values["end"]), where) + (values.get("speaker"), said)

    def written_row(self, start: int, end: int, speaker: Optional[str], text: str) -> str:
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        return f'{start},{end},{"" if speaker is None else speaker + ","}"{escaped}"'


_ROW = re.compile(r'^(?P<start>\d+),(?P<end>\d+),"(?P<text>.*)"\s*$')
_DIARIZED_ROW = re.compile(r'^(?P<start>\d+),(?P<end>\d+),(?P<speaker>[^,"]*),"(?P<text>.*)"\s*$')


def _ordered(start: int, end: int, where: str) -> Tuple[int, int]:
    if start > end:
        raise RecordError(f"{where}: the segment ends ({end} ms) before it starts ({start} ms).")
    return start, end
