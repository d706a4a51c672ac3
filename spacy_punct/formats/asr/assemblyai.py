"""AssemblyAI's transcript (`GET /v2/transcript/{id}`), whose words come
without marks or capitals where it was asked for `punctuate: false` and
`format_text: false`; its times are in milliseconds."""

import json
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord


@transcript_formats.register("assemblyai")
class AssemblyAIFormat(TranscriptFormat):
    """AssemblyAI's transcript: `{"id", "audio_url", "text", "words": [{"text",
    "start", "end", "confidence", "speaker"}], "utterances"}`, times in
    milliseconds. Punctuated in place: each word's `text`, the transcript's
    `text`, and each utterance's words and text; nothing is re-cut. Each
    channel (`channel`, with `multichannel`) is a text of its own, and with
    `speaker_labels` each speaker's turn."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        return head.startswith("{") and any(key in head for key in _KEYS) and '"words"' in text

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and any(key in value for key in ASSEMBLYAI_KEYS)

    def read(self, text: str, name: str) -> Transcript:
        value = recognisers.json_value(text, name)
        entries = value.get("words") if isinstance(value, Mapping) else None
        if not isinstance(entries, list):
            said = value.get("text") if isinstance(value, Mapping) else None
            if entries is not None or not isinstance(said, str):
                raise RecordError(f"{name}: expected AssemblyAI's transcript: an object with 'words' or 'text'.")
            entries = [{"text": word} for word in said.split()]
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text)})
        labels: List[str] = []
        for position, entry in enumerate(entries, start=1):
            transcript.words.append(_word(entry, f"{name}, word {position}"))
            transcript.fields.append(dict(entry))
            transcript.groups.append(0)
            labels.append(f"{entry.get('channel') or ''}:{entry.get('speaker') or ''}")
            transcript.speakers.append(recognisers.speaker_name(entry.get("speaker")))
        transcript.take_turns(labels)
        transcript.language = recognisers.language_code(value.get("language_code"))
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        punctuated: Dict[Tuple[Any, str], str] = {}  # (start, word as read) -> its text, for utterances
        if isinstance(value.get("words"), list):
            value["words"] = [dict(entry, text=word.text) for entry, word in zip(value["words"], words)]
            for entry, word in zip(transcript.fields, words):
                punctuated[(entry.get("start"), str(entry.get("text")))] = word.text
        value["text"] = " ".join(word.text for word in words)
        for utterance in value.get("utterances") or []:
            _punctuate_utterance(utterance, punctuated)
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


# keys of AssemblyAI's transcript that another recogniser's result has not
ASSEMBLYAI_KEYS = ("audio_url", "acoustic_model", "speech_model", "format_text")
_KEYS = tuple(f'"{key}"' for key in ASSEMBLYAI_KEYS)


def _word(entry: Any, where: str) -> TimedWord:
    """A word, its times in milliseconds read as seconds."""
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: expected an object with 'text', 'start', 'end'.")
    text = entry.get("text")
    if not isinstance(text, str) or not text.strip():
        raise RecordError(f"{where}: the word is missing or empty.")
    start, end = entry.get("start"), entry.get("end")
    if start is None and end is None:
        return TimedWord(text.strip())
    try:
        start, end = float(start) / 1000, float(end) / 1000  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise RecordError(f"{where} ({text.strip()!r}): start and end must be milliseconds.") from None
    return TimedWord(text.strip(), start, max(start, end))


def _punctuate_utterance(utterance: Any, punctuated: Dict[Tuple[Any, str], str]) -> None:
    """An utterance's words and text as punctuated in the transcript (one
    whose words are not all found there is left as read)."""
    if not isinstance(utterance, dict) or not isinstance(utterance.get("words"), list):
        return
    texts = [
        punctuated.get((entry.get("start"), str(entry.get("text")))) if isinstance(entry, Mapping) else None
        for entry in utterance["words"]
    ]
    if not texts or any(text is None for text in texts):
        return
    utterance["words"] = [dict(entry, text=text) for entry, text in zip(utterance["words"], texts)]
    utterance["text"] = " ".join(str(text) for text in texts)


# AssemblyAI's streaming messages (v3's `type`, v2's `message_type`)
LIVE_TYPES = ("Begin", "Turn", "Termination")
LIVE_MESSAGE_TYPES = (
    "SessionBegins",
    "PartialTranscript",
    "FinalTranscript",
    "SessionTerminated",
    "SessionInformation",
)


def live_words(value: Mapping[str, Any], where: str) -> List[Any]:
    """The words of one of AssemblyAI's streaming messages, timed in seconds:
    a turn's once it ends (v3's `Turn` with `end_of_turn`, not its formatted
    copy) or a final transcript's (v2's `FinalTranscript`); the messages
    before them give none, as the final one repeats their words."""
    final = (value.get("type") == "Turn" and value.get("end_of_turn") and not value.get("turn_is_formatted")) or (
        value.get("message_type") == "FinalTranscript"
    )
    if not final:
        return []
    entries = value.get("words")
    if not isinstance(entries, list):
        said = value.get("transcript", value.get("text"))
        return said.split() if isinstance(said, str) else []
    words = [_word(entry, f"{where}, word {position}") for position, entry in enumerate(entries, start=1)]
    return [{"word": word.text, "start": word.start, "end": word.end} if word.timed else word.text for word in words]
