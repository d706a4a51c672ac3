"""The word-record data model: a doc of natural punctuated text as words,
each with the mark written after it, and back (the gold doc of an example,
a bare doc for a model); DocBins read from files and folders. The training
reader, the converters, the components and distillation share it."""

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.attrs import IDX, ORTH, SPACY
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.vocab import Vocab

from .extensions import (
    register_extensions,
    set_token_extension_values,
    set_token_values,
    token_extension_values,
    token_values,
)
from .labels import stronger
from .words import marks_after, token_table

register_extensions()


def read_docbins(path: Union[str, Path], vocab: Vocab, limit: int = 0) -> Iterator[Doc]:
    """The docs of a .spacy file, or of every .spacy file under a folder, one
    file in memory at a time; at most `limit` docs (0: all)."""
    for _, doc in read_docbin_files(path, vocab, limit):
        yield doc


def read_docbin_files(path: Union[str, Path], vocab: Vocab, limit: int = 0) -> Iterator[Tuple[Path, Doc]]:
    """`read_docbins` with the file each doc comes from."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"Corpus path not found: {path}")
    files = sorted(path.rglob("*.spacy")) if path.is_dir() else [path]
    if not files:
        raise ValueError(f"No .spacy files under {path}")
    n_docs = 0
    for file in files:
        try:
            doc_bin = DocBin().from_disk(file)
        except Exception:
            raise ValueError(f"{file} is not a DocBin (.spacy) file: write one with `spacy-punct convert`.") from None
        for doc in doc_bin.get_docs(vocab):
            if limit and n_docs >= limit:
                return
            n_docs += 1
            yield file, doc


def write_docbin_parts(
    docs: Iterable[Doc],
    folder: Union[str, Path],
    *,
    tokens_per_file: int = 500_000,
    prefix: str = "part",
    first: int = 0,
) -> List[Path]:
    """Write docs to numbered .spacy files in `folder` (from number `first`),
    a new file once one holds `tokens_per_file` tokens, so that no more than
    one file's docs are in memory whatever the number of docs (a doc longer
    than that is a file of its own). Each file appears whole or not at all
    (written aside, then renamed), so a stopped run leaves only whole parts.
    The files' paths, in order."""
    if tokens_per_file < 1:
        raise ValueError(f"tokens_per_file must be positive, not {tokens_per_file}.")
    folder = Path(folder)
    paths: List[Path] = []

    def write(part: DocBin) -> None:
        paths.append(folder / f"{prefix}-{first + len(paths):05d}.spacy")
        aside = paths[-1].with_name(paths[-1].name + ".partial")
        part.to_disk(aside)
        os.replace(aside, paths[-1])

    part = DocBin(store_user_data=True)
    n_tokens = 0
    for doc in docs:
        if n_tokens and n_tokens + len(doc) > tokens_per_file:
            write(part)
            part, n_tokens = DocBin(store_user_data=True), 0
        part.add(doc)
        n_tokens += len(doc)
    if len(part):
        write(part)
    return paths


def docbin_parts(folder: Union[str, Path], prefix: str = "part") -> Tuple[int, int]:
    """How many parts `write_docbin_parts` wrote in `folder` (numbered from 0,
    none missing) and how many docs they hold."""
    paths = sorted(Path(folder).glob(f"{prefix}-*.spacy"))
    expected = [f"{prefix}-{i:05d}.spacy" for i in range(len(paths))]
    if [p.name for p in paths] != expected:
        raise ValueError(f"the parts in {folder} are not numbered from 0 without a gap: {[p.name for p in paths]}")
    return len(paths), sum(len(DocBin().from_disk(p)) for p in paths)


@dataclass
class WordRecord:
    """One word of a training text: as written, as the model sees it, whether
    a space follows, the canonical mark after it, and its custom attributes."""

    text: str
    seen: str
    space: bool
    mark: Optional[str]  # None: no gold (context only)
    extra: Dict[str, Any] = field(default_factory=dict)


def word_records(doc: Doc, lowercase: bool = False) -> List[WordRecord]:
    """The words of a doc with the mark after each.

    The marks come from the doc's punctuation tokens (natural text) or from
    `token._.punct` (the gold form written by `strip_docs`); `space` is False
    inside `don't`.
    """
    table = token_table(doc)
    after = marks_after(doc, table)
    gold = token_values(doc, "punct", table.idx)
    extras = token_extension_values(doc, skip=("punct",))
    records: List[WordRecord] = []
    for i, (text, spaced, is_space, is_punct) in enumerate(zip(table.texts, table.spaced, table.is_space, table.punct)):
        if is_space or is_punct:
            if records:
                records[-1].space = True
            continue
        records.append(
            WordRecord(
                text=text,
                seen=text.lower() if lowercase else text,
                space=spaced,
                mark=stronger(after[i], gold[i] or ""),
                extra=extras[i],
            )
        )
    return records


def strip_docs(docs: Iterable[Doc], lowercase: bool = True) -> Iterator[Doc]:
    """The gold form of punctuated docs: bare words (lower-cased if asked) with
    the gold mark in `token._.punct` and, where lower-cased, the word as
    written in `token._.gold_case`. `spacy evaluate`, which builds its input
    from the reference text, reads test sets in this form."""
    for doc in docs:
        # a DocBin forgets the spaces of a doc with unknown spaces: join the
        # words written together (`does` `n't`) so the text stays as written
        joined: List[WordRecord] = []
        cased: List[str] = []  # each joined word as written
        glued = False
        for record in word_records(doc, lowercase):
            if glued:
                joined[-1].text += record.seen
                joined[-1].mark = record.mark
                cased[-1] += record.text
            else:
                joined.append(WordRecord(record.seen, record.seen, True, record.mark, record.extra))
                cased.append(record.text)
            glued = not record.space
        gold = gold_doc(doc.vocab, joined)
        if lowercase:  # the case a truecaser is scored against (`spacy evaluate`)
            set_token_values(
                gold,
                "gold_case",
                _column(gold, IDX),
                [text if text != record.text else None for text, record in zip(cased, joined)],
            )
        yield gold


def make_example(vocab: Vocab, records: Sequence[WordRecord]) -> Example:
    """An Example: predicted, the words as the model sees them; reference, the
    words as written with the gold mark after each. Both carry the records'
    custom attributes. Built without Token objects: the training reader makes
    one per chunk."""
    spaces = [record.space for record in records]
    if spaces:
        spaces[-1] = False
    predicted = Doc(vocab, words=[record.seen for record in records], spaces=spaces)
    _set_extras(predicted, records)
    return Example(predicted, gold_doc(vocab, records, spaces))


def example_records(example: Example) -> List[WordRecord]:
    """The records an example made by `make_example` was built from."""
    predicted, reference = example.predicted, example.reference
    strings = reference.vocab.strings
    texts = [strings[orth] for orth in _column(reference, ORTH)]
    seen = [strings[orth] for orth in _column(predicted, ORTH)]
    spaces = [bool(space) for space in _column(predicted, SPACY)]
    marks = token_values(reference, "punct", _column(reference, IDX))
    extras = token_extension_values(reference, skip=("punct",))
    return [WordRecord(*values) for values in zip(texts, seen, spaces, marks, extras)]


def gold_doc(vocab: Vocab, records: Sequence[WordRecord], spaces: Optional[Sequence[bool]] = None) -> Doc:
    """A reference Doc: the words as written with the gold mark in `token._.punct`.

    It is flagged as having unknown spaces, so that spaCy's tokenization scorer
    leaves it alone when the predicted Doc is a rewritten, punctuated one.
    """
    if spaces is None:
        spaces = [record.space for record in records]
    doc = Doc(vocab, words=[record.text for record in records], spaces=list(spaces))
    doc.has_unknown_spaces = True
    offsets = _column(doc, IDX)
    set_token_values(doc, "punct", offsets, [record.mark for record in records])
    _set_extras(doc, records, offsets)
    return doc


def _column(doc: Doc, attr: int) -> List[int]:
    """One attribute of every token of the doc, read at once."""
    return doc.to_array(attr).tolist() if len(doc) else []


def _set_extras(doc: Doc, records: Sequence[WordRecord], offsets: Optional[List[int]] = None) -> None:
    """Set the records' custom attributes on the doc's tokens."""
    if not any(record.extra for record in records):
        return
    for offset, record in zip(offsets if offsets is not None else _column(doc, IDX), records):
        if record.extra:
            set_token_extension_values(doc, offset, record.extra)
