"""IWSLT mteval XML (`<doc docid>` / `<seg>`), cased and punctuated."""

import html
import re
from pathlib import Path
from typing import Iterator

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionError, ConversionStats, ConvertOptions, counted_doc, input_files, read_text

_DOC = re.compile(r"<doc\b[^>]*>(.*?)</doc>", re.S | re.I)
_SEG = re.compile(r"<seg\b[^>]*>(.*?)</seg>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")


def convert_iwslt_xml(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per `<doc>`: its segments joined by spaces, tokenised by the
    language's tokenizer."""
    for file in input_files(path, options.glob or "*.xml"):
        text = read_text(file, stats, options.encoding)
        docs = _DOC.findall(text)
        if not docs:
            raise ConversionError(f"{file}: no <doc> elements: not an IWSLT/mteval XML file.")
        for body in docs:
            segments = [html.unescape(_TAG.sub("", seg)).strip() for seg in _SEG.findall(body)]
            segments = [" ".join(seg.split()) for seg in segments if seg.strip()]
            if not segments:
                stats.skipped["documents without segments"] += 1
                continue
            yield counted_doc(nlp, " ".join(segments), stats)
