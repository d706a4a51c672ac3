"""Output formats of `punctuate` and `stream`: one writer per format, chosen by
name from the `output_formats` registry (entry point group
`spacy_punct_output_formats`), so that a new format is one registered class.

A writer turns punctuated docs (`punctuate`) or committed words of a stream
(`stream`) into the text to write, keeping whatever state the format needs
between them (caption cues numbered across documents, an open line)."""

import json
from dataclasses import replace
from typing import Any, Iterable, List, Mapping

import catalogue
from spacy.tokens import Doc

from .captions import CaptionWord, Cue, CueBuilder, caption_header, doc_caption_words, format_cue
from .records import output_record, record_line
from .registries import registered
from .timed import RecordError

output_formats = catalogue.create("spacy_punct", "output_formats", entry_points=True)


class OutputWriter:
    """The text of one output format. `whole_documents`: `punctuate` hands
    over a long document once all its pieces are done, not piece by piece."""

    timed = False  # needs word timings
    whole_documents = True
    line_end = "\n"  # the end of the input line of the document being written

    def __init__(self, **options: Any) -> None:
        """`options`: the command's output options (`max_chars`,
        `max_seconds`), for the formats that use them."""

    def header(self) -> str:
        return ""

    def document(self, doc: Doc, record: Mapping[str, Any], *, number: int = 0, last: bool = True) -> str:
        """A punctuated doc, the input record it came from and its number
        (from 1; 0: unknown); `last`: the doc ends its input document, whose
        line ended with `self.line_end` (set by the loop: a format of lines
        ends its own so)."""
        raise NotImplementedError

    def words(self, words: Iterable[Any]) -> str:
        """Committed words of a stream (`streaming.CommittedWord`)."""
        raise NotImplementedError

    def footer(self) -> str:
        return ""


@output_formats.register("text")
class TextWriter(OutputWriter):
    """The punctuated text: a document per line (`punctuate`), a sentence per
    line (`stream`)."""

    whole_documents = False

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.open_line = False

    def document(self, doc: Doc, record: Mapping[str, Any], *, number: int = 0, last: bool = True) -> str:
        return doc.text + (self.line_end if last else "")

    def words(self, words: Iterable[Any]) -> str:
        parts = []
        for word in words:
            if word.closes:  # the stream's closing mark, onto its last word
                parts.append(word.text + "\n")
                self.open_line = False
            elif word.text:  # a word that was only a replaced mark writes nothing
                parts.append((" " if self.open_line else "") + word.text + ("\n" if word.sentence_end else ""))
                self.open_line = not word.sentence_end
        return "".join(parts)

    def footer(self) -> str:
        ended, self.open_line = self.open_line, False
        return "\n" if ended else ""


@output_formats.register("jsonl")
class JsonlWriter(OutputWriter):
    """A JSON record per document (`punctuate`), per committed word (`stream`)."""

    def document(self, doc: Doc, record: Mapping[str, Any], *, number: int = 0, last: bool = True) -> str:
        return record_line(output_record(doc, record)) + "\n"

    def words(self, words: Iterable[Any]) -> str:
        return "".join(json.dumps(word.__dict__, ensure_ascii=False) + "\n" for word in words)


class CaptionWriter(OutputWriter):
    """Caption cues, cut at sentence ends and at `max_chars` or `max_seconds`
    (see `captions.CueBuilder`), numbered across documents."""

    timed = True
    kind = ""

    def __init__(self, max_chars: int = 84, max_seconds: float = 7.0, **options: Any) -> None:
        super().__init__(**options)
        self.cues = CueBuilder(max_chars, max_seconds)

    def document(self, doc: Doc, record: Mapping[str, Any], *, number: int = 0, last: bool = True) -> str:
        voice = str(record.get("speaker") or "")  # WebVTT names a record's speaker in its cues
        found = [
            cue
            for word in doc_caption_words(doc, f"record {number}" if number else "document")
            for cue in self.cues.add(replace(word, voice=voice))
        ]
        return self._text(found + self.cues.flush())

    def words(self, words: Iterable[Any]) -> str:
        found: List[Cue] = []
        for word in words:
            if word.closes:
                found.extend(self.cues.close_with(word.text))
                continue
            if word.start is None:
                raise RecordError(f"word {word.index + 1} ({word.word!r}) has no timings; captions need word timings.")
            found.extend(self.cues.add(CaptionWord(word.text, word.start, word.end, word.sentence_end)))
        return self._text(found)

    def header(self) -> str:
        return caption_header(self.kind)

    def footer(self) -> str:
        return self._text(self.cues.flush())

    def _text(self, cues: List[Cue]) -> str:
        return "".join(format_cue(cue, self.kind) for cue in cues)


@output_formats.register("srt")
class SrtWriter(CaptionWriter):
    """SubRip captions."""

    kind = "srt"


@output_formats.register("vtt")
class VttWriter(CaptionWriter):
    """WebVTT captions."""

    kind = "vtt"


def format_names() -> List[str]:
    """The registered output formats."""
    return list(registered(output_formats))


def make_writer(name: str, *, max_chars: int = 84, max_seconds: float = 7.0) -> OutputWriter:
    """A writer of the output format `name`; a ValueError names the choices."""
    formats = registered(output_formats)
    if name not in formats:
        raise ValueError(f"unknown --format {name!r}; choose {', '.join(formats)}.")
    return formats[name](max_chars=max_chars, max_seconds=max_seconds)
