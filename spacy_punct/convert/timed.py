"""Timed transcripts: JSONL records of words with timings, in any shape of
`timed.record_word_list` (Whisper-style word lists and segments, Vosk results),
whose words are written with their punctuation and case (`"trip?"`). One Doc
per record; every token keeps its word's timings in `token._.start_time` and
`token._.end_time`, which the pause features read."""

from pathlib import Path
from typing import Iterator

from spacy.language import Language
from spacy.tokens import Doc

from ..formats.timed import RecordError, parse_json_line, record_word_list, timed_words, words_doc
from .common import ConversionError, ConversionStats, ConvertOptions, input_files, read_text


def convert_timed_jsonl(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    for file in input_files(path, options.glob or "*.jsonl"):
        for number, line in enumerate(read_text(file, stats, options.encoding).split("\n"), start=1):
            if not line.strip():
                continue
            where = f"{file}:{number}"
            try:
                record = parse_json_line(line, where)
                if not isinstance(record, dict):
                    raise RecordError(f"{where}: expected a record with timed words.")
                entries = record_word_list(record, where)
                if entries is None:
                    raise RecordError(f"{where}: no word list ('words', 'result' or 'segments').")
                words = timed_words(entries, where)
            except RecordError as e:
                raise ConversionError(str(e)) from None
            if not words:
                stats.skipped["records without words"] += 1
                continue
            doc = words_doc(nlp, words)
            stats.count(doc)
            yield doc
