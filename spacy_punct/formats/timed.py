"""Words with timings, as speech recognisers write them: our records'
`{"words": [{"word", "start", "end"}]}`, Whisper-style word lists and
`segments[*].words`, and Vosk's `result` list (`{"word", "start", "end",
"conf"}`). One place checks them, and one place puts their timings on tokens."""

import json
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


def duration_seconds(value: Any, what: str) -> Optional[float]:
    """A duration as Google writes it: "1.300s", a number, or `{"seconds", "nanos"}`."""
    if value is None:
        return None
    try:
        if isinstance(value, str):
            return float(value[:-1] if value.endswith("s") else value)
        if isinstance(value, Mapping):
            return float(value.get("seconds", 0)) + float(value.get("nanos", 0)) / 1e9
        return float(value)
    except (TypeError, ValueError):
        raise RecordError(f'{what} must be a duration such as "1.3s", got {value!r}.') from None


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


def parse_json_line(line: str, where: str) -> Any:
    """The value of a line of JSON (JSONL records, word streams); a
    `RecordError` naming `where` if it is not JSON."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where}: not JSON ({e.msg}).") from None
