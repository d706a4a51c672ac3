"""Plain punctuated text in any language."""

import re
from pathlib import Path
from typing import Iterator

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionStats, ConvertOptions, counted_doc, input_files, read_text


def convert_text(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per file, or per blank-line-separated block with `options.blocks`;
    line breaks inside a document become spaces."""
    for file in input_files(path, options.glob or "*.txt"):
        text = read_text(file, stats, options.encoding)
        parts = re.split(r"\n[ \t]*\n", text) if options.blocks else [text]
        for part in parts:
            part = " ".join(part.split())
            if not part:
                continue
            yield counted_doc(nlp, part, stats)
