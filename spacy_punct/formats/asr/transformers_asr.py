"""Hugging Face Transformers' speech recognition pipeline's result (and
insanely-fast-whisper's, made by it): wav2vec2's capitals without marks,
Whisper's chunks."""

import json
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord, fill_untimed, spread_words


@transcript_formats.register("transformers")
class TransformersFormat(TranscriptFormat):
    """`pipeline("automatic-speech-recognition")`'s result with timestamps:
    `{"text", "chunks": [{"text", "timestamp": [start, end]}]}` (an end may
    be null), or a list of them (a batch's, each a text of its own);
    insanely-fast-whisper's adds `speakers` (`{"speaker", "text",
    "timestamp"}`, the chunks' words by speaker). Chunks of one word
    (`return_timestamps="word"`) are punctuated in place; longer ones
    (Whisper's segments) are re-cut at sentence ends, each timed from its
    first word to its last (words share their chunk's time by length). The
    `text` and the speakers' texts are written as punctuated; with speakers,
    each speaker's turn is a text of its own."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()  # the result's "text" comes before its "chunks"
        timed = '"timestamp"' in head or _NO_CHUNKS.search(head) is not None  # no speech: no chunks
        return head.startswith(("{", "[")) and _CHUNKS.search(head) is not None and timed

    @staticmethod
    def fits(value: Any) -> bool:
        results = value if isinstance(value, list) else [value]
        shaped = all(
            isinstance(r, Mapping) and isinstance(r.get("chunks", r.get("text")), (list, str)) for r in results
        )
        return shaped and any(isinstance(r.get("chunks"), list) for r in results)

    def read(self, text: str, name: str) -> Transcript:
        value = recognisers.json_value(text, name)
        results = value if isinstance(value, list) else [value]
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text), "chunks": []})
        labels: List[str] = []
        for number, result in enumerate(results):
            where = f"{name}, result {number + 1}" if isinstance(value, list) else name
            if not isinstance(result, Mapping) or not isinstance(result.get("chunks", result.get("text")), (list, str)):
                raise RecordError(f"{where}: expected the pipeline's result: an object with 'chunks' or 'text'.")
            first = len(transcript.words)
            bounds: List[Tuple[Optional[float], Optional[float]]] = []
            chunks = result.get("chunks")
            if not isinstance(chunks, list):  # no timestamps asked for: the text alone
                transcript.source["chunks"].append((number, None))
                transcript.words.extend(TimedWord(word) for word in str(result["text"]).split())
                transcript.groups.extend([len(transcript.source["chunks"]) - 1] * (len(transcript.words) - first))
                bounds.extend([(None, None)] * (len(transcript.words) - first))
            elif _by_character(chunks, result.get("text")):
                raise RecordError(
                    f'{where}: its chunks are characters (return_timestamps="char"); give words ("word") or segments (True).'
                )
            else:
                for position, chunk in enumerate(chunks, start=1):
                    start, end, said = _chunk(chunk, f"{where}, chunk {position}")
                    transcript.source["chunks"].append((number, position - 1))
                    group = len(transcript.source["chunks"]) - 1
                    if len(said) == 1 or start is None:
                        transcript.words.extend(TimedWord(word, start, end) for word in said)
                    else:
                        transcript.words.extend(spread_words(said, start, start if end is None else end))
                    transcript.groups.extend([group] * len(said))
                    bounds.extend([(start, end)] * len(said))
            transcript.words[first:] = fill_untimed(transcript.words[first:], bounds)  # each result its own audio
            speakers = _speakers(result, len(transcript.words) - first)
            transcript.speakers.extend(recognisers.speaker_name(speaker) for speaker in speakers)
            labels.extend(f"{number}:{speaker}" for speaker in speakers)
        transcript.take_turns(labels)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        results = value if isinstance(value, list) else [value]
        places: List[Tuple[int, Optional[int]]] = transcript.source["chunks"]
        per_result: Dict[int, List[int]] = {}
        for k, group in enumerate(transcript.groups):
            per_result.setdefault(places[group][0], []).append(k)
        for number, result in enumerate(results):
            mine = per_result.get(number, [])
            if isinstance(result.get("chunks"), list):
                result["chunks"] = _written_chunks(transcript, words, result["chunks"], mine)
            if isinstance(result.get("text"), str):
                result["text"] = _leading(result["text"]) + " ".join(words[k].text for k in mine)
            if any(speaker is not None for speaker in _speakers(result, len(mine))):
                _write_speakers(result["speakers"], [words[k].text for k in mine])
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


_CHUNKS = re.compile(r'"chunks"\s*:')
_NO_CHUNKS = re.compile(r'"chunks"\s*:\s*\[\s*\]')


def _chunk(chunk: Any, where: str) -> Tuple[Optional[float], Optional[float], List[str]]:
    """A chunk's start, end and words."""
    if not isinstance(chunk, Mapping) or not isinstance(chunk.get("text"), str):
        raise RecordError(f"{where}: expected an object with 'text' and 'timestamp'.")
    stamp = chunk.get("timestamp")
    if stamp is None:
        return None, None, chunk["text"].split()
    try:
        start, end = (None if time is None else float(time) for time in stamp)
    except (TypeError, ValueError):
        raise RecordError(
            f"{where} ({chunk['text'].strip()!r}): 'timestamp' must be [start, end] in seconds."
        ) from None
    if start is not None and end is not None and end < start:
        raise RecordError(f"{where}: needs start <= end, got {start}, {end}.")
    return start, end, chunk["text"].split()


def _by_character(chunks: List[Any], text: Any) -> bool:
    """Whether a result's chunks are its text's characters (wav2vec2's
    `return_timestamps="char"`), not its words."""
    single = all(isinstance(c, Mapping) and len(str(c.get("text", "")).strip()) <= 1 for c in chunks)
    return len(chunks) > 1 and single and isinstance(text, str) and any(len(word) > 1 for word in text.split())


def _leading(text: str) -> str:
    """The whitespace a text was read with (Whisper's " so", wav2vec2's "SO")."""
    return text[: len(text) - len(text.lstrip())]


def _written_chunks(
    transcript: Transcript, words: Sequence[OutputWord], chunks: List[Any], mine: List[int]
) -> List[Any]:
    """A result's chunks with its words punctuated: chunks of one word (or
    none) in place, else re-cut at its sentence ends."""
    if all(len(chunk["text"].split()) <= 1 for chunk in chunks):
        texts = iter(words[k].text for k in mine)
        return [
            dict(chunk, text=_leading(chunk["text"]) + next(texts)) if chunk["text"].split() else chunk
            for chunk in chunks
        ]
    places = transcript.source["chunks"]
    written = []
    for sentence in recognisers.sentence_indices([words[k] for k in mine]):
        first, last = mine[sentence[0]], mine[sentence[-1]]
        read = chunks[places[transcript.groups[first]][1]]
        start, end = transcript.words[first].start, transcript.words[last].end
        chunk = dict(read, text=_leading(read["text"]) + " ".join(words[mine[k]].text for k in sentence))
        if read.get("timestamp") is not None:
            last_read = chunks[places[transcript.groups[last]][1]]
            ends_chunk = last == mine[-1] or transcript.groups[last + 1] != transcript.groups[last]
            open_end = last_read["timestamp"][1] is None and ends_chunk  # Whisper's last chunk, cut off
            chunk["timestamp"] = [start, None if open_end else end]
        written.append(chunk)
    return written


def _speakers(result: Mapping[str, Any], count: int) -> List[Optional[str]]:
    """Per word of a result, its speaker (insanely-fast-whisper's
    `speakers`: their texts hold the chunks' words in order); None for each
    where there are none, or where their words are not the chunks'."""
    entries = result.get("speakers")
    if not isinstance(entries, list) or not entries:
        return [None] * count
    speakers: List[Optional[str]] = []
    for entry in entries:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("text"), str):
            return [None] * count
        speakers.extend([str(entry.get("speaker"))] * len(entry["text"].split()))
    return speakers if len(speakers) == count else [None] * count


def _write_speakers(entries: List[Any], texts: Sequence[str]) -> None:
    """The speakers' texts with the words as punctuated."""
    position = 0
    for entry in entries:
        size = len(entry["text"].split())
        entry["text"] = _leading(entry["text"]) + " ".join(texts[position : position + size])
        position += size
