"""The loops over an input stream, as `spacy-punct punctuate` and `stream` run
them and any long-lived process may. `punctuated_output`: the input read as
lines, as one whole text or as JSON records, punctuated in batches, and each
document rendered by an output writer as soon as it (or, for plain text, each
piece of a long line) is done, so that memory stays bounded on inputs of any
size. `streamed_output`: a recogniser's lines of words pushed through a
`Streamer`, the committed words rendered as soon as they are decided. Both
yield the same thing, `Written` pieces: the writer's header, the text of the
words done with their count, the footer; a caller writes each as it comes."""

import json
from typing import Any, Iterator, List, NamedTuple, Optional, Tuple

from spacy.language import Language

from ..decode import DecisionSettings
from ..formats.live_lines import line_words
from ..formats.output_formats import OutputWriter
from ..formats.records import record_doc
from ..formats.textio import TextReader
from ..formats.timed import RecordError, parse_json_line
from .streaming import Streamer
from .texts import punctuate_docs, punctuate_parts


class Written(NamedTuple):
    """A piece of output, and how many input words it completes."""

    text: str
    words: int = 0


class StreamStopped(ValueError):
    """A bad line or a broken input stopped a stream; what came before it was written."""


def input_items(nlp: Language, reader: TextReader, whole: bool, records: bool) -> Iterator[Tuple[Any, Any]]:
    """(text or doc, (input record, line end)) pairs: one per line, each with
    its own end, or the whole input with its line ends as written; with
    `records`, a JSON object per non-empty line. An empty input is no
    document, whole or not: nothing comes out of nothing."""
    if whole:
        text, end = reader.read_as_written()
        if text:
            yield text, ({"text": text}, end)
        return
    lines = reader.lines()
    first = True
    for number, (line, end) in enumerate(lines, start=1):
        if not records:
            yield line, ({"text": line}, end)
            continue
        if not line.strip():
            continue
        if first and _opens_a_document(line):  # one JSON document, not a record a line
            rest = "".join(text + ending for text, ending in lines)
            yield from _json_document_items(nlp, line, number, line + end + rest)
            return
        first = False
        record = parse_json_line(line, f"line {number}")
        yield record_doc(nlp, record, number), (record, "\n")


def _opens_a_document(line: str) -> bool:
    """Whether the first line of records opens one JSON document written over
    lines: an array, or an object that is not whole on its line."""
    head = line.lstrip()
    if head.startswith("["):
        return True
    if not head.startswith("{"):
        return False
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return True
    return False


def _json_document_items(nlp: Language, first: str, number: int, text: str) -> Iterator[Tuple[Any, Any]]:
    """The items of one JSON document starting at line `number` (`first`):
    each text (a string) or record (an object) of an array, or the one
    record of an object, as the lines of JSONL give them."""
    try:
        items = json.loads(text)
    except json.JSONDecodeError as e:
        if first.lstrip().startswith("{"):  # rather a broken line of records: named as such
            parse_json_line(first, f"line {number}")
        raise RecordError(f"not JSON (line {number + e.lineno - 1}: {e.msg}).") from None
    if not isinstance(items, list):
        items = [items]
    for number, item in enumerate(items, start=1):
        record = {"text": item} if isinstance(item, str) else item
        yield record_doc(nlp, record, number), (record, "\n")


def punctuated_output(
    nlp: Language,
    reader: TextReader,
    writer: OutputWriter,
    *,
    whole: bool = False,
    records: bool = False,
    batch_size: int = 64,
    settings: Optional[DecisionSettings] = None,
) -> Iterator[Written]:
    """The writer's header, then each punctuated document's text as it is
    done, in input order, with its number of input words (the rewrite's
    count), then the footer. A long text's pieces are joined into one
    document where the writer needs whole documents; otherwise each piece is
    written as it is done, the line ended as in the input (CRLF stays CRLF).
    Raises `RecordError` or `ValueError` on a bad record."""
    items = input_items(nlp, reader, whole, records)
    yield Written(writer.header())
    if writer.whole_documents:
        done = punctuate_docs(nlp, items, batch_size=batch_size, settings=settings)
        for number, (doc, (record, end)) in enumerate(done, start=1):
            writer.line_end = end
            yield Written(writer.document(doc, record, number=number), doc._.source_words or 0)
    else:
        for doc, (record, end), _, last in punctuate_parts(nlp, items, batch_size=batch_size, settings=settings):
            writer.line_end = end
            yield Written(writer.document(doc, record, last=last), doc._.source_words or 0)
    yield Written(writer.footer())


def streamed_output(
    streamer: Streamer, reader: TextReader, writer: OutputWriter, read_ahead: int = 0, gather: int = 0
) -> Iterator[Written]:
    """The writer's text for a stream of recogniser lines (plain words, or the
    JSON forms `live_lines.line_words` reads), chunk by chunk as words are
    committed, with their number: the header, the words, those still pending
    at the end (the last sentence closed), the footer. The words of a line are read together, and
    with `read_ahead`, lines are gathered until that many words wait (a file,
    whose words are all there: read at the speed of offline punctuation), and
    with `gather`, up to that many while more of the input can be read at
    once (a live stream's backlog, a file piped in). A
    bad line ends the stream: the words read before it are flushed without
    closing the sentence, then `StreamStopped` names the line."""
    error = None
    waiting: List[Tuple[int, List[Any]]] = []  # (line number, its words) not yet pushed
    n_waiting = 0
    yield Written(writer.header())
    try:
        for number, line in enumerate(reader, start=1):
            try:
                entries = line_words(line, f"line {number}")  # its errors name the line
                for entry in entries:
                    if writer.timed and (isinstance(entry, str) or entry.get("start") is None):
                        word = entry if isinstance(entry, str) else entry.get("word", entry.get("text"))
                        raise RecordError(
                            f"line {number}: the word {word!r} has no timings; captions need word timings."
                        )
            except RecordError as e:
                error = f"{reader.name}, {e}"
                break
            waiting.append((number, entries))
            n_waiting += len(entries)
            if n_waiting < read_ahead or (n_waiting < gather and reader.more_waiting()):
                continue
            for chunk in _pushed(streamer, waiting):
                yield _words(writer, chunk)
            waiting, n_waiting = [], 0
        for chunk in _pushed(streamer, waiting):  # the lines before a bad one too
            yield _words(writer, chunk)
        if error is None and reader.error:
            error = f"{reader.error}."
        yield _words(writer, streamer.flush(close=error is None))
        yield Written(writer.footer())
    except _BadLine as e:
        error = f"{reader.name}, {e}"
        yield _words(writer, streamer.flush(close=False))
        yield Written(writer.footer())
    except RecordError as e:  # captions without timings
        error = f"{reader.name}: {e}"
    if error:
        raise StreamStopped(error)


def _words(writer: OutputWriter, committed: List[Any]) -> Written:
    """Committed words written, counted without the stream's closing mark."""
    return Written(writer.words(committed), sum(1 for word in committed if not word.closes))


class _BadLine(RecordError):
    """A line whose words failed their checks, named."""


def _pushed(streamer: Streamer, lines: List[Tuple[int, List[Any]]]) -> Iterator[List[Any]]:
    """The words committed by pushing the lines' words at once; where one
    fails its checks, the lines before it are pushed one by one and
    `_BadLine` names the line."""
    words = [word for _, entries in lines for word in entries]
    try:
        yield streamer.push_many(words)
        return
    except RecordError:
        pass
    for number, entries in lines:
        try:
            yield streamer.push_many(entries)
        except RecordError as e:
            raise _BadLine(f"line {number}: {e}") from None
