"""Speechmatics' transcript (`json-v2`), whose words come without marks
where `punctuation_overrides` permitted none: words and marks as results
of their own."""

import json
import re
from typing import Any, Dict, List, Mapping, Sequence

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError
from . import mark_items

_ITEM_TYPE = re.compile(r'"type"\s*:\s*"(word|punctuation)"')


@transcript_formats.register("speechmatics")
class SpeechmaticsFormat(TranscriptFormat):
    """Speechmatics' transcript: `{"format", "job", "metadata":
    {"transcription_config": {"language"}}, "results": [{"type": "word" |
    "punctuation", "start_time", "end_time", "channel", "alternatives":
    [{"content", "confidence", "language", "speaker"}], "is_eos"}]}`. Its
    words are read with the marks after them (`--repair` keeps them);
    written back, each word's content is cased as punctuated and its marks
    are `punctuation` results after it (at the word's end, `is_eos` where
    they end a sentence). Each channel is a text of its own, and with
    diarization each speaker's turn."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        ours = _ITEM_TYPE.search(head) is not None or '"transcription_config"' in head  # no words: its config
        return head.startswith("{") and '"results"' in head and ours

    @staticmethod
    def fits(value: Any) -> bool:
        results = value.get("results") if isinstance(value, Mapping) else None
        if not isinstance(results, list):
            return False
        if not results:  # no speech: its metadata tells it
            metadata = value.get("metadata")
            return isinstance(metadata, Mapping) and "transcription_config" in metadata
        return all(isinstance(r, Mapping) and r.get("type") in ("word", "punctuation") for r in results)

    def read(self, text: str, name: str) -> Transcript:
        value, results = recognisers.json_list(text, name, "results", "Speechmatics' transcript")
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text)})
        labels: List[str] = []
        for position, word in mark_items.item_words(results, name, "punctuation"):
            result = results[position]
            speaker = result["alternatives"][0].get("speaker")
            transcript.words.append(word)
            transcript.groups.append(position)
            labels.append(f"{result.get('channel') or ''}:{speaker or ''}")
            transcript.speakers.append(recognisers.speaker_name(speaker))
        transcript.take_turns(labels)
        metadata = value.get("metadata")
        config = metadata.get("transcription_config") if isinstance(metadata, Mapping) else None
        transcript.language = recognisers.language_code(config.get("language") if isinstance(config, Mapping) else None)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        written = mark_items.written_words(value["results"], transcript.groups, [w.text for w in words])
        value["results"], _ = mark_items.written_items(value["results"], written, "punctuation", _mark)
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _mark(word: Mapping[str, Any], mark: str) -> Dict[str, Any]:
    """A mark's result, as Speechmatics writes one: at its word's end, with its word's language and speaker."""
    best = word["alternatives"][0]
    alternative = {"content": mark, "confidence": 1.0, **{k: best[k] for k in ("language", "speaker") if k in best}}
    item: Dict[str, Any] = {"alternatives": [alternative], "attaches_to": "previous", "is_eos": mark in ".?!"}
    item.update({"start_time": word.get("end_time"), "end_time": word.get("end_time"), "type": "punctuation"})
    if "channel" in word:
        item["channel"] = word["channel"]
    return item


# Speechmatics' real-time messages
LIVE_MESSAGES = ("RecognitionStarted", "AddPartialTranscript", "AddTranscript", "EndOfUtterance", "EndOfTranscript")


def live_words(value: Mapping[str, Any], where: str) -> List[Any]:
    """The words of one of Speechmatics' real-time messages: a final
    transcript's (`AddTranscript`), each with the marks after it; partial
    transcripts and the other messages give none."""
    if value.get("message") != "AddTranscript":
        return []
    results = value.get("results")
    if not isinstance(results, list):
        raise RecordError(f"{where}: Speechmatics' transcript has no list of 'results'.")
    words = mark_items.item_words(results, where, "punctuation")
    return [{"word": word.text, "start": word.start, "end": word.end} for _, word in words]
