"""Words with timings, as speech recognisers write them: our records'
`{"words": [{"word", "start", "end"}]}`, Whisper-style word lists and
`segments[*].words`, and Vosk's `result` list (`{"word", "start", "end",
"conf"}`). One place checks them, and one place puts their timings on tokens."""

import json
import re
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.tokens import Doc


class RecordError(ValueError):
    """An input record (or word) is malformed."""


@dataclass(frozen=True)
class TimedWord:
    """A word, and when it was spoken (seconds), where known."""

    text: str
    start: Optional[float] = None
    end: Optional[float] = None

    @property
    def timed(self) -> bool:
        return self.start is not None


def timed_word(entry: Any, where: str, previous: Optional[TimedWord] = None) -> TimedWord:
    """Check one word: a string, or an object with "word" (or "text") and
    optional "start" and "end" in seconds; other fields (Vosk's "conf") are
    ignored. `previous`: the word before it, which it may not start before,
    and whose having timings or not it must share."""
    if isinstance(entry, str):
        entry = {"word": entry}
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: expected a word or an object with 'word', 'start', 'end'.")
    text = entry.get("word", entry.get("text"))
    if not isinstance(text, str) or not text.strip():
        raise RecordError(f"{where}: the word is missing or empty.")
    text = text.strip()
    start, end = entry.get("start"), entry.get("end")
    if previous is not None and previous.timed != (start is not None or end is not None):
        raise RecordError(f"{where} ({text!r}): timings must be given for every word or for none.")
    if start is None and end is None:
        return TimedWord(text)
    try:
        if start is None or end is None:
            raise TypeError
        start, end = float(start), float(end)
    except (TypeError, ValueError):
        raise RecordError(f"{where} ({text!r}): start and end must be numbers, got {start!r}, {end!r}.") from None
    if not (numpy.isfinite(start) and numpy.isfinite(end) and 0 <= start <= end):
        raise RecordError(f"{where} ({text!r}): needs 0 <= start <= end, got {start}, {end}.")
    if previous is not None and previous.start is not None and start < previous.start:
        raise RecordError(f"{where} ({text!r}): starts at {start}, before the word before it ({previous.start}).")
    return TimedWord(text, start, end)


def timed_words(entries: Sequence[Any], where: str) -> List[TimedWord]:
    """Check a list of words (see `timed_word`). A word with whitespace inside
    becomes several words with its timings."""
    words: List[TimedWord] = []
    for position, entry in enumerate(entries, start=1):
        word = timed_word(entry, f"{where}, word {position}", words[-1] if words else None)
        words.extend(split_word(word))
    return words


def split_word(word: TimedWord) -> List[TimedWord]:
    """A word written with whitespace inside ("new york") as several words,
    each with the word's timings."""
    parts = word.text.split()
    if len(parts) == 1:
        return [word]
    return [TimedWord(part, word.start, word.end) for part in parts]


def spread_words(texts: Sequence[str], start: float, end: float) -> List[TimedWord]:
    """Words spoken between `start` and `end` with no timings of their own
    (a caption cue, a Whisper segment without word timestamps), each given a
    share of the time by its length."""
    total = sum(len(text) for text in texts) or 1
    words, position = [], start
    for text in texts:
        length = (end - start) * len(text) / total
        words.append(TimedWord(text, round(position, 3), round(position + length, 3)))
        position += length
    return words


def fill_untimed(
    words: Sequence[TimedWord], bounds: Sequence[Tuple[Optional[float], Optional[float]]]
) -> List[TimedWord]:
    """Words without timings among timed ones (WhisperX leaves numbers and
    symbols untimed), each run of them given a share by length of the time
    from the end of the word before (or its group's start) to the start of
    the word after (or its group's end). `bounds`: per word, its group's
    (start, end), None where unknown. A run with no time known on either
    side stays untimed."""
    out = list(words)
    i = 0
    while i < len(out):
        if out[i].timed:
            i += 1
            continue
        j = i
        while j < len(out) and not out[j].timed:
            j += 1
        lows = [t for t in (out[i - 1].end if i else None, bounds[i][0]) if t is not None]
        highs = [t for t in (out[j].start if j < len(out) else None, bounds[j - 1][1]) if t is not None]
        if lows or highs:
            low = max(lows) if lows else min(highs)
            high = max(low, min(highs) if highs else low)
            out[i:j] = spread_words([word.text for word in out[i:j]], low, high)
        i = j
    return out


# the fields of a record that can hold its words
WORD_LIST_KEYS = ("words", "result", "segments")


def record_word_list(record: Mapping[str, Any], where: str) -> Optional[List[Any]]:
    """The word list of a record in one of the known shapes (None if it has
    none): "words" (ours, Whisper-style word lists), "result" (Vosk),
    "segments" with "words" in each (Whisper). A null list counts as none:
    columnar data (Parquet) gives every record every column."""
    for key in ("words", "result"):
        if record.get(key) is not None:
            words = record[key]
            if not isinstance(words, list):
                raise RecordError(f"{where}: '{key}' must be a list of {{'word', 'start', 'end'}} objects.")
            return words
    segments = record.get("segments")
    if isinstance(segments, list) and segments and all(isinstance(s, Mapping) and "words" in s for s in segments):
        words = []
        for number, segment in enumerate(segments, start=1):
            if not isinstance(segment["words"], list):
                raise RecordError(f"{where}, segment {number}: 'words' must be a list.")
            words.extend(segment["words"])
        return words
    return None


def words_doc(nlp: Language, words: Sequence[TimedWord]) -> Doc:
    """The doc of words joined by spaces, each token with the timings of the
    word it is part of (`token._.start_time`, `token._.end_time`)."""
    texts = [word.text for word in words]
    doc = _make_doc(nlp, texts)
    if any(word.timed for word in words):
        ends = numpy.cumsum([len(text) + 1 for text in texts])  # one space after each word
        for token in doc:
            word = words[int(numpy.searchsorted(ends, token.idx, side="right"))]
            if word.timed:
                token._.start_time, token._.end_time = word.start, word.end
    return doc


# words tokenized at a time: a part of a long record stays below spaCy's
# length limit (nlp.max_length, a million characters by default)
WORDS_PER_PART = 10_000


def _make_doc(nlp: Language, texts: Sequence[str]) -> Doc:
    """`nlp.make_doc` of the words joined by spaces, tokenized in parts."""
    if len(texts) <= WORDS_PER_PART:
        return nlp.make_doc(" ".join(texts))
    parts = [nlp.make_doc(" ".join(texts[i : i + WORDS_PER_PART])) for i in range(0, len(texts), WORDS_PER_PART)]
    return Doc.from_docs(parts, ensure_whitespace=True)


# whisper.cpp's and openai-whisper's printed segment: [00:00:00.000 --> 00:00:02.000]  text
_TIMESTAMPED = re.compile(r"^\s*\[((?:\d+:)?\d\d:\d\d\.\d\d\d)\s+-->\s+((?:\d+:)?\d\d:\d\d\.\d\d\d)\](.*)$")


def timestamped_line(line: str) -> Optional[Tuple[float, float, str]]:
    """(start, end, text) of a segment as whisper.cpp and openai-whisper
    print it, `[00:00:00.000 --> 00:00:02.000]  text` (hours left out or
    not); None for any other line."""
    match = _TIMESTAMPED.match(line)
    if not match:
        return None
    start, end = (_clock_seconds(match.group(k)) for k in (1, 2))
    return start, max(start, end), match.group(3).strip()


def _clock_seconds(clock: str) -> float:
    """Seconds of [HH:]MM:SS.mmm."""
    seconds = 0.0
    for part in clock.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


# a line of plain words led by a tag ([Music], [BLANK_AUDIO], {noise}): never JSON
_TAG_LED = re.compile(r"^[\[{][^\W\d_]")


def parse_json_line(line: str, where: str) -> Any:
    """The value of a line of JSON (JSONL records, word streams); a
    `RecordError` naming `where` if it is not JSON."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where}: not JSON ({e.msg}).") from None


# Deepgram's live messages that carry no words of a final result
_DEEPGRAM_EVENTS = ("Results", "Metadata", "UtteranceEnd", "SpeechStarted")


def _deepgram_live_words(value: Mapping[str, Any], where: str) -> List[Any]:
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
    if isinstance(words, list) and words:
        return words
    transcript = alternatives[0].get("transcript")
    return transcript.split() if isinstance(transcript, str) else []


def line_words(line: str, where: str) -> List[Any]:
    """The words on one line of a word stream: plain words separated by
    whitespace (a line led by a tag such as `[Music]` among them), a segment
    as whisper.cpp prints it (`timestamped_line`), or JSON: a word object, a list of words, or a record with a
    word list (see `record_word_list`; Vosk's results, Whisper's segments),
    or one of Deepgram's live messages. Vosk's partial results and
    Deepgram's interim ones give no words: the final result repeats them."""
    stripped = line.strip()
    printed = timestamped_line(stripped)
    if printed is not None:  # whisper.cpp's console: the words share the segment's time
        start, end, said = printed
        return [{"word": w.text, "start": w.start, "end": w.end} for w in spread_words(said.split(), start, end)]
    if not stripped.startswith(("{", "[")) or _TAG_LED.match(stripped):
        return stripped.split()
    value = parse_json_line(stripped, where)
    if isinstance(value, list):
        return value
    if not isinstance(value, Mapping):
        raise RecordError(f"{where}: expected a word object, a list of words, or a record with words.")
    words = record_word_list(value, where)
    if words is not None:
        return words
    if "channel" in value or value.get("type") in _DEEPGRAM_EVENTS:
        return _deepgram_live_words(value, where)
    if "word" in value or "text" in value and ("start" in value or "end" in value):
        return [value]
    if isinstance(value.get("text"), str):  # a recogniser's result without word timings
        return value["text"].split()
    if isinstance(value.get("partial"), str):  # Vosk's provisional words: its next result repeats them
        return []
    raise RecordError(f"{where}: no words found (expected 'word', 'words', 'result', 'segments' or 'text').")
