"""whisper.cpp's JSON (`-oj`, and `-ojf` with each segment's tokens)."""

import json
import re
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from .. import recognisers
from ..captions import timestamp
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord, spread_words


@transcript_formats.register("whisper-cpp")
class WhisperCppFormat(TranscriptFormat):
    """whisper.cpp's JSON: `{"transcription": [{"timestamps": {"from",
    "to"}, "offsets": {"from", "to"} (milliseconds), "text", "tokens"}]}`.
    Words are timed by their tokens (`-ojf`: a token with a leading space
    starts a word; special tokens such as `[_BEG_]` are no words), else by
    their segment's offsets, by length. Segments are re-cut at sentence
    ends, each word's tokens carried as read to the segment of its word;
    every other field is kept."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        return head.startswith("{") and _KEY.search(head) is not None

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and "transcription" in value

    def read(self, text: str, name: str) -> Transcript:
        value = recognisers.json_value(text, name)
        segments = value.get("transcription") if isinstance(value, Mapping) else None
        if not isinstance(segments, list):
            raise RecordError(f"{name}: expected whisper.cpp's JSON: an object with 'transcription'.")
        result, params = value.get("result"), value.get("params")
        said = (result if isinstance(result, Mapping) else {}).get("language")
        asked = (params if isinstance(params, Mapping) else {}).get("language")
        transcript = Transcript(
            [], source=value, language=recognisers.language_code(said) or recognisers.language_code(asked)
        )
        for number, segment in enumerate(segments):
            where = f"{name}, segment {number + 1}"
            start, end = _offsets(segment, where)
            tokens = segment.get("tokens")
            if isinstance(tokens, list):
                words = _token_words(tokens, where)
            else:
                text_value = segment.get("text")
                if not isinstance(text_value, str):
                    raise RecordError(f"{where}: no 'text'.")
                words = [(word, []) for word in spread_words(text_value.split(), start, end)]
            for word, word_tokens in words:
                transcript.words.append(word)
                transcript.fields.append({"tokens": word_tokens})
                transcript.groups.append(number)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        source = dict(transcript.source)
        segments = source["transcription"]
        new_segments: List[Dict[str, Any]] = []
        for sentence in recognisers.sentence_indices(words):
            read = segments[transcript.groups[sentence[0]]]
            start = transcript.words[sentence[0]].start or 0.0
            end = max(start, transcript.words[sentence[-1]].end or start)
            segment: Dict[str, Any] = {
                "timestamps": {"from": timestamp(start, ","), "to": timestamp(end, ",")},
                "offsets": {"from": round(start * 1000), "to": round(end * 1000)},
                "text": "".join(" " + words[k].text for k in sentence),
            }
            if "tokens" in read:
                segment["tokens"] = [token for k in sentence for token in transcript.fields[k]["tokens"]]
            segment.update({key: value for key, value in read.items() if key not in segment})
            new_segments.append(segment)
        source["transcription"] = new_segments
        return json.dumps(source, ensure_ascii=False, indent="\t") + "\n"


_KEY = re.compile(r'"transcription"\s*:')  # the key, not a value ("type": "transcription")
_SPECIAL = re.compile(r"^\[_[^\]]*\]$")  # [_BEG_], [_TT_150], [_SOT_]


def _offsets(segment: Any, where: str) -> Tuple[float, float]:
    """A segment's start and end in seconds, from its offsets (ms)."""
    if not isinstance(segment, Mapping):
        raise RecordError(f"{where}: expected an object with 'offsets' and 'text'.")
    offsets = segment.get("offsets")
    try:
        start, end = float(offsets["from"]) / 1000, float(offsets["to"]) / 1000  # type: ignore[index]
    except (TypeError, KeyError, ValueError):
        raise RecordError(f"{where}: 'offsets' must be {{'from': ms, 'to': ms}}.") from None
    if not 0 <= start <= end:
        raise RecordError(f"{where}: needs 0 <= from <= to, got {start * 1000:g}, {end * 1000:g}.")
    return start, end


def _token_words(tokens: List[Any], where: str) -> List[Tuple[TimedWord, List[Any]]]:
    """The words of a segment's tokens, each timed from its first token's
    start to its last's end, with its tokens (special ones go with the word
    before them, or the first word)."""
    words: List[Tuple[str, float, float, List[Any]]] = []
    waiting: List[Any] = []  # tokens before the first word
    for position, token in enumerate(tokens, start=1):
        text = token.get("text") if isinstance(token, Mapping) else None
        if not isinstance(text, str):
            raise RecordError(f"{where}, token {position}: expected an object with 'text' and 'offsets'.")
        if _SPECIAL.match(text.strip()) or not text.strip():
            (words[-1][3] if words else waiting).append(token)
            continue
        start, end = _offsets(token, f"{where}, token {position}")
        if words and not text[0].isspace():  # a piece of the word before
            word, first, _, kept = words[-1]
            words[-1] = (word + text, first, end, kept + [token])
        else:
            words.append((text.strip(), start, end, waiting + [token]))
            waiting = []
    if waiting and words:
        words[-1][3].extend(waiting)
    return [(TimedWord(word, start, end), kept) for word, start, end, kept in words]
