"""openai-whisper's `transcribe` result, WhisperX's, faster-whisper's segments and word lists."""

import json
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ..recognisers import (
    OutputWord,
    Transcript,
    TranscriptFormat,
    json_value,
    language_code,
    sentence_indices,
    speaker_name,
    speaker_turns,
    timed_entry,
    transcript_formats,
    word_entry,
)
from ..timed import RecordError, TimedWord, fill_untimed, spread_words


@transcript_formats.register("whisper")
class WhisperFormat(TranscriptFormat):
    """openai-whisper's result (`{"text", "segments": [{"start", "end",
    "text", "words": [{"word", "start", "end", "probability"}]}]}`),
    WhisperX's (`segments` and `word_segments`), or faster-whisper's
    segments or words as a JSON list. Segments are re-cut at sentence ends,
    each new one with the fields of the segment its first word came from. A
    result without word timestamps gives each word of a segment a share of
    its time by length, and is written back without words; words without
    timings among timed ones (WhisperX's numbers) are timed between them.
    Where words or segments name a `speaker` (WhisperX's diarization), each
    speaker's turn is punctuated as a text of its own, and a segment holds
    one speaker's words."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()  # the start of the file: its "text" may come before "segments"
        start = head[:4000]
        return head.startswith(("{", "[")) and (
            '"segments"' in head
            or '"avg_logprob"' in start
            or ('"word"' in start and '"probability"' in start)
            or _TIMED_LIST.match(start) is not None
            or (_API_TASK.search(start) is not None and '"words"' in head)
        )

    @staticmethod
    def fits(value: Any) -> bool:
        openai = isinstance(value, Mapping) and value.get("task") in _TASKS and isinstance(value.get("words"), list)
        return isinstance(value, list) or (isinstance(value, Mapping) and "segments" in value) or openai

    def read(self, text: str, name: str) -> Transcript:
        value = json_value(text, name)
        if isinstance(value, list) and _are_segments(value):
            value = {"segments": value, "_bare_segments": True}  # faster-whisper's segments
        elif isinstance(value, list):
            value = {"segments": [{"words": value}], "_bare": True}
        elif isinstance(value, Mapping) and "segments" not in value and isinstance(value.get("words"), list):
            value = {**value, "segments": [{}], "_no_segments": True}  # OpenAI's API asked for words alone
        segments = value.get("segments") if isinstance(value, Mapping) else None
        if not isinstance(segments, list):
            raise RecordError(f"{name}: expected Whisper's result: an object with 'segments'.")
        placed = _placed_words(value, segments, name)
        transcript = Transcript([], source=value)
        bounds = []
        for number, segment in enumerate(segments):
            where = f"{name}, segment {number + 1}"
            if not isinstance(segment, Mapping):
                raise RecordError(f"{where}: expected an object with 'words', or 'start', 'end' and 'text'.")
            entries = placed[number] if placed and placed[number] else segment.get("words")
            if not isinstance(entries, list):
                entries = _segment_entries(segment, where)
            spaced = _spaced(entries)
            for position, entry in enumerate(entries, start=1):
                word = timed_entry(entry, f"{where}, word {position}")
                if spaced and position > 1 and _glued(entry):  # a piece of the word before (` two`, `-dimensional`)
                    last = transcript.words[-1]
                    transcript.words[-1] = TimedWord(
                        last.text + word.text, last.start, last.end if word.end is None else word.end
                    )
                    transcript.fields[-1].setdefault(_PIECES, [dict(transcript.fields[-1])]).append(dict(entry))
                    continue
                transcript.words.append(word)
                transcript.fields.append(dict(entry))
                transcript.groups.append(number)
                bounds.append((_seconds(segment.get("start")), _seconds(segment.get("end"))))
        transcript.words = fill_untimed(transcript.words, bounds)
        speakers = [_speaker(entry, segments[group]) for entry, group in zip(transcript.fields, transcript.groups)]
        if any(speaker is not None for speaker in speakers):  # WhisperX with diarization
            transcript.turns = speaker_turns(speakers)
            transcript.speakers = [speaker_name(speaker) for speaker in speakers]
        if not any(isinstance(segment.get("words"), list) for segment in segments):
            value["_no_words"] = True
        transcript.language = language_code(value.get("language"))
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        source = dict(transcript.source)
        segments = source["segments"]
        new_segments: List[Dict[str, Any]] = []
        first_id = segments[0].get("id") if segments else None
        for sentence in sentence_indices(words):
            first = sentence[0]
            read = segments[transcript.groups[first]]
            segment = {k: v for k, v in read.items() if k not in ("words", "tokens")}
            entries = [entry for k in sentence for entry in _entries(transcript, k, words[k].text)]
            speaker = transcript.fields[first].get("speaker") if transcript.fields else None
            if "speaker" in segment and speaker is not None:  # the turn's: a segment may hold two speakers' words
                segment["speaker"] = speaker
            if "id" in read:  # numbered on from the first segment's (faster-whisper's count from 1)
                segment["id"] = (first_id if isinstance(first_id, int) else 0) + len(new_segments)
            segment.update(
                start=_bound(transcript.words[first].start, segment.get("start")),
                end=_bound(transcript.words[sentence[-1]].end, segment.get("end")),
                text=_text_leading(read) + " ".join(words[k].text for k in sentence),
                words=entries,
            )
            new_segments.append(segment)
        top_words = [w for s in new_segments for w in s["words"]] if source.pop("_top_words", False) else None
        if source.pop("_no_words", False):  # the segments had none: their words are the file's own or estimates
            for segment in new_segments:
                del segment["words"]
                if "words" in segments[0]:  # faster-whisper's null
                    segment["words"] = segments[0]["words"]
        if source.pop("_bare_segments", False):
            return json.dumps(new_segments, ensure_ascii=False) + "\n"
        if source.pop("_bare", False):
            return json.dumps([w for s in new_segments for w in s["words"]], ensure_ascii=False) + "\n"
        if source.pop("_no_segments", False):
            del source["segments"]
        else:
            source["segments"] = new_segments
        if top_words is not None:  # OpenAI's API: the words of every segment in one list
            source["words"] = top_words
        if "text" in source:  # WhisperX's result has none
            source["text"] = _text_leading(source) + "".join(segment["text"] for segment in new_segments).lstrip()
        if "word_segments" in source:  # WhisperX
            source["word_segments"] = [w for s in new_segments for w in s["words"]]
        return json.dumps(source, ensure_ascii=False) + "\n"


def _placed_words(value: Dict[str, Any], segments: List[Any], name: str) -> Optional[List[List[Any]]]:
    """Per segment, its words from the result's own list of all the words
    (OpenAI's API with word timestamps: `words` beside `segments` that have
    none), each in the last segment starting at or before it; None where
    there is no such list. The result is marked to write that list back."""
    top = value.get("words")
    if not isinstance(top, list) or any(isinstance(s, Mapping) and isinstance(s.get("words"), list) for s in segments):
        return None
    value["_top_words"] = True
    starts = [_seconds(segment.get("start")) if isinstance(segment, Mapping) else None for segment in segments]
    placed: List[List[Any]] = [[] for _ in segments]
    k = 0
    for position, entry in enumerate(top, start=1):
        start = timed_entry(entry, f"{name}, word {position}").start
        while k + 1 < len(segments) and start is not None and start >= (starts[k + 1] or float("inf")):
            k += 1
        placed[k].append(entry)
    return placed


def _speaker(entry: Mapping[str, Any], segment: Mapping[str, Any]) -> Optional[str]:
    """A word's speaker (WhisperX's diarization: the word's, else its segment's)."""
    speaker = entry.get("speaker", segment.get("speaker"))
    return None if speaker is None else str(speaker)


# OpenAI's API's transcription (`response_format="verbose_json"`): {"task": "transcribe", ...}
_TASKS = ("transcribe", "translate")
_API_TASK = re.compile(r'"task"\s*:\s*"(?:transcribe|translate)"')
# a list of segments or words as users save them (`[{"start": 0.0, "end": 2.0, "text": "so how"}, ...]`,
# NeMo's word timestamps `[{"word": "so", "start": 0.0, "end": 0.2}, ...]`)
_TIMED_LIST = re.compile(r'\[\s*\{(?=[^{}]*"start"\s*:)(?=[^{}]*"end"\s*:)(?=[^{}]*"(?:text|word)"\s*:)')


def _are_segments(items: List[Any]) -> bool:
    """Whether a JSON list holds segments (faster-whisper's segments as a
    list, or a user's `{"start", "end", "text"}` where any text has several
    words), not words."""
    if not items or not all(isinstance(item, Mapping) and "word" not in item for item in items):
        return False
    return any(
        "words" in item or "seek" in item or "avg_logprob" in item or len(str(item.get("text", "")).split()) > 1
        for item in items
    )


def _seconds(value: Any) -> Optional[float]:
    """A segment's start or end in seconds, None if it has none."""
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _bound(word_time: Optional[float], segment_time: Any) -> Any:
    """A re-cut segment's start or end: its word's time, or where no time is
    known for the word, the time of the segment it came from."""
    return segment_time if word_time is None else word_time


def _leading(transcript: Transcript, k: int) -> str:
    """The whitespace word `k` was read with: openai-whisper and
    faster-whisper write " word", WhisperX "word"."""
    read = transcript.fields[k].get("word", "") if transcript.fields else ""
    return read[: len(read) - len(read.lstrip())] if isinstance(read, str) else ""


# a word's pieces as read, where Whisper split one written word (`two-dimensional`, `S.K.K.`) into several
_PIECES = "_pieces"


def _spaced(entries: List[Any]) -> bool:
    """Whether a segment's words are written with their leading space
    (openai-whisper's and faster-whisper's " word"; WhisperX's have none):
    then a word without one is a piece of the word before it."""
    texts = [entry.get("word") for entry in entries if isinstance(entry, Mapping)]
    return any(isinstance(text, str) and text.startswith(" ") for text in texts)


def _glued(entry: Any) -> bool:
    text = entry.get("word") if isinstance(entry, Mapping) else None
    return isinstance(text, str) and bool(text.strip()) and not text[0].isspace()


def _entries(transcript: Transcript, k: int, text: str) -> List[Dict[str, Any]]:
    """Word `k`'s entries, punctuated: one, or where it was read in pieces,
    each piece with its own fields and its share of the punctuated text
    (case follows each piece's length; the marks go to the last)."""
    pieces = transcript.fields[k].get(_PIECES) if transcript.fields else None
    if not pieces:
        return [word_entry(transcript, k, text, leading=_leading(transcript, k))]
    read = [str(piece.get("word", "")) for piece in pieces]
    lengths = [len(piece.strip()) if n == 0 else len(piece) for n, piece in enumerate(read)]
    whole = "".join(piece.strip() if n == 0 else piece for n, piece in enumerate(read))
    if text[: len(whole)].lower() != whole.lower():  # the case changed a length: the text goes to the first piece
        lengths = [len(text)] + [0] * (len(read) - 1)
    entries, start = [], 0
    for n, (piece, length) in enumerate(zip(pieces, lengths)):
        end = len(text) if n == len(pieces) - 1 else start + length
        entry = dict(piece)
        entry["word"] = (_leading(transcript, k) if n == 0 else "") + text[start:end]
        entries.append(entry)
        start = end
    return entries


def _text_leading(segment: Mapping[str, Any]) -> str:
    """The whitespace a segment's text starts with: Whisper's " so how", a
    user's "so how"; a segment without text as Whisper writes one."""
    text = segment.get("text")
    return text[: len(text) - len(text.lstrip())] if isinstance(text, str) else " "


def _segment_entries(segment: Mapping[str, Any], where: str) -> List[Dict[str, Any]]:
    """The words of a segment transcribed without word timestamps: its text's
    words, each given a share of the segment's time by its length."""
    text, start, end = segment.get("text"), segment.get("start"), segment.get("end")
    if not isinstance(text, str):
        raise RecordError(f"{where}: no 'words' and no 'text'.")
    try:
        start, end = float(start), float(end)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise RecordError(f"{where}: no 'words', and its start and end are not numbers.") from None
    if not 0 <= start <= end:
        raise RecordError(f"{where}: needs 0 <= start <= end, got {start}, {end}.")
    return [
        {"word": " " + word.text, "start": word.start, "end": word.end}
        for word in spread_words(text.split(), start, end)
    ]
