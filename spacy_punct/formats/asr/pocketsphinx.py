"""What `pocketsphinx_continuous -time yes` prints: per utterance, its
hypothesis line, then a line per word, `word start end probability`."""

import re
from typing import List, Sequence

from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord


@transcript_formats.register("pocketsphinx")
class PocketsphinxFormat(TranscriptFormat):
    """pocketsphinx's timed output: an utterance's hypothesis line, then its
    words with their times and probabilities, fillers among them (`<s>`,
    `<sil>`, `[NOISE]`) and alternate pronunciations numbered (`the(2)`).
    The words are punctuated in place (the number dropped), fillers and
    every other field kept; each hypothesis line is written again from its
    utterance's punctuated words. The utterances are one text."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        lines = [line for line in text[:4000].splitlines() if line.strip()][:6]
        return len(lines) > 1 and _WORD.match(lines[1]) is not None and lines[1].startswith("<s> ")

    def read(self, text: str, name: str) -> Transcript:
        transcript = Transcript([], source=[])
        utterance = -1
        for number, line in enumerate(text.splitlines(), start=1):
            match = _WORD.match(line)
            if match is None:
                if line.strip():
                    utterance += 1
                transcript.source.append((line, None, utterance))  # a hypothesis line, or a blank one
                continue
            if utterance < 0:
                raise RecordError(f"{name}, line {number}: a word line before any hypothesis line.")
            word, start, end = match.group(1, 3, 4)
            if _FILLER.match(word):
                transcript.source.append((line, None, None))
                continue
            transcript.source.append(
                (line, len(transcript.words), (match.start(1), match.end(2 if match.group(2) else 1)))
            )
            transcript.words.append(TimedWord(word, float(start), float(end)))
            transcript.groups.append(utterance)
        if not transcript.words and text.strip():
            raise RecordError(f"{name}: no timed words (pocketsphinx_continuous -time yes writes them).")
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        spoken: List[List[str]] = [[] for _ in range(max(transcript.groups, default=-1) + 1)]
        for word, group in zip(words, transcript.groups):
            spoken[group].append(word.text)
        out = []
        for line, k, where in transcript.source:
            if k is not None:
                start, end = where
                out.append(line[:start] + words[k].text + line[end:])
            elif where is not None and line.strip() and 0 <= where < len(spoken) and spoken[where]:
                out.append(" ".join(spoken[where]))  # the utterance's hypothesis, punctuated
            else:
                out.append(line)
        return "\n".join(out) + "\n"


# `word start end probability`, the word with its pronunciation's number: `the(2) 0.03 0.23 0.96`
_WORD = re.compile(r"^(\S+?)(\(\d+\))?\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.eE+-]+)\s*$")
_FILLER = re.compile(r"^(<[^>]*>|\[[^\]]*\]|\+\+.*\+\+)$")
