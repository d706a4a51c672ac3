"""Deepgram's pre-recorded result (`/v1/listen`), whose words come without
marks or capitals unless `punctuate` was asked for."""

import json
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord, fill_untimed


@transcript_formats.register("deepgram")
class DeepgramFormat(TranscriptFormat):
    """Deepgram's result: `{"metadata", "results": {"channels": [{"alternatives":
    [{"transcript", "words": [{"word", "start", "end", "confidence"}]}]}],
    "utterances"}}`. Each channel's first alternative is punctuated (as
    Deepgram's `punctuate` writes it: each word's `punctuated_word`, its
    `word` as recognised, the `transcript`, and `paragraphs` where Deepgram
    made them); the other alternatives are kept. Each channel is a text of its own, and with diarization each
    speaker's turn (the words' `speaker`). Utterances (`utterances=true`)
    take their words' punctuated forms; nothing is re-cut."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:20000]  # its metadata comes first
        return head.startswith("{") and '"channels"' in head and '"alternatives"' in head

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and isinstance(value.get("results"), Mapping)

    def read(self, text: str, name: str) -> Transcript:
        value = recognisers.json_value(text, name)
        results = value.get("results") if isinstance(value, Mapping) else None
        channels = results.get("channels") if isinstance(results, Mapping) else None
        if not isinstance(channels, list):
            raise RecordError(f"{name}: expected Deepgram's result: an object with 'results' and its 'channels'.")
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text)})
        speakers: List[str] = []
        for number, channel in enumerate(channels):
            where = f"{name}, channel {number + 1}"
            for position, entry in enumerate(_first_words(channel, where), start=1):
                word = recognisers.timed_entry(entry, f"{where}, word {position}")
                written = entry.get("punctuated_word")  # a result punctuated before: its marks are the input's
                if isinstance(written, str) and written.strip():
                    word = TimedWord(written.strip(), word.start, word.end)
                transcript.words.append(word)
                transcript.fields.append(dict(entry))
                transcript.groups.append(number)
                speakers.append(f"{number}:{entry.get('speaker', '')}")
                transcript.speakers.append(recognisers.speaker_name(entry.get("speaker")))
        transcript.words = fill_untimed(transcript.words, [(None, None)] * len(transcript.words))
        if len(set(speakers)) > 1:  # channels, or speakers within one: each turn a text of its own
            transcript.turns = recognisers.speaker_turns(speakers)
        detected = [channel.get("detected_language") for channel in channels if isinstance(channel, Mapping)]
        transcript.language = next((code for code in map(recognisers.language_code, detected) if code), None)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        source = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        results = source["results"]
        punctuated: Dict[Tuple[int, Any, str], str] = {}  # (channel, start, word) -> its text, for utterances
        for number, channel in enumerate(results["channels"]):
            ks = [k for k, group in enumerate(transcript.groups) if group == number]
            if not ks:
                continue
            best = channel["alternatives"][0]
            entries = []
            for k in ks:
                entry = dict(transcript.fields[k])
                entry["punctuated_word"] = words[k].text
                punctuated[_key(number, entry)] = words[k].text
                entries.append(entry)
            if isinstance(best.get("words"), list) and best["words"]:
                best["words"] = entries
            best["transcript"] = " ".join(words[k].text for k in ks)
            if isinstance(best.get("paragraphs"), dict):
                _punctuate_paragraphs(best["paragraphs"], [(transcript.words[k], words[k]) for k in ks])
        for utterance in results.get("utterances") or []:
            _punctuate_utterance(utterance, punctuated)
        return json.dumps(source, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _first_words(channel: Any, where: str) -> List[Any]:
    """The word entries of a channel's first alternative (of one without
    words, its transcript's words; of one without alternatives, none)."""
    if not isinstance(channel, Mapping) or not isinstance(channel.get("alternatives"), list):
        raise RecordError(f"{where}: expected an object with 'alternatives'.")
    if not channel["alternatives"]:
        return []
    best = channel["alternatives"][0]
    if not isinstance(best, Mapping):
        raise RecordError(f"{where}, alternative 1: expected an object with 'transcript' and 'words'.")
    entries = best.get("words")
    if isinstance(entries, list) and entries:
        return entries
    said = best.get("transcript")
    if not isinstance(said, str):
        raise RecordError(f"{where}, alternative 1: no 'words' and no 'transcript'.")
    return [{"word": word} for word in said.split()]


def _punctuate_paragraphs(paragraphs: Dict[str, Any], words: List[Tuple[TimedWord, OutputWord]]) -> None:
    """Deepgram's paragraphs (made from its own marks) with the channel's
    words as punctuated: each paragraph's words are those spoken within it,
    its sentences cut where theirs end, and its text in the transcript
    replaced (a paragraph not found as read is left as it was)."""
    layout, cursor, position = str(paragraphs.get("transcript", "")), 0, 0
    for paragraph in paragraphs.get("paragraphs") or []:
        if not isinstance(paragraph, dict) or not isinstance(paragraph.get("sentences"), list):
            continue
        end, count = paragraph.get("end"), paragraph.get("num_words")
        inside: List[Tuple[TimedWord, OutputWord]] = []
        while position < len(words):  # the words spoken before its end (or, without one, as many as it had)
            spoken = words[position][0].start
            if inside and (end is not None and spoken is not None and spoken >= end):
                break
            if end is None and isinstance(count, int) and len(inside) >= count:
                break
            inside.append(words[position])
            position += 1
        old = " ".join(str(s.get("text", "")) for s in paragraph["sentences"] if isinstance(s, Mapping))
        sentences: List[Dict[str, Any]] = []
        for timed, out in inside:
            if not sentences or sentences[-1]["_closed"]:
                sentences.append({"text": out.text, "start": timed.start, "end": timed.end, "_closed": False})
            else:
                sentences[-1].update(text=sentences[-1]["text"] + " " + out.text, end=timed.end)
            sentences[-1]["_closed"] = out.sentence_end
        paragraph["sentences"] = [{k: v for k, v in s.items() if k != "_closed"} for s in sentences]
        new = " ".join(s["text"] for s in paragraph["sentences"])
        found = layout.find(old, cursor) if old else -1
        if found >= 0:
            layout = layout[:found] + new + layout[found + len(old) :]
            cursor = found + len(new)
    paragraphs["transcript"] = layout


def _key(channel: int, entry: Mapping[str, Any]) -> Tuple[int, Any, str]:
    """What finds a channel's word among the utterances' words."""
    return channel, entry.get("start"), str(entry.get("word"))


def _punctuate_utterance(utterance: Any, punctuated: Dict[Tuple[int, Any, str], str]) -> None:
    """An utterance's words and transcript as punctuated in their channel
    (an utterance whose words are not all found there is left as read)."""
    if not isinstance(utterance, dict) or not isinstance(utterance.get("words"), list):
        return
    channel = utterance.get("channel", 0)
    channel = channel if isinstance(channel, int) else 0
    texts = [
        punctuated.get(_key(channel, entry)) if isinstance(entry, Mapping) else None for entry in utterance["words"]
    ]
    if not texts or any(text is None for text in texts):
        return
    for entry, text in zip(utterance["words"], texts):
        entry["punctuated_word"] = text
    utterance["transcript"] = " ".join(str(text) for text in texts)


# Deepgram's live messages: only a final result carries words to punctuate
LIVE_EVENTS = ("Results", "Metadata", "UtteranceEnd", "SpeechStarted")


def live_words(value: Mapping[str, Any], where: str) -> List[Any]:
    """The words of one of Deepgram's live messages: a final result's first
    alternative (interim results give none: the final one repeats their
    words; nor do its other events)."""
    if value.get("type", "Results") != "Results" or not value.get("is_final", False):
        return []
    channel = value.get("channel")
    alternatives = channel.get("alternatives") if isinstance(channel, Mapping) else None
    if not isinstance(alternatives, list):
        raise RecordError(f"{where}: Deepgram's result has no 'channel' with 'alternatives'.")
    if not alternatives or not isinstance(alternatives[0], Mapping):
        return []
    words = alternatives[0].get("words")
    if isinstance(words, list) and words:  # a word punctuated before is read as written, as in a file
        return [_as_written(entry) for entry in words]
    transcript = alternatives[0].get("transcript")
    return transcript.split() if isinstance(transcript, str) else []


def _as_written(entry: Any) -> Any:
    """A live word with its `punctuated_word` as its word, where it has one."""
    written = entry.get("punctuated_word") if isinstance(entry, Mapping) else None
    return {**entry, "word": written} if isinstance(written, str) and written.strip() else entry
