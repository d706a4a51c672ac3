"""Punctuating records (JSONL records of text or timed words, read and
written by `formats.records`), lazily and in order."""

from typing import Any, Dict, Iterable, Iterator, Mapping, Optional

from spacy.language import Language

from ..decode import DecisionSettings
from ..formats.records import Record, output_record, record_doc
from ..pipelines.loading import find_punctuator
from .texts import punctuate_docs


def punctuate_records(
    nlp: Language, records: Iterable[Record], *, batch_size: int = 64, settings: Optional[DecisionSettings] = None
) -> Iterator[Dict[str, Any]]:
    """The output record of each input record (see `record_doc` and
    `output_record`), in order, read lazily; `settings`: decide under these
    (default: the punctuator's own)."""
    if isinstance(records, (Mapping, str)):
        raise TypeError("punctuate_records takes an iterable of records; for one record, give [record].")
    find_punctuator(nlp)  # a wrong pipeline fails at the call, not at the first result
    items = ((record_doc(nlp, record, number), record) for number, record in enumerate(records, start=1))
    done = punctuate_docs(nlp, items, batch_size=batch_size, settings=settings)
    return (output_record(doc, record) for doc, record in done)
