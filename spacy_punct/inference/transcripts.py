"""A recogniser's own files, read as words and written back in their format:
openai-whisper's `transcribe` result (`segments` with word timestamps),
faster-whisper's and WhisperX's word lists, Vosk's results (`result`, `text`;
one JSON object or one per line), Kaldi CTM (`utt channel start duration
word [conf]`), NeMo manifests (JSONL with `audio_filepath` and `text` or
`pred_text`), and SRT and WebVTT captions (YouTube's automatic captions,
whose rolling cues repeat words, de-duplicated). Each format is a registered
class (`transcript_formats`, entry point group `spacy_punct_transcript_formats`)
that reads a file into a `Transcript` (its words, the group each word came
from, what the format must write back) and writes it again with the
punctuated words, segments and cues re-cut at sentence ends where the format
has them, every other field kept."""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import catalogue
from spacy.language import Language
from spacy.tokens import Doc

from ..decode import DecisionSettings
from ..formats.captions import CaptionWord, CueBuilder, caption_header, format_cue
from ..formats.timed import RecordError, TimedWord, words_doc
from .texts import punctuate_docs

transcript_formats = catalogue.create("spacy_punct", "transcript_formats", entry_points=True)


@dataclass
class Transcript:
    """The words of a recogniser's file, in order. `fields`: per word, its
    own fields to write back (a probability, a confidence); `groups`: per
    word, the segment, cue, utterance or record it came from; `source`:
    what the format keeps of the file to write it again."""

    words: List[TimedWord]
    fields: List[Dict[str, Any]] = field(default_factory=list)
    groups: List[int] = field(default_factory=list)
    source: Any = None


@dataclass(frozen=True)
class OutputWord:
    """A word as punctuated (its case, the marks after it) and whether a sentence ends after it."""

    text: str
    sentence_end: bool


class TranscriptFormat:
    """A recogniser's format: `read` a file's text, `write` it punctuated."""

    name = ""
    endings: Tuple[str, ...] = ()
    # each group (a record, an utterance) is a text of its own, not a part of one recording
    separate_groups = False

    def __init__(self, **options: Any) -> None:
        """`options`: what the command gives every format (the captions' cue limits)."""

    @staticmethod
    def sniff(text: str) -> bool:
        """Whether the text's content is in this format."""
        return False

    def read(self, text: str, name: str) -> Transcript:
        raise NotImplementedError

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        raise NotImplementedError


def format_names() -> List[str]:
    """The registered transcript formats."""
    return list(transcript_formats.get_all())


def detect_format(path: Path, text: str) -> Optional[str]:
    """The transcript format of a file, by its content, then its name (None: not a recogniser's file)."""
    formats = transcript_formats.get_all()
    suffix = path.name.lower()
    for name, kind in formats.items():
        if kind.sniff(text) and not (name == "whisper" and suffix.endswith((".jsonl", ".jsonl.gz"))):
            return name
    return next((name for name, kind in formats.items() if suffix.endswith(kind.endings)), None)


def make_format(name: str, **options: Any) -> TranscriptFormat:
    """The format `name`; `options`: the caption formats' `max_chars`, `max_seconds`."""
    formats = transcript_formats.get_all()
    if name not in formats:
        raise ValueError(f"unknown --from {name!r}; choose {', '.join(formats)}.")
    return formats[name](**options)


def punctuate_transcript(
    nlp: Language, transcript: Transcript, *, settings: Optional[DecisionSettings] = None, separate: bool = False
) -> Tuple[List[Doc], List[OutputWord]]:
    """The punctuated docs of the transcript's words (with their timings):
    one text, or one per group with `separate`; and each word as punctuated."""
    spans: List[Tuple[int, int]] = []
    for k, group in enumerate(transcript.groups if separate else [0] * len(transcript.words)):
        if spans and group == (transcript.groups[spans[-1][0]] if separate else 0):
            spans[-1] = (spans[-1][0], k + 1)
        else:
            spans.append((k, k + 1))
    timed = _reads_timings(nlp)
    items = ((_words_input(nlp, transcript.words[start:end], timed), (start, end)) for start, end in spans)
    docs, words = [], []
    for doc, (start, end) in punctuate_docs(nlp, items, settings=_closed(nlp, settings)):
        docs.append(doc)
        words.extend(output_words(doc, [word.text for word in transcript.words[start:end]]))
    return docs, words


def _words_input(nlp: Language, words: Sequence[TimedWord], timed: bool) -> Union[str, Doc]:
    """What the pipeline reads of the words: their doc with timings where its
    model reads pauses, else their text, punctuated as a line of text is (a
    long one in pieces, in bounded memory)."""
    return words_doc(nlp, words) if timed else " ".join(word.text for word in words)


def _reads_timings(nlp: Language) -> bool:
    from ..pipelines.loading import find_punctuator

    return any(node.name == "with_pauses" for node in find_punctuator(nlp)[1].model.walk())


def _closed(nlp: Language, settings: Optional[DecisionSettings]) -> DecisionSettings:
    from ..pipelines.loading import find_punctuator

    base = settings if settings is not None else find_punctuator(nlp)[1].settings
    return base.replace(close_last_sentence=True)


def output_words(doc: Doc, texts: Sequence[str]) -> List[OutputWord]:
    """Per input word (the words joined by spaces were punctuated), its
    punctuated text (the tokens from it and the marks written after it) and
    whether a sentence ends after it."""
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + 1
    pieces: List[List[str]] = [[] for _ in texts]
    ends = [False] * len(texts)
    k, previous, last_end = 0, -1, 0
    for token in doc:
        source = token._.source_idx
        if source is not None:
            while k + 1 < len(starts) and starts[k + 1] <= source:
                k += 1
        if token.is_sent_start and previous >= 0 and k != previous:
            ends[previous] = True
        if not token.is_space:
            if pieces[k] and token.idx > last_end:
                pieces[k].append(" ")  # a word the recogniser wrote with a space inside
            pieces[k].append(token.text)
            last_end = token.idx + len(token.text)
            previous = k
    if texts:
        ends[-1] = True
    return [OutputWord("".join(parts) or text, end) for parts, end, text in zip(pieces, ends, texts)]


# -- Whisper ----------------------------------------------------------------


@transcript_formats.register("whisper")
class WhisperFormat(TranscriptFormat):
    """openai-whisper's result (`{"text", "segments": [{"start", "end",
    "text", "words": [{"word", "start", "end", "probability"}]}]}`),
    WhisperX's (`segments` and `word_segments`), or faster-whisper's words
    as a JSON list. Segments are re-cut at sentence ends, each new one with
    the fields of the segment its first word came from."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()  # the start of the file: its "text" may come before "segments"
        return head.startswith(("{", "[")) and (
            '"segments"' in head or ('"word"' in head[:4000] and '"probability"' in head[:4000])
        )

    def read(self, text: str, name: str) -> Transcript:
        value = _json(text, name)
        if isinstance(value, list):
            value = {"segments": [{"words": value}], "_bare": True}
        segments = value.get("segments") if isinstance(value, Mapping) else None
        if not isinstance(segments, list):
            raise RecordError(f"{name}: expected Whisper's result: an object with 'segments'.")
        transcript = Transcript([], source=value)
        for number, segment in enumerate(segments):
            words = segment.get("words") if isinstance(segment, Mapping) else None
            if not isinstance(words, list):
                raise RecordError(
                    f"{name}, segment {number + 1}: no 'words': transcribe with word_timestamps=True "
                    "(or give the text as plain text)."
                )
            for position, entry in enumerate(words, start=1):
                word = _timed(entry, f"{name}, segment {number + 1}, word {position}")
                transcript.words.append(word)
                transcript.fields.append(dict(entry))
                transcript.groups.append(number)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        source = dict(transcript.source)
        segments = source["segments"]
        new_segments: List[Dict[str, Any]] = []
        for sentence in _sentences(words):
            first = sentence[0]
            segment = {k: v for k, v in segments[transcript.groups[first]].items() if k not in ("words", "tokens")}
            entries = [_word_entry(transcript, k, words[k].text, leading=" ") for k in sentence]
            segment.update(
                id=len(new_segments),
                start=entries[0]["start"],
                end=entries[-1]["end"],
                text="".join(entry["word"] for entry in entries),
                words=entries,
            )
            new_segments.append(segment)
        if source.pop("_bare", False):
            return json.dumps([w for s in new_segments for w in s["words"]], ensure_ascii=False) + "\n"
        source["segments"] = new_segments
        source["text"] = "".join(segment["text"] for segment in new_segments)
        if "word_segments" in source:  # WhisperX
            source["word_segments"] = [w for s in new_segments for w in s["words"]]
        return json.dumps(source, ensure_ascii=False) + "\n"


# -- Vosk -------------------------------------------------------------------


@transcript_formats.register("vosk")
class VoskFormat(TranscriptFormat):
    """Vosk's results: `{"result": [{"conf", "end", "start", "word"}], "text"}`,
    one object (written back as one), or one per line (a result per
    utterance, re-cut at sentence ends: a line per sentence)."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:2000]
        return head.startswith("{") and '"result"' in head

    def read(self, text: str, name: str) -> Transcript:
        stripped = text.strip()
        try:
            values = [json.loads(stripped)]
            lines = False
        except json.JSONDecodeError:
            values = [_json(line, f"{name}, line {n}") for n, line in enumerate(text.splitlines(), 1) if line.strip()]
            lines = True
        transcript = Transcript([], source={"lines": lines, "results": values})
        for number, value in enumerate(values):
            result = value.get("result", []) if isinstance(value, Mapping) else None
            if not isinstance(result, list):
                raise RecordError(f"{name}, result {number + 1}: 'result' must be a list of words.")
            for position, entry in enumerate(result, start=1):
                transcript.words.append(_timed(entry, f"{name}, result {number + 1}, word {position}"))
                transcript.fields.append(dict(entry))
                transcript.groups.append(number)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        results = transcript.source["results"]
        out = []
        for sentence in _sentences(words):
            record = {k: v for k, v in results[transcript.groups[sentence[0]]].items() if k not in ("result", "text")}
            record["result"] = [_word_entry(transcript, k, words[k].text) for k in sentence]
            record["text"] = " ".join(words[k].text for k in sentence)
            out.append(record)
        if not transcript.source["lines"]:  # one result: its words punctuated, not cut
            record = dict(results[0])
            record["result"] = [_word_entry(transcript, k, word.text) for k, word in enumerate(words)]
            record["text"] = " ".join(word.text for word in words)
            return json.dumps(record, ensure_ascii=False) + "\n"
        return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in out)


# -- Kaldi CTM --------------------------------------------------------------


@transcript_formats.register("ctm")
class CtmFormat(TranscriptFormat):
    """Kaldi CTM: a word per line, `utt channel start duration word [conf]`;
    the words punctuated in place (a mark written onto its word), one text
    per recording (utterance id and channel), every line otherwise as it was."""

    endings = (".ctm",)
    separate_groups = True

    @staticmethod
    def sniff(text: str) -> bool:
        lines = [line for line in text[:2000].splitlines()[:5] if line.strip() and not line.startswith(";;")]
        return bool(lines) and all(_CTM.match(line) for line in lines)

    def read(self, text: str, name: str) -> Transcript:
        transcript = Transcript([], source=[])
        keys: Dict[Tuple[str, str], int] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.startswith(";;"):
                transcript.source.append((line, None))
                continue
            match = _CTM.match(line)
            if not match:
                raise RecordError(f"{name}, line {number}: not a CTM line (utt channel start duration word [conf]).")
            utt, channel, start, duration, word = match.group(1, 2, 3, 4, 5)
            group = keys.setdefault((utt, channel), len(keys))
            transcript.source.append((line, len(transcript.words)))
            transcript.words.append(TimedWord(word, float(start), float(start) + float(duration)))
            transcript.groups.append(group)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        out = []
        for line, k in transcript.source:
            if k is None:
                out.append(line)
                continue
            parts = line.split()
            parts[4] = words[k].text
            out.append(" ".join(parts))
        return "\n".join(out) + "\n"


_CTM = re.compile(r"^\s*(\S+)\s+(\S+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S+)(?:\s+([0-9.eE+-]+))?\s*$")


# -- NeMo manifests ---------------------------------------------------------


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
        records = [_json(line, f"{name}, line {n}") for n, line in enumerate(text.splitlines(), 1) if line.strip()]
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


# -- captions ---------------------------------------------------------------


class CaptionFormat(TranscriptFormat):
    """SRT or WebVTT cues, their words timed by the cue (evenly by their
    length, or by WebVTT's inline word timestamps); a cue whose first line
    is the last line of the one before (YouTube's rolling captions) gives
    only its new lines. Written as cues re-cut at sentence ends."""

    kind = ""

    def __init__(self, max_chars: int = 84, max_seconds: float = 7.0, **options: Any) -> None:
        super().__init__(**options)
        self.max_chars, self.max_seconds = max_chars, max_seconds

    def read(self, text: str, name: str) -> Transcript:
        transcript = Transcript([])
        last_line: List[str] = []
        for number, (start, end, body) in enumerate(_cues(text, name)):
            lines = [line for line in body.split("\n") if line.strip()]
            if lines and _plain_words(lines[0]) == last_line:  # a rolling cue repeats the line before
                lines = lines[1:]
            for word in _cue_words(start, end, "\n".join(lines)):
                transcript.words.append(word)
                transcript.groups.append(number)
            if lines:
                last_line = _plain_words(lines[-1])
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        builder = CueBuilder(self.max_chars, self.max_seconds)
        found = []
        for word, out in zip(transcript.words, words):
            start = word.start if word.start is not None else 0.0
            end = word.end if word.end is not None else start
            found += builder.add(CaptionWord(out.text, start, end, out.sentence_end))
        found += builder.flush()
        return caption_header(self.kind) + "".join(format_cue(cue, self.kind) for cue in found)


@transcript_formats.register("srt")
class SrtFormat(CaptionFormat):
    kind = "srt"
    endings = (".srt",)

    @staticmethod
    def sniff(text: str) -> bool:
        return bool(re.match(r"\s*\d+\s*\n\d\d:\d\d:\d\d,\d\d\d --> ", text[:200]))


@transcript_formats.register("vtt")
class VttFormat(CaptionFormat):
    kind = "vtt"
    endings = (".vtt",)

    @staticmethod
    def sniff(text: str) -> bool:
        return text.lstrip("\ufeff").startswith("WEBVTT")


_TIMING = re.compile(r"^\s*(?:(\d+):)?(\d\d):(\d\d)[,.](\d\d\d)\s+-->\s+(?:(\d+):)?(\d\d):(\d\d)[,.](\d\d\d)")
_INLINE = re.compile(r"<(?:(\d+):)?(\d\d):(\d\d)\.(\d\d\d)>")
_TAG = re.compile(r"</?[^>]*>")


def _seconds(hours: Optional[str], minutes: str, seconds: str, millis: str) -> float:
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds) + int(millis) / 1000


def _cues(text: str, name: str) -> Iterator[Tuple[float, float, str]]:
    """(start, end, text) per cue of an SRT or WebVTT file."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    k = 0
    while k < len(lines):
        match = _TIMING.match(lines[k])
        if not match:
            k += 1
            continue
        start, end = _seconds(*match.group(1, 2, 3, 4)), _seconds(*match.group(5, 6, 7, 8))
        if end < start:
            raise RecordError(f"{name}, line {k + 1}: the cue ends before it starts.")
        body = []
        k += 1
        while k < len(lines) and lines[k].strip():
            body.append(lines[k])
            k += 1
        yield start, end, "\n".join(body)


def _cue_words(start: float, end: float, body: str) -> List[TimedWord]:
    """The words of a cue with timings: WebVTT's inline timestamps where
    given (`<00:00:01.520><c> word</c>`), else spread over the cue by length."""
    if _INLINE.search(body):
        words: List[TimedWord] = []
        moments = [start] + [_seconds(*m.groups()) for m in _INLINE.finditer(body)]
        for moment, piece in zip(moments, _INLINE.split(body)[::5]):
            for word in _TAG.sub("", piece).split():
                words.append(TimedWord(_unescape(word), moment, moment))
        return _spread_ends(words, end)
    texts = [_unescape(word) for word in _TAG.sub("", body).split()]
    total = sum(len(text) for text in texts) or 1
    words, position = [], start
    for text in texts:
        length = (end - start) * len(text) / total
        words.append(TimedWord(text, round(position, 3), round(position + length, 3)))
        position += length
    return words


def _spread_ends(words: List[TimedWord], end: float) -> List[TimedWord]:
    """Each word ends where the next starts (the last at the cue's end)."""
    return [
        TimedWord(
            word.text, word.start, max(word.start or 0.0, (words[k + 1].start if k + 1 < len(words) else end) or 0)
        )
        for k, word in enumerate(words)
    ]


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", " ").replace("&amp;", "&")


def _plain_words(line: str) -> List[str]:
    """A cue line's words, lower-case, without tags or inline timestamps."""
    return [_unescape(word).lower() for word in _TAG.sub("", line).split()]


# -- shared -----------------------------------------------------------------


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where}: not JSON (line {e.lineno}: {e.msg}).") from None


def _timed(entry: Any, where: str) -> TimedWord:
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: expected an object with 'word', 'start', 'end'.")
    text = entry.get("word", entry.get("text"))
    if not isinstance(text, str) or not text.strip():
        raise RecordError(f"{where}: the word is missing or empty.")
    start, end = entry.get("start"), entry.get("end")
    try:
        return TimedWord(text.strip(), None if start is None else float(start), None if end is None else float(end))
    except (TypeError, ValueError):
        raise RecordError(f"{where}: start and end must be numbers.") from None


def _word_entry(transcript: Transcript, k: int, text: str, leading: str = "") -> Dict[str, Any]:
    entry = dict(transcript.fields[k]) if transcript.fields else {}
    entry["text" if "text" in entry and "word" not in entry else "word"] = leading + text
    return entry


def _sentences(words: Sequence[OutputWord]) -> List[List[int]]:
    """The word indices of each sentence."""
    sentences: List[List[int]] = [[]]
    for k, word in enumerate(words):
        sentences[-1].append(k)
        if word.sentence_end and k + 1 < len(words):
            sentences.append([])
    return [sentence for sentence in sentences if sentence]
