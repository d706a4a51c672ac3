"""JSON lists of records with a sentence in one field (HuSST: {"id", "Sent",
"label"}): one Doc per sentence, read with the language's tokenizer."""

import json
from pathlib import Path
from typing import Iterator

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionError, ConversionStats, ConvertOptions, input_files, read_text


def convert_json_sentences(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per record's `options.field` (`*.json` in a folder)."""
    for file in input_files(path, options.glob or "*.json"):
        try:
            records = json.loads(read_text(file, stats, options.encoding))
        except json.JSONDecodeError as e:
            raise ConversionError(f"{file}: not JSON: {e}") from None
        if not isinstance(records, list):
            raise ConversionError(f"{file}: expected a JSON list of records, got a {type(records).__name__}.")
        for number, record in enumerate(records, start=1):
            text = record.get(options.field) if isinstance(record, dict) else None
            if not isinstance(text, str):
                raise ConversionError(
                    f"{file}: record {number} has no text field {options.field!r} (--field names it)."
                )
            text = " ".join(text.split())
            if text:
                doc = nlp.make_doc(text)
                stats.count(doc)
                yield doc
