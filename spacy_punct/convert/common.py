"""What every converter shares: reading damaged files, and the summary."""

import fnmatch
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import FrozenSet, Iterable, List, Optional, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc

from ..formats import textio
from ..labels import EMPTY, MARK_LABELS
from ..word_records import word_records


@dataclass
class ConvertOptions:
    """doc_length: words per document where the source marks no documents.
    blocks: (text) one document per blank-line-separated block, not per file.
    encoding: the files' encoding (None: UTF-8, or UTF-16 by its byte-order mark).
    exclude: files of a folder to leave out (paths relative to the folder, names,
        or glob patterns of either).
    field: (json) the records' field that holds the text.
    glob: the files of a folder to read (None: the converter's own pattern)."""

    doc_length: int = 2000
    blocks: bool = False
    encoding: Optional[str] = None
    exclude: FrozenSet[str] = frozenset()
    field: str = "text"
    glob: Optional[str] = None


class ConversionError(ValueError):
    """The input is not in the format the converter reads."""


@dataclass
class ConversionStats:
    """What a conversion wrote: documents, words, labels, and what it repaired."""

    documents: int = 0
    words: int = 0
    labels: Counter = field(default_factory=Counter)
    invalid_bytes: int = 0
    skipped: Counter = field(default_factory=Counter)
    skipped_files: List[str] = field(default_factory=list)

    def skip_file(self, path: Union[str, Path], why: str) -> None:
        """Note a file of a folder that was not read."""
        self.skipped_files.append(f"{path} ({why})")

    def count(self, doc: Doc) -> None:
        """Count a written doc as the training reader will read it."""
        records = word_records(doc)
        self.documents += 1
        self.words += len(records)
        self.labels.update(MARK_LABELS.get(record.mark or "", EMPTY) for record in records)

    def uncount(self, doc: Doc) -> None:
        """Take back a counted doc that was dropped after all."""
        records = word_records(doc)
        self.documents -= 1
        self.words -= len(records)
        self.labels.subtract(MARK_LABELS.get(record.mark or "", EMPTY) for record in records)

    def warning(self) -> Optional[str]:
        """What a user should know about the corpus written, if anything."""
        if self.words and not any(n for label, n in self.labels.items() if label != EMPTY):
            return (
                "warning: no word is followed by a mark, so a punctuator trained on this corpus learns to write "
                "none: convert punctuated text (the converter reads the marks written in it)."
            )
        return None

    def summary(self) -> str:
        lines = [f"documents: {self.documents}", f"words: {self.words}"]
        lines += [f"{label}: {n}" for label, n in sorted(self.labels.items()) if n]
        if self.invalid_bytes:
            lines.append(
                f"undecodable characters replaced by U+FFFD: {self.invalid_bytes} (--encoding names another encoding)"
            )
        lines += [f"skipped {what}: {n}" for what, n in sorted(self.skipped.items())]
        lines += [f"skipped file: {name}" for name in self.skipped_files]
        return "\n".join(lines)


def counted_doc(nlp: Language, text: str, stats: ConversionStats) -> Doc:
    """The doc of a converted text, counted in `stats`."""
    doc = nlp.make_doc(text)
    stats.count(doc)
    return doc


def read_text(path: Path, stats: ConversionStats, encoding: Optional[str] = None) -> str:
    """A file's text (see `textio`: UTF-8 or UTF-16 with a byte-order mark, or
    the encoding given; gzip), undecodable bytes replaced and counted, line
    ends made LF. Binary files are refused."""
    try:
        text, replaced = textio.read_text(path, encoding)
    except textio.InputError as e:
        raise ConversionError(str(e)) from None
    stats.invalid_bytes += replaced
    return text


def input_files(path: Path, pattern: str, exclude: Iterable[str] = ()) -> List[Path]:
    """The file itself, or the files matching `pattern` under a folder that
    no pattern of `exclude` matches (by name or path under the folder), sorted."""
    path = Path(path)
    if not path.exists():
        raise ConversionError(f"Input not found: {path}")
    if path.is_dir():
        excluded = tuple(exclude)
        files = sorted(p for p in path.rglob(pattern) if p.is_file() and not _matches(p, path, excluded))
        if not files:
            raise ConversionError(f"No {pattern} files under {path}")
        return files
    return [path]


def _matches(file: Path, folder: Path, patterns: Tuple[str, ...]) -> bool:
    relative = file.relative_to(folder).as_posix()
    return any(fnmatch.fnmatch(file.name, p) or fnmatch.fnmatch(relative, p) for p in patterns)


def token_doc(vocab, tokens: Iterable[Tuple[str, bool, bool]]) -> Doc:
    """A Doc from (text, space after, is punctuation) triples, with UD part of
    speech (PUNCT or X) recording which tokens are punctuation."""
    words, spaces, pos = [], [], []
    for text, space, is_punct in tokens:
        words.append(text)
        spaces.append(space)
        pos.append("PUNCT" if is_punct else "X")
    if spaces:
        spaces[-1] = False
    return Doc(vocab, words=words, spaces=spaces, pos=pos)
