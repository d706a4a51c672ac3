"""JSON lists of records with a text in one or more fields (HuSST: {"id",
"Sent", "label"}; HuRTE and HuCommitmentBank: {"premise", "hypothesis"}):
one Doc per text, read with the language's tokenizer. A text that recurs (a
premise shared by several records) is kept once."""

import json
from pathlib import Path
from typing import Iterator, Set

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionError, ConversionStats, ConvertOptions, counted_doc, input_files, read_text


def convert_json_sentences(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per distinct text of the records' `options.field` (fields
    joined by commas: `premise,hypothesis`), over `*.json` in a folder."""
    fields = [name.strip() for name in options.field.split(",") if name.strip()]
    seen: Set[str] = set()
    for file in input_files(path, options.glob or "*.json"):
        try:
            records = json.loads(read_text(file, stats, options.encoding).lstrip("\ufeff"))
        except json.JSONDecodeError as e:
            raise ConversionError(f"{file}: not JSON: {e}") from None
        if not isinstance(records, list):
            raise ConversionError(f"{file}: expected a JSON list of records, got a {type(records).__name__}.")
        for number, record in enumerate(records, start=1):
            for name in fields:
                text = record.get(name) if isinstance(record, dict) else None
                if not isinstance(text, str):
                    raise ConversionError(f"{file}: record {number} has no text field {name!r} (--field names it).")
                text = " ".join(text.split())
                if text and text not in seen:
                    seen.add(text)
                    yield counted_doc(nlp, text, stats)
