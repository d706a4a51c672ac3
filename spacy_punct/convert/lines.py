"""Text of one sentence a line in any language (the Bangla side of parallel
corpora): documents of consecutive lines, about `doc_length` words each, so
that the contamination guard judges a passage rather than a whole file."""

from pathlib import Path
from typing import Iterator, List

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionStats, ConvertOptions, counted_doc, input_files, read_text


def convert_lines(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """Documents of whole lines, a new one once `options.doc_length` words are
    reached, never across files; blank lines are skipped. A folder is read for
    `options.glob` (all files but README and LICENSE files by default)."""
    for file in input_files(path, options.glob or "*"):
        if options.glob is None and file.name.upper().startswith(("README", "LICENSE")):
            continue
        lines: List[str] = []
        words = 0
        for line in read_text(file, stats, options.encoding).splitlines():
            line = " ".join(line.split())
            if not line:
                continue
            lines.append(line)
            words += line.count(" ") + 1
            if words >= options.doc_length:
                yield counted_doc(nlp, " ".join(lines), stats)
                lines, words = [], 0
        if lines:
            yield counted_doc(nlp, " ".join(lines), stats)
