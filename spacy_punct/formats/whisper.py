"""openai-whisper's `transcribe` result, WhisperX's and faster-whisper's word lists."""

import json
from typing import Any, Dict, List, Mapping, Sequence

from .recognisers import (
    OutputWord,
    Transcript,
    TranscriptFormat,
    json_value,
    sentence_indices,
    timed_entry,
    transcript_formats,
    word_entry,
)
from .timed import RecordError


@transcript_formats.register("whisper")
class WhisperFormat(TranscriptFormat):
    """openai-whisper's result (`{"text", "segments": [{"start", "end",
    "text", "words": [{"word", "start", "end", "probability"}]}]}`),
    WhisperX's (`segments` and `word_segments`), or faster-whisper's words
    as a JSON list. Segments are re-cut at sentence ends, each new one with
    the fields of the segment its first word came from."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()  # the start of the file: its "text" may come before "segments"
        return head.startswith(("{", "[")) and (
            '"segments"' in head or ('"word"' in head[:4000] and '"probability"' in head[:4000])
        )

    def read(self, text: str, name: str) -> Transcript:
        value = json_value(text, name)
        if isinstance(value, list):
            value = {"segments": [{"words": value}], "_bare": True}
        segments = value.get("segments") if isinstance(value, Mapping) else None
        if not isinstance(segments, list):
            raise RecordError(f"{name}: expected Whisper's result: an object with 'segments'.")
        transcript = Transcript([], source=value)
        for number, segment in enumerate(segments):
            words = segment.get("words") if isinstance(segment, Mapping) else None
            if not isinstance(words, list):
                raise RecordError(
                    f"{name}, segment {number + 1}: no 'words': transcribe with word_timestamps=True "
                    "(or give the text as plain text)."
                )
            for position, entry in enumerate(words, start=1):
                word = timed_entry(entry, f"{name}, segment {number + 1}, word {position}")
                transcript.words.append(word)
                transcript.fields.append(dict(entry))
                transcript.groups.append(number)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        source = dict(transcript.source)
        segments = source["segments"]
        new_segments: List[Dict[str, Any]] = []
        for sentence in sentence_indices(words):
            first = sentence[0]
            segment = {k: v for k, v in segments[transcript.groups[first]].items() if k not in ("words", "tokens")}
            entries = [word_entry(transcript, k, words[k].text, leading=" ") for k in sentence]
            segment.update(
                id=len(new_segments),
                start=entries[0]["start"],
                end=entries[-1]["end"],
                text="".join(entry["word"] for entry in entries),
                words=entries,
            )
            new_segments.append(segment)
        if source.pop("_bare", False):
            return json.dumps([w for s in new_segments for w in s["words"]], ensure_ascii=False) + "\n"
        source["segments"] = new_segments
        source["text"] = "".join(segment["text"] for segment in new_segments)
        if "word_segments" in source:  # WhisperX
            source["word_segments"] = [w for s in new_segments for w in s["words"]]
        return json.dumps(source, ensure_ascii=False) + "\n"
