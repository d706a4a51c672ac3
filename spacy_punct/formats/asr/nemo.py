"""NeMo manifests: JSONL with `audio_filepath` and `text` or `pred_text`."""

import json
from typing import Dict, List, Mapping, Sequence

from ..recognisers import OutputWord, Transcript, TranscriptFormat, json_value, transcript_formats
from ..timed import RecordError, TimedWord


@transcript_formats.register("nemo")
class NemoFormat(TranscriptFormat):
    """NeMo manifests: JSONL with `audio_filepath` and `text` (or the model's
    `pred_text`); each record's text punctuated, every other field kept."""

    endings = ()
    separate_groups = True

    @staticmethod
    def sniff(text: str) -> bool:
        first = text.lstrip()[:2000].split("\n", 1)[0]
        return first.startswith("{") and '"audio_filepath"' in first

    def read(self, text: str, name: str) -> Transcript:
        records = [json_value(line, f"{name}, line {n}") for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        transcript = Transcript([], source=records)
        for number, record in enumerate(records):
            key = "pred_text" if isinstance(record, Mapping) and "pred_text" in record else "text"
            value = record.get(key) if isinstance(record, Mapping) else None
            if not isinstance(value, str):
                raise RecordError(f"{name}, line {number + 1}: a manifest line needs 'text' or 'pred_text'.")
            for word in value.split():
                transcript.words.append(TimedWord(word))
                transcript.groups.append(number)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        texts: Dict[int, List[str]] = {}
        for k, word in enumerate(words):
            texts.setdefault(transcript.groups[k], []).append(word.text)
        out = []
        for number, record in enumerate(transcript.source):
            record = dict(record)
            key = "pred_text" if "pred_text" in record else "text"
            record[key] = " ".join(texts.get(number, []))
            out.append(json.dumps(record, ensure_ascii=False) + "\n")
        return "".join(out)
