"""Amazon Transcribe's batch transcription result: words (`pronunciation`
items) and marks (`punctuation` items) apart, times as strings of seconds."""

import json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError
from . import mark_items


@transcript_formats.register("amazon")
class AmazonTranscribeFormat(TranscriptFormat):
    """Amazon Transcribe's result: `{"jobName", "results": {"transcripts":
    [{"transcript"}], "items": [{"id", "type": "pronunciation" |
    "punctuation", "alternatives": [{"content", "confidence"}],
    "start_time", "end_time", "speaker_label"}], "audio_segments":
    [{"id", "transcript", "items": [item ids]}]}}`. Its words are read with
    the marks Amazon put after them (`--repair` keeps them); written back,
    each word's content is cased as punctuated and its marks are
    `punctuation` items after it (ids renumbered, the audio segments' item
    lists and transcripts with them); the transcript, and the items of each
    channel (`channel_labels`) likewise. With speaker labels or channels,
    each speaker's turn is a text of its own."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        return head.startswith("{") and '"results"' in head and ('"jobName"' in head or '"transcripts"' in head)

    @staticmethod
    def fits(value: Any) -> bool:
        results = value.get("results") if isinstance(value, Mapping) else None
        return isinstance(results, Mapping) and isinstance(results.get("items"), list)

    def read(self, text: str, name: str) -> Transcript:
        value = recognisers.json_value(text, name)
        results = value.get("results") if isinstance(value, Mapping) else None
        if not isinstance(results, Mapping) or not isinstance(results.get("items"), list):
            raise RecordError(f"{name}: expected Amazon Transcribe's result: 'results' with a list of 'items'.")
        items = results["items"]
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text)})
        labels: List[str] = []
        channels = _channels(results)
        for position, word in mark_items.item_words(items, name, "punctuation"):
            item = items[position]
            transcript.words.append(word)
            transcript.groups.append(position)
            channel = item.get("channel_label") or channels.get((mark_items.start_key(item), word.text), "")
            labels.append(f"{channel}:{item.get('speaker_label') or ''}")
            transcript.speakers.append(_speaker(item.get("speaker_label")))
        transcript.take_turns(labels)
        transcript.language = recognisers.language_code(results.get("language_code", value.get("language_code")))
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        results = value["results"]
        written = mark_items.written_words(results["items"], transcript.groups, [w.text for w in words])
        results["items"], ids = mark_items.written_items(results["items"], written, "punctuation", _mark)
        if isinstance(results.get("transcripts"), list) and results["transcripts"]:
            results["transcripts"][0] = dict(results["transcripts"][0], transcript=" ".join(w.text for w in words))
        for segment in results.get("audio_segments") or []:
            if isinstance(segment, dict) and isinstance(segment.get("items"), list):
                _rewrite_segment(segment, ids, results["items"])
        for channel in (results.get("channel_labels") or {}).get("channels") or []:
            if isinstance(channel, dict) and isinstance(channel.get("items"), list):
                channel["items"], _ = mark_items.written_items(channel["items"], written, "punctuation", _mark)
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _channels(results: Mapping[str, Any]) -> Dict[Tuple[str, str], str]:
    """Each word's channel by its start and content, from the channels' own
    items (`channel_labels`), where the words do not say it."""
    found: Dict[Tuple[str, str], str] = {}
    channels = results.get("channel_labels")
    for channel in (channels.get("channels") if isinstance(channels, Mapping) else None) or []:
        for item in (channel.get("items") if isinstance(channel, Mapping) else None) or []:
            alternatives = item.get("alternatives") if isinstance(item, Mapping) else None
            if item.get("type") == "pronunciation" and isinstance(alternatives, list) and alternatives:
                found[(mark_items.start_key(item), str(alternatives[0].get("content")))] = str(
                    channel.get("channel_label")
                )
    return found


def _speaker(label: Any) -> str:
    """A speaker as captions name it: Amazon's "spk_0" as "Speaker 1"."""
    text = str(label) if label is not None else ""
    return f"Speaker {int(text[4:]) + 1}" if text.startswith("spk_") and text[4:].isdigit() else text


def _mark(word: Mapping[str, Any], mark: str) -> Dict[str, Any]:
    """A mark's item, as Amazon writes one."""
    return {"type": "punctuation", "alternatives": [{"confidence": "0.0", "content": mark}]}


def _rewrite_segment(segment: Dict[str, Any], ids: Dict[Any, Optional[List[int]]], items: List[Any]) -> None:
    """An audio segment's item ids and transcript after its words were
    punctuated (one naming an id not read is left as it was)."""
    if any(old not in ids for old in segment["items"]):
        return
    segment["items"] = [new for old in segment["items"] for new in ids[old] or []]
    text = ""
    for new in segment["items"]:
        content = items[new]["alternatives"][0]["content"]
        text += content if items[new].get("type") == "punctuation" or not text else " " + content
    segment["transcript"] = text


def live_words(value: Mapping[str, Any], where: str) -> List[Any]:
    """The words of one of Amazon Transcribe's streaming events
    (`{"Transcript": {"Results": [{"IsPartial", "Alternatives": [{"Items":
    [{"Type", "Content", "StartTime", "EndTime"}], "Transcript"}]}]}}`): a
    final result's words, each with the marks after it; partial results
    give none (the final one repeats their words)."""
    results = value["Transcript"].get("Results")
    words: List[Any] = []
    for result in results if isinstance(results, list) else []:
        if not isinstance(result, Mapping) or result.get("IsPartial", False):
            continue
        alternatives = result.get("Alternatives")
        best = alternatives[0] if isinstance(alternatives, list) and alternatives else None
        if not isinstance(best, Mapping):
            raise RecordError(f"{where}: Amazon's result has no 'Alternatives'.")
        items = best.get("Items")
        if not isinstance(items, list):
            said = best.get("Transcript")
            words.extend(said.split() if isinstance(said, str) else [])
            continue
        for item in items:
            content = item.get("Content") if isinstance(item, Mapping) else None
            if not isinstance(content, str) or not content.strip():
                raise RecordError(f"{where}: an item of Amazon's result has no 'Content'.")
            if item.get("Type") == "punctuation":
                if words:
                    words[-1]["word"] += content.strip()
                continue
            words.append({"word": content.strip(), "start": item.get("StartTime"), "end": item.get("EndTime")})
    return words
