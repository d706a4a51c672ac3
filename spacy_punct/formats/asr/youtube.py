"""YouTube's transcripts as users fetch them: youtube-transcript-api's
snippets (a JSON list of `{"text", "start", "duration"}`) and YouTube's
timed text in JSON (`json3`, as yt-dlp's `--sub-format json3` saves it)."""

import json
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, spread_words

_SNIPPETS = re.compile(r'\[\s*\{(?=[^{}]*"text"\s*:)(?=[^{}]*"start"\s*:)(?=[^{}]*"duration"\s*:)')


@transcript_formats.register("youtube")
class YouTubeSnippetsFormat(TranscriptFormat):
    """youtube-transcript-api's snippets (`fetch(...).to_raw_data()`, its
    `JSONFormatter`): caption lines, each spoken from `start` for `duration`
    seconds, their words sharing that time by length (up to the next line's
    start, where lines overlap). Lines are re-cut at sentence ends, each new
    one with the fields of the line its first word came from."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        return _SNIPPETS.match(text.lstrip()[:4000]) is not None

    @staticmethod
    def fits(value: Any) -> bool:
        return (
            isinstance(value, list)
            and bool(value)
            and all(isinstance(item, Mapping) and {"text", "start", "duration"} <= set(item) for item in value)
        )

    def read(self, text: str, name: str) -> Transcript:
        snippets = recognisers.json_value(text, name)
        if not isinstance(snippets, list):
            raise RecordError(
                f"{name}: expected youtube-transcript-api's snippets: a list of 'text', 'start', 'duration'."
            )
        spans = [_snippet_span(snippet, f"{name}, snippet {k + 1}") for k, snippet in enumerate(snippets)]
        transcript = Transcript([], source={"snippets": snippets, "indent": recognisers.json_indent(text)})
        for k, (start, end, said) in enumerate(spans):
            following = spans[k + 1][0] if k + 1 < len(spans) else end
            stop = following if start <= following < end else end  # overlapping lines: up to the next one
            for word in spread_words(said.split(), start, stop):
                transcript.words.append(word)
                transcript.groups.append(k)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        snippets = transcript.source["snippets"]
        out: List[Dict[str, Any]] = []
        for sentence in recognisers.sentence_indices(words):
            first, last = transcript.words[sentence[0]], transcript.words[sentence[-1]]
            start, end = first.start or 0.0, last.end if last.end is not None else first.start or 0.0
            snippet = dict(snippets[transcript.groups[sentence[0]]])
            snippet.update(
                text=" ".join(words[k].text for k in sentence), start=round(start, 3), duration=round(end - start, 3)
            )
            out.append(snippet)
        return json.dumps(out, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _snippet_span(snippet: Any, where: str) -> Tuple[float, float, str]:
    if not isinstance(snippet, Mapping) or not isinstance(snippet.get("text"), str):
        raise RecordError(f"{where}: expected an object with 'text', 'start' and 'duration'.")
    try:
        start, duration = float(snippet["start"]), float(snippet["duration"])
    except (KeyError, TypeError, ValueError):
        raise RecordError(f"{where}: 'start' and 'duration' must be seconds.") from None
    if start < 0 or duration < 0:
        raise RecordError(f"{where}: 'start' and 'duration' must not be negative.")
    return start, start + duration, snippet["text"]


@transcript_formats.register("json3")
class YouTubeJson3Format(TranscriptFormat):
    """YouTube's timed text in JSON (`{"wireMagic": "pb3", "events":
    [{"tStartMs", "dDurationMs", "segs": [{"utf8", "tOffsetMs"}]}]}`): each
    piece of text (`seg`) spoken from its event's start plus its offset
    until the next piece (or its event's end), its words sharing that time
    by length; automatic captions give a piece a word. Punctuated in place:
    each piece's words are written cased and with their marks, its spaces
    and line breaks as read; every event and field stays."""

    endings = (".json3",)

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        return head.startswith("{") and re.search(r'"wireMagic"\s*:\s*"pb3"', head) is not None

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and value.get("wireMagic") == "pb3" and isinstance(value.get("events"), list)

    def read(self, text: str, name: str) -> Transcript:
        value, events = recognisers.json_list(text, name, "events", "YouTube's timed text (json3)")
        places: List[Tuple[int, int]] = []  # per word, its piece's event and place among the event's pieces
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text), "places": places})
        pieces = _pieces(events, name)
        for k, (place, start, end, said) in enumerate(pieces):
            stop = pieces[k + 1][1] if k + 1 < len(pieces) and start <= pieces[k + 1][1] < end else end
            for word in spread_words(said.split(), start, stop):
                transcript.words.append(word)
                transcript.groups.append(k)
                places.append(place)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        written: Dict[Tuple[int, int], List[str]] = {}
        for place, word in zip(transcript.source["places"], words):
            written.setdefault(place, []).append(word.text)
        for (event, seg), texts in written.items():
            piece = value["events"][event]["segs"][seg]
            piece["utf8"] = _with_words(piece["utf8"], texts)
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _with_words(said: str, texts: Sequence[str]) -> str:
    """A piece of text with its words replaced by `texts`, in turn; its spaces and line breaks as read."""
    punctuated = iter(texts)
    return re.sub(r"\S+", lambda _: next(punctuated), said)


def _pieces(events: List[Any], name: str) -> List[Tuple[Tuple[int, int], float, float, str]]:
    """((event, seg), start, end, text) per piece of text with words, in order of time."""
    pieces = []
    for e, event in enumerate(events):
        where = f"{name}, event {e + 1}"
        segs = event.get("segs") if isinstance(event, Mapping) else None
        if segs is None:  # a window's or a style's event
            continue
        if not isinstance(segs, list):
            raise RecordError(f"{where}: 'segs' must be a list of pieces of text.")
        start, end = _event_span(event, where)
        offsets = [_offset(seg, start, f"{where}, piece {s + 1}") for s, seg in enumerate(segs)]
        for s, seg in enumerate(segs):
            said = seg["utf8"]
            if said.strip():
                following = next((t for t in offsets[s + 1 :] if t > offsets[s]), end)
                pieces.append(((e, s), offsets[s], max(offsets[s], min(following, end)), said))
    return pieces


def _event_span(event: Mapping[str, Any], where: str) -> Tuple[float, float]:
    try:
        start = float(event.get("tStartMs", 0)) / 1000
        end = start + float(event.get("dDurationMs", 0)) / 1000
    except (TypeError, ValueError):
        raise RecordError(f"{where}: 'tStartMs' and 'dDurationMs' must be milliseconds.") from None
    return start, end


def _offset(seg: Any, start: float, where: str) -> float:
    if not isinstance(seg, Mapping) or not isinstance(seg.get("utf8"), str):
        raise RecordError(f"{where}: expected an object with 'utf8'.")
    offset: Optional[Any] = seg.get("tOffsetMs", 0)
    try:
        return start + float(offset) / 1000  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise RecordError(f"{where}: 'tOffsetMs' must be milliseconds.") from None
