"""Rev AI's transcript (`application/vnd.rev.transcript.v1.0+json`), whose
words come without marks where it was asked for `skip_punctuation`: each
speaker's monologue a list of `text` and `punct` elements."""

import json
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from .. import recognisers
from ..recognisers import OutputWord, Transcript, TranscriptFormat, transcript_formats
from ..timed import RecordError, TimedWord
from . import mark_items

_WORDS = ("text", "unknown")  # "unknown": a tag such as <inaudible>


@transcript_formats.register("rev")
class RevAiFormat(TranscriptFormat):
    """Rev AI's transcript: `{"monologues": [{"speaker", "elements":
    [{"type": "text", "value", "ts", "end_ts", "confidence"}, {"type":
    "punct", "value": " "}, ...]}]}`. Its words are read with the marks
    after them (`--repair` keeps them); written back, each word's value is
    cased as punctuated and its marks are `punct` elements after it (the
    marks read replaced, the spaces kept). Each speaker's monologue is a
    text of its own where the speakers change."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:4000]
        return head.startswith("{") and '"monologues"' in head

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and isinstance(value.get("monologues"), list)

    def read(self, text: str, name: str) -> Transcript:
        value, monologues = recognisers.json_list(text, name, "monologues", "Rev AI's transcript")
        transcript = Transcript([], source={"value": value, "indent": recognisers.json_indent(text)})
        labels: List[str] = []
        for number, monologue in enumerate(monologues):
            where = f"{name}, monologue {number + 1}"
            elements = monologue.get("elements") if isinstance(monologue, Mapping) else None
            if not isinstance(elements, list):
                raise RecordError(f"{where}: expected an object with a list of 'elements'.")
            for position, element in enumerate(elements, start=1):
                kind, said = _element(element, f"{where}, element {position}")
                if kind == "punct":
                    if said.strip() and transcript.words and transcript.groups[-1] == number:
                        word = transcript.words[-1]
                        transcript.words[-1] = TimedWord(word.text + said.strip(), word.start, word.end)
                    continue
                transcript.words.append(_timed(element, said.strip(), f"{where}, element {position}"))
                transcript.fields.append({"value": said.strip()})
                transcript.groups.append(number)
                labels.append(str(monologue.get("speaker")))
                transcript.speakers.append(
                    recognisers.speaker_name(monologue.get("speaker_name") or monologue.get("speaker"))
                )
        transcript.take_turns(labels)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        value = json.loads(json.dumps(transcript.source["value"]))  # a copy to fill in
        texts: Dict[int, List[str]] = {}
        reads: Dict[int, List[str]] = {}
        for group, entry, word in zip(transcript.groups, transcript.fields, words):
            texts.setdefault(group, []).append(word.text)
            reads.setdefault(group, []).append(entry["value"])
        for number, monologue in enumerate(value["monologues"]):
            if number in texts:
                monologue["elements"] = _written_elements(monologue["elements"], reads[number], texts[number])
        return json.dumps(value, ensure_ascii=False, indent=transcript.source["indent"]) + "\n"


def _element(element: Any, where: str) -> Tuple[str, str]:
    if not isinstance(element, Mapping) or not isinstance(element.get("value"), str):
        raise RecordError(f"{where}: expected an object with 'type' and 'value'.")
    kind = str(element.get("type", "text"))
    if kind != "punct" and not element["value"].strip():
        raise RecordError(f"{where}: the word is empty.")
    return kind, element["value"]


def _timed(element: Mapping[str, Any], word: str, where: str) -> TimedWord:
    start, end = element.get("ts"), element.get("end_ts")
    try:
        return TimedWord(word, None if start is None else float(start), None if end is None else float(end))
    except (TypeError, ValueError):
        raise RecordError(f"{where} ({word!r}): 'ts' and 'end_ts' must be seconds.") from None


def _written_elements(elements: List[Any], reads: List[str], texts: List[str]) -> List[Any]:
    """A monologue's elements with its words as punctuated: each word's
    value cased, its marks `punct` elements after it, the spaces as read."""
    out: List[Any] = []
    words = iter(zip(reads, texts))
    for element in elements:
        if element.get("type") == "punct":
            if not element["value"].strip():
                out.append(element)
            continue
        read, punctuated = next(words)
        word, marks = mark_items.split_marks(read, punctuated)
        out.append(dict(element, value=word))
        out.extend({"type": "punct", "value": mark} for mark in marks)
    return out
