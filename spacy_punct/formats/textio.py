"""Reading text input robustly: UTF-8 (with or without a byte-order mark),
UTF-16 with a byte-order mark, or an encoding the caller names (`latin-1`,
`cp1252`...); gzip-compressed text; binary input refused; undecodable bytes
replaced by U+FFFD and counted; CRLF and lone CR line ends, read with their
lines (`TextReader.lines`) so that output can end each line as its input did."""

import codecs
import gzip
import io
import select
import zlib
from pathlib import Path
from typing import BinaryIO, Iterator, List, Optional, Tuple, Union

_GZIP = b"\x1f\x8b"
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_SNIFF_BYTES = 8192
_CONTROL = frozenset(chr(c) for c in range(32)) - set("\t\n\r\f\v\x1b")
# the longest line read (about 3 million words, a hundred hours of speech):
# a line is held whole before it is punctuated in pieces, so a longer one (a
# gzip bomb without line ends) stops the input here, not the machine
MAX_LINE_CHARS = 20_000_000


class InputError(ValueError):
    """The input is not text this package can read."""


class TextReader:
    """The lines of a binary stream decoded as text, with the number of
    replaced (undecodable) characters so far in `replaced`. `encoding`: the
    text's encoding (None: UTF-8, or UTF-16 by its byte-order mark). Input
    that breaks off (a gzip file cut short or damaged) ends the lines where
    it broke, with the problem in `error`: the lines before it are read."""

    def __init__(self, stream: BinaryIO, name: str, encoding: Optional[str] = None) -> None:
        buffered = stream if hasattr(stream, "peek") else io.BufferedReader(stream)  # type: ignore[arg-type,type-var]
        head = buffered.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
        if head.startswith(_GZIP):
            buffered = io.BufferedReader(gzip.GzipFile(fileobj=buffered))  # type: ignore[arg-type]
            try:
                head = buffered.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
            except (EOFError, OSError, zlib.error) as e:  # cut or damaged in its first block
                raise InputError(f"{name} breaks off before its first line: {e}") from None
        self.encoding = _encoding(head, name) if encoding is None else _named_encoding(encoding)
        self.name = name
        self.replaced = 0
        self.error: Optional[str] = None
        self._text = io.TextIOWrapper(buffered, encoding=self.encoding, errors="replace", newline="")
        try:
            self._fileno: Optional[int] = stream.fileno()
        except (AttributeError, OSError, ValueError):  # a stream in memory
            self._fileno = None

    def more_waiting(self) -> bool:
        """Whether more of the input can be read at once, without waiting for
        its writer (a file, or a pipe that holds more): a stream whose lines
        are all there may be read ahead like a file. Lines already in this
        reader's buffer are not counted: it may answer no where they wait."""
        if self._fileno is None:
            return True
        try:
            return bool(select.select([self._fileno], [], [], 0)[0])
        except (OSError, ValueError):
            return False

    def __iter__(self) -> Iterator[str]:
        """Lines without their line ends."""
        return (text for text, _ in self.lines())

    def lines(self) -> Iterator[Tuple[str, str]]:
        """(line, its end) pairs: the end is "\\n", "\\r\\n", a lone "\\r", or ""
        for a last line without one. A line longer than `MAX_LINE_CHARS` ends
        the lines, with the problem in `error`."""
        number = 0
        while True:
            try:
                line = self._text.readline(MAX_LINE_CHARS + 2)  # room for its \r\n
            except (EOFError, OSError, zlib.error) as e:
                self.error = f"{self.name} breaks off after the lines read so far: {e}"
                return
            if not line:
                return
            number += 1
            if len(line.rstrip("\r\n")) > MAX_LINE_CHARS:
                self.error = (
                    f"{self.name}, line {number} is longer than {MAX_LINE_CHARS:,} characters "
                    "(textio.MAX_LINE_CHARS): split it into lines"
                )
                return
            self.replaced += line.count("\ufffd")
            text = line.rstrip("\r\n")
            yield text, line[len(text) :]

    def read(self) -> str:
        """The rest of the text, line ends made \\n; raises `InputError`
        where the input breaks off."""
        text = "\n".join(self)
        if self.error:
            raise InputError(self.error)
        return text

    def read_as_written(self) -> Tuple[str, str]:
        """The rest of the text with the line ends it has, but for the last
        line's, and that end; raises `InputError` where the input breaks off."""
        parts, end = [], ""
        for text, line_end in self.lines():
            parts += [end, text]
            end = line_end
        if self.error:
            raise InputError(self.error)
        return "".join(parts), end

    def close(self) -> None:
        self._text.close()


def open_text(path: Union[str, Path], encoding: Optional[str] = None) -> TextReader:
    """A reader of a text file (see `TextReader`)."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{path} is a folder, not a text file.")
    if encoding is not None:
        _named_encoding(encoding)  # an unknown name fails before the file is opened
    return TextReader(path.open("rb"), str(path), encoding)


def read_text(path: Union[str, Path], encoding: Optional[str] = None) -> Tuple[str, int]:
    """A whole text file, and the number of characters replaced."""
    reader = open_text(path, encoding)
    try:
        return reader.read(), reader.replaced
    finally:
        reader.close()


def read_head(path: Union[str, Path], encoding: Optional[str] = None, chars: int = 100_000) -> List[str]:
    """A text file's first lines, until they hold more than `chars`
    characters (a file's start, in time that does not grow with the file)."""
    reader = open_text(path, encoding)
    try:
        head: List[str] = []
        read = 0
        for line in reader:
            head.append(line)
            read += len(line)
            if read > chars:
                break
        return head
    finally:
        reader.close()


def replaced_message(reader: TextReader) -> str:
    """What to tell the user when characters were replaced."""
    hint = " (is it in another encoding? --encoding names it, e.g. latin-1)" if reader.encoding == "utf-8" else ""
    return f"{reader.name}: {reader.replaced} undecodable characters replaced by U+FFFD{hint}."


def _named_encoding(encoding: str) -> str:
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"Unknown encoding {encoding!r}: give one such as utf-8, latin-1 or cp1252.") from None
    return "utf-8-sig" if name == "utf-8" else name


def _encoding(head: bytes, name: str) -> str:
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    if b"\x00" in head:
        raise InputError(f"{name} is a binary file (or UTF-16 without a byte-order mark), not text.")
    sample = head.decode("utf-8", errors="replace")
    if len(head) == _SNIFF_BYTES:
        sample = sample[:-4]  # a character cut at the end of the sample is no error
    bad = sum(1 for char in sample if char == "\ufffd" or char in _CONTROL)
    if sample and bad > 0.3 * len(sample):
        raise InputError(f"{name} does not look like text: {bad} of its first {len(sample)} characters are not.")
    return "utf-8"
