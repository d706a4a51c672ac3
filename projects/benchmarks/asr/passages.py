"""Passages for the speech benchmark: whole sentences of about `--words`
words from the middle of documents nobody trained on (IWSLT dev2012's
held-out tenth, GUM dev, the prepared speeches kept apart in extra/),
`--per-source` from each, spread over its documents. Writes JSONL, one
passage a line: its id, source, the text to speak (as written), and its
words with the mark written after each.

    python projects/benchmarks/asr/passages.py CORPUS_DIR OUTPUT.jsonl [--per-source 6] [--words 100]
"""

import argparse
import json
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List

import spacy

from spacy_punct.word_records import WordRecord, read_docbins, word_records
from spacy_punct.words import sentence_spans

# a clitic as the corpora split it off its word
CLITIC = re.compile(r"^(n['’]t|['’](s|re|ve|ll|d|m))$", re.IGNORECASE)
SOURCES = {"iwslt_dev": "dev.spacy", "gum_dev": "eval/gum_dev.spacy", "speeches": "extra/speeches.spacy"}


def passages(corpus: Path, per_source: int, n_words: int) -> Iterator[Dict[str, Any]]:
    """Each source's passages, in order."""
    nlp = spacy.blank("en")
    for source, name in SOURCES.items():
        docs = [word_records(doc) for doc in read_docbins(corpus / name, nlp.vocab)]
        docs = [records for records in docs if len(records) >= 4 * n_words]
        step = len(docs) / per_source
        for k in range(per_source):
            records = _passage(docs[int(k * step)], n_words)
            yield {
                "id": f"{source}-{k:02d}",
                "source": source,
                "text": _text(records),
                "words": _spoken_words(records),
            }


def _passage(records: List[WordRecord], n_words: int) -> List[WordRecord]:
    """Whole sentences from the document's middle, about `n_words` words."""
    spans = sentence_spans([record.mark for record in records])
    first = next(k for k, (start, _) in enumerate(spans) if start >= len(records) // 2)
    start, end = spans[first][0], spans[first][1]
    for _, end in spans[first:]:
        if end - start >= n_words:
            break
    return records[start:end]


def _text(records: List[WordRecord]) -> str:
    return "".join(record.text + record.mark + (" " if record.space else "") for record in records).strip()


def _spoken_words(records: List[WordRecord]) -> List[List[str]]:
    """The words as a recogniser writes them: a clitic the corpus split off
    (`was n't`, `it 's`) joined to the word before it, with the mark after it."""
    words: List[List[str]] = []
    for record in records:
        if words and not words[-1][1] and CLITIC.match(record.text):
            words[-1] = [words[-1][0] + record.text, record.mark]
        else:
            words.append([record.text, record.mark])
    return words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="corpus/en, as `spacy-punct convert` wrote it")
    parser.add_argument("output", type=Path)
    parser.add_argument("--per-source", type=int, default=6)
    parser.add_argument("--words", type=int, default=100)
    args = parser.parse_args()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    rows = list(passages(args.corpus, args.per_source, args.words))
    args.output.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf8")
    print(f"{len(rows)} passages, {sum(len(row['words']) for row in rows)} words -> {args.output}")


if __name__ == "__main__":
    main()
