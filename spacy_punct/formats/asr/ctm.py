"""Kaldi CTM: a word per line, `utt channel start duration word [conf]`."""

import re
from typing import Dict, Sequence, Tuple

from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord


@transcript_formats.register("ctm")
class CtmFormat(TranscriptFormat):
    """Kaldi CTM: a word per line, `utt channel start duration word [conf]`;
    the words punctuated in place (a mark written onto its word), one text
    per recording (utterance id and channel), every line otherwise as it was."""

    endings = (".ctm",)
    separate_groups = True

    @staticmethod
    def sniff(text: str) -> bool:
        lines = [line for line in text[:2000].splitlines()[:5] if line.strip() and not line.startswith(";;")]
        return bool(lines) and all(_CTM.match(line) for line in lines)

    def read(self, text: str, name: str) -> Transcript:
        transcript = Transcript([], source=[])
        keys: Dict[Tuple[str, str], int] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.startswith(";;"):
                transcript.source.append((line, None, (0, 0)))
                continue
            match = _CTM.match(line)
            if not match:
                raise RecordError(f"{name}, line {number}: not a CTM line (utt channel start duration word [conf]).")
            utt, channel, start, duration, word = match.group(1, 2, 3, 4, 5)
            group = keys.setdefault((utt, channel), len(keys))
            transcript.source.append((line, len(transcript.words), match.span(5)))
            transcript.words.append(TimedWord(word, float(start), float(start) + float(duration)))
            transcript.groups.append(group)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        out = []
        for line, k, (start, end) in transcript.source:
            out.append(line if k is None else line[:start] + words[k].text + line[end:])  # its own spacing kept
        return "\n".join(out) + "\n"


_CTM = re.compile(r"^\s*(\S+)\s+(\S+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S+)(?:\s+([0-9.eE+-]+))?\s*$")
