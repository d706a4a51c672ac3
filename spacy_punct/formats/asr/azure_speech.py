"""Azure AI Speech's batch transcription result, whose display text has no
marks where it was asked for `punctuationMode: None` (its lexical form
never has any); times in ticks of 100 ns or ISO 8601 durations."""

import json
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord, spread_words


@transcript_formats.register("azure")
class AzureSpeechFormat(TranscriptFormat):
    """Azure's batch transcription: `{"combinedRecognizedPhrases":
    [{"channel", "lexical", "itn", "maskedITN", "display"}],
    "recognizedPhrases": [{"recognitionStatus", "channel", "speaker",
    "offsetInTicks", "durationInTicks", "nBest": [{"lexical", "display",
    "words", "displayWords": [{"displayText", "offsetInTicks",
    "durationInTicks"}]}]}]}`. The display form's words are read (timed by
    `displayWords` where the file has them, else sharing their phrase's
    time by length) and punctuated in place: each phrase's best `display`
    and its `displayWords`, and each channel's combined `display`; the
    lexical, ITN forms and lexical `words` stay as read. Each channel is a
    text of its own, and with diarization each speaker's turn."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        return head.startswith("{") and ('"recognizedPhrases"' in head or '"combinedRecognizedPhrases"' in head)

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and isinstance(value.get("recognizedPhrases"), list)

    def read(self, text: str, name: str) -> Transcript:
        value, phrases = recognisers.json_list(text, name, "recognizedPhrases", "Azure's transcription")
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text)})
        labels: List[str] = []
        read = [(n, _phrase_words(phrase, f"{name}, phrase {n + 1}")) for n, phrase in enumerate(phrases)]
        for number, words in sorted(read, key=lambda item: str(phrases[item[0]].get("channel", ""))):
            phrase = phrases[number]
            transcript.words.extend(words)
            transcript.groups.extend([number] * len(words))
            labels.extend([f"{phrase.get('channel', '')}:{phrase.get('speaker', '')}"] * len(words))
            transcript.speakers.extend([recognisers.speaker_name(phrase.get("speaker"))] * len(words))
            transcript.language = transcript.language or recognisers.language_code(phrase.get("locale"))
        transcript.take_turns(labels)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        phrases = value["recognizedPhrases"]
        texts: Dict[int, List[str]] = {}
        for group, word in zip(transcript.groups, words):
            texts.setdefault(group, []).append(word.text)
        combined: Dict[Any, List[str]] = {}
        for number, phrase in enumerate(phrases):
            if number not in texts:
                continue
            best = phrase["nBest"][0]
            best["display"] = " ".join(texts[number])
            if isinstance(best.get("displayWords"), list):
                best["displayWords"] = [
                    dict(entry, displayText=t) for entry, t in zip(best["displayWords"], texts[number])
                ]
            combined.setdefault(phrase.get("channel", 0), []).append(best["display"])
        for entry in value.get("combinedRecognizedPhrases") or []:
            if isinstance(entry, dict) and entry.get("channel", 0) in combined:
                entry["display"] = " ".join(combined[entry.get("channel", 0)])
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _phrase_words(phrase: Any, where: str) -> List[TimedWord]:
    """The display form's words of a phrase's best recognition (none where
    it was not recognised)."""
    if not isinstance(phrase, Mapping):
        raise RecordError(f"{where}: expected an object with 'nBest'.")
    best = phrase.get("nBest")
    if not best:  # "NoMatch": no words
        return []
    if not isinstance(best, list) or not isinstance(best[0], Mapping) or not isinstance(best[0].get("display"), str):
        raise RecordError(f"{where}: expected 'nBest', a list of objects with 'display'.")
    entries = best[0].get("displayWords")
    if isinstance(entries, list):
        return [_display_word(entry, f"{where}, display word {k}") for k, entry in enumerate(entries, start=1)]
    start, duration = _time(phrase, "offset", where), _time(phrase, "duration", where)
    said = best[0]["display"].split()
    if start is None:
        return [TimedWord(word) for word in said]
    return spread_words(said, start, round(start + (duration or 0.0), 7))


def _display_word(entry: Any, where: str) -> TimedWord:
    if (
        not isinstance(entry, Mapping)
        or not isinstance(entry.get("displayText"), str)
        or not entry["displayText"].strip()
    ):
        raise RecordError(f"{where}: expected an object with 'displayText'.")
    start, duration = _time(entry, "offset", where), _time(entry, "duration", where)
    text = entry["displayText"].strip()
    return TimedWord(text) if start is None else TimedWord(text, start, round(start + (duration or 0.0), 7))


# an ISO 8601 duration as Azure writes one: "PT1.59S", "PT1M2.3S", "P1DT2H"
_ISO = re.compile(r"P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?")


def _time(entry: Mapping[str, Any], key: str, where: str) -> Optional[float]:
    """An offset or duration in seconds: from its ticks of 100 ns
    (`offsetInTicks`), else its ISO 8601 duration (`offset`: "PT1.59S")."""
    ticks, iso = entry.get(f"{key}InTicks"), entry.get(key)
    if ticks is not None:
        try:
            return float(ticks) / 1e7
        except (TypeError, ValueError):
            raise RecordError(f"{where}: '{key}InTicks' must be a number, got {ticks!r}.") from None
    if iso is None:
        return None
    found = _ISO.fullmatch(str(iso).strip())
    if not isinstance(iso, str) or found is None:
        raise RecordError(f"{where}: '{key}' must be a duration such as \"PT1.59S\", got {iso!r}.")
    days, hours, minutes, seconds = (float(part or 0) for part in found.groups())
    return round(((days * 24 + hours) * 60 + minutes) * 60 + seconds, 7)


def live_words(value: Mapping[str, Any], where: str) -> List[Any]:
    """The words of one of Azure's real-time results (the Speech SDK's or
    the REST API's JSON: `RecognitionStatus`, `Offset`, `Duration` in
    ticks, `DisplayText`, `NBest` with `Display`): the display form's
    words, sharing the result's time by length; a result not recognised
    ("NoMatch", "InitialSilenceTimeout") gives none."""
    if value.get("RecognitionStatus") != "Success":
        return []
    best = value.get("NBest")
    said = best[0].get("Display") if isinstance(best, list) and best and isinstance(best[0], Mapping) else None
    said = said if isinstance(said, str) else value.get("DisplayText")
    if not isinstance(said, str):
        raise RecordError(f"{where}: Azure's result has no 'DisplayText' and no 'NBest' with 'Display'.")
    offset, duration = value.get("Offset"), value.get("Duration")
    if offset is None:
        return said.split()
    try:
        start, end = float(offset) / 1e7, (float(offset) + float(duration or 0)) / 1e7
    except (TypeError, ValueError):
        raise RecordError(f"{where}: 'Offset' and 'Duration' must be ticks of 100 ns.") from None
    return [{"word": w.text, "start": w.start, "end": w.end} for w in spread_words(said.split(), start, end)]
