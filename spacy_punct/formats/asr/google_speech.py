"""Google Cloud Speech-to-Text's response (v1 and v2), whose words come
without marks unless `enable_automatic_punctuation` was asked for, as it
cannot be in many languages."""

import json
import re
from itertools import accumulate
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord, duration_seconds, fill_untimed, spread_words

# each field as the REST API (camelCase), the Python client's `to_dict` (snake_case) and v2 name it
_STARTS = ("startTime", "start_time", "startOffset", "start_offset")
_ENDS = ("endTime", "end_time", "endOffset", "end_offset")
_RESULT_ENDS = ("resultEndTime", "result_end_time", "resultEndOffset", "result_end_offset")
_SPEAKERS = ("speakerLabel", "speaker_label", "speakerTag", "speaker_tag")
_CHANNELS = ("channelTag", "channel_tag")


@transcript_formats.register("google")
class GoogleSpeechFormat(TranscriptFormat):
    """Google's response: `{"results": [{"alternatives": [{"transcript",
    "confidence", "words": [{"word", "startTime", "endTime"}]}],
    "resultEndTime", "channelTag"}]}` (v2: `startOffset`, `endOffset`,
    `speakerLabel`; the Python client's `to_dict`: snake_case). Each
    result's first alternative is punctuated in place (its words and
    transcript), the other alternatives kept; results are not re-cut (each
    keeps its end time). Each channel is a text of its own, and with
    diarization each speaker's turn; the last result that repeats every word
    with its speaker (diarization's summary) takes the same words. Words
    without offsets share their result's time by length."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        ours = ('"alternatives"', '"totalBilledTime"', '"total_billed_time"', '"requestId"', '"request_id"')
        streamed = '"isFinal"' in head or '"is_final"' in head  # streaming responses: `stream` reads them
        found = head.startswith("{") and bool(re.search(r'"results"\s*:\s*\[', head))
        return found and any(k in head for k in ours) and not streamed

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and isinstance(value.get("results"), list)

    def read(self, text: str, name: str) -> Transcript:
        value, results = recognisers.json_list(text, name, "results", "Google's response")
        entries = [_first_words(result, f"{name}, result {n + 1}") for n, result in enumerate(results)]
        summary = _is_summary(entries)
        read = entries[:-1] if summary else entries
        channels = [_field(result, _CHANNELS) for result in results]
        order = sorted(range(len(read)), key=lambda n: str(channels[n] or ""))  # a channel's results together
        transcript = Transcript(
            [], source={"value": value, "summary": summary, "indent": recognisers.json_indent(text)}
        )
        bounds: List[Tuple[Optional[float], Optional[float]]] = []
        labels: List[str] = []  # per word, its channel and speaker
        ends: Dict[str, float] = {}  # per channel, the end of its last result
        firsts = [0, *accumulate(map(len, read))]  # where each result's words start in the summary
        for number in order:
            where = f"{name}, result {number + 1}"
            channel = str(channels[number] or "")
            start = ends.get(channel, 0.0)
            end = duration_seconds(_field(results[number], _RESULT_ENDS), f"{where}: the result's end")
            ends[channel] = start if end is None else end
            said = [_word(entry, f"{where}, word {position}") for position, entry in enumerate(read[number], start=1)]
            if end is not None and not any(word.timed for word in said):  # no word offsets asked for
                said = spread_words([word.text for word in said], start, max(start, end))
            for position, (entry, word) in enumerate(zip(read[number], said), start=1):
                transcript.words.append(word)
                transcript.fields.append(dict(entry))
                transcript.groups.append(number)
                bounds.append((start, end))
                # the speakers are named in the summary alone where there is one
                named = entries[-1][firsts[number] + position - 1] if summary else entry
                labels.append(f"{channel}:{_field(named, _SPEAKERS) or ''}")
                transcript.speakers.append(recognisers.speaker_name(_field(named, _SPEAKERS) or None))
        transcript.words = fill_untimed(transcript.words, bounds)
        codes = (recognisers.language_code(_field(result, ("languageCode", "language_code"))) for result in results)
        transcript.language = next((code for code in codes if code), None)
        transcript.take_turns(labels)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        results = value["results"]
        texts: Dict[int, List[str]] = {}
        for k, group in enumerate(transcript.groups):
            texts.setdefault(group, []).append(words[k].text)
        for number, said in texts.items():
            _write_result(results[number], said)
        if transcript.source["summary"]:
            _write_result(results[-1], [text for number in sorted(texts) for text in texts[number]])
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _first_words(result: Any, where: str) -> List[Dict[str, Any]]:
    """The word entries of a result's first alternative (of one without
    words, its transcript's words, untimed; of one without alternatives, none)."""
    if not isinstance(result, Mapping):
        raise RecordError(f"{where}: expected an object with 'alternatives'.")
    alternatives = result.get("alternatives") or []
    if not isinstance(alternatives, list) or not all(isinstance(a, Mapping) for a in alternatives):
        raise RecordError(f"{where}: 'alternatives' must be a list of objects.")
    if not alternatives:
        return []
    entries = alternatives[0].get("words")
    if isinstance(entries, list) and entries:
        if not all(isinstance(entry, Mapping) for entry in entries):
            raise RecordError(f"{where}: 'words' must be a list of objects with 'word'.")
        return [dict(entry) for entry in entries]
    said = alternatives[0].get("transcript", "")
    if not isinstance(said, str):
        raise RecordError(f"{where}: the 'transcript' must be text.")
    return [{"word": word} for word in said.split()]


def _is_summary(entries: List[List[Dict[str, Any]]]) -> bool:
    """Whether the last result repeats every word before it with its speaker
    (Google's diarization puts them all in the last result)."""
    if len(entries) < 2 or not entries[-1]:
        return False
    last, before = entries[-1], [entry for words in entries[:-1] for entry in words]
    return all(_field(entry, _SPEAKERS) is not None for entry in last) and [
        str(entry.get("word")) for entry in last
    ] == [str(entry.get("word")) for entry in before]


def _word(entry: Mapping[str, Any], where: str) -> TimedWord:
    """A word with its offsets, where given."""
    text = entry.get("word")
    if not isinstance(text, str) or not text.strip():
        raise RecordError(f"{where}: the word is missing or empty.")
    start = duration_seconds(_field(entry, _STARTS), f"{where} ({text.strip()!r}): its start")
    end = duration_seconds(_field(entry, _ENDS), f"{where} ({text.strip()!r}): its end")
    if start is None or end is None:
        return TimedWord(text.strip())
    return TimedWord(text.strip(), start, max(start, end))


def _field(entry: Any, names: Sequence[str]) -> Any:
    """The first of the field's names the entry has."""
    if not isinstance(entry, Mapping):
        return None
    return next((entry[name] for name in names if entry.get(name) is not None), None)


def _write_result(result: Dict[str, Any], said: List[str]) -> None:
    """A result's first alternative with its words as punctuated."""
    best = result["alternatives"][0]
    if isinstance(best.get("words"), list) and best["words"]:
        best["words"] = [{**entry, "word": text} for entry, text in zip(best["words"], said)]
    read = best.get("transcript", "")
    if read or not best.get("words"):  # the summary's transcript may be empty: it stays so
        best["transcript"] = read[: len(read) - len(read.lstrip())] + " ".join(said)


def live_words(value: Mapping[str, Any], where: str) -> List[Any]:
    """The words of one of Google's streaming responses (a line of them
    logged as JSON): each final result's first alternative, its words timed
    where they have offsets (interim results give none: the final one
    repeats their words)."""
    words: List[Any] = []
    for number, result in enumerate(value.get("results") or [], start=1):
        if not isinstance(result, Mapping) or not (result.get("isFinal") or result.get("is_final")):
            continue
        for position, entry in enumerate(_first_words(result, f"{where}, result {number}"), start=1):
            word = _word(entry, f"{where}, result {number}, word {position}")
            words.append({"word": word.text, "start": word.start, "end": word.end} if word.timed else word.text)
    return words
