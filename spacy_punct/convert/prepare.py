"""A corpus prepared from the language registry's list of its files: each
converted from its asset, guarded against the test sets written before it,
and the dev split held out where the registry says so."""

import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple, TypeVar

import spacy
from spacy.tokens import DocBin

from ..languages import CorpusFile, corpus_files
from . import CONVERTERS
from .common import ConversionError, ConversionStats, ConvertOptions
from .guard import ContaminationGuard

T = TypeVar("T")

DEV_FILE = "dev.spacy"


@dataclass
class PreparedFile:
    """A file written, what its conversion counted, and the documents held out."""

    path: Path
    stats: ConversionStats
    dev: Optional[Path] = None  # where the documents held out went
    n_dev: int = 0


def split_off_dev(docs: Sequence[T], dev_fraction: float) -> Tuple[List[T], List[T]]:
    """The documents but the last share, and that share (at least one each)."""
    if not 0 < dev_fraction < 1:
        raise ValueError(f"the dev fraction must be between 0 and 1, not {dev_fraction}.")
    if len(docs) < 2:
        raise ValueError(f"{len(docs)} document(s): too few to split.")
    n_dev = min(len(docs) - 1, max(1, round(len(docs) * dev_fraction)))
    return list(docs[:-n_dev]), list(docs[-n_dev:])


def prepare_corpus(
    name: str, assets: Path, corpus: Path = Path("corpus"), project: Path = Path(".")
) -> Iterator[PreparedFile]:
    """Write corpus `name` (a language code or a corpus of the registry's
    `CORPORA`) to `corpus/<name>/`, step by step; a step whose asset was not
    fetched is skipped unless the registry requires it."""
    lang, files = corpus_files(name)
    out = corpus / name
    nlp = spacy.blank(lang)
    for file in files:
        source = (project if file.shipped else assets) / file.asset
        if (file.when and not (assets / file.when).exists()) or (file.unless and (assets / file.unless).exists()):
            continue
        if not source.exists():
            if file.required:
                raise ConversionError(f"{source} not found: fetch the assets first (spacy project assets).")
            continue
        guards = sorted({path for pattern in file.guard for path in out.glob(pattern)})
        yield _convert(file, source, out, nlp, guards)


def _convert(file: CorpusFile, source: Path, out: Path, nlp: spacy.Language, guards: List[Path]) -> PreparedFile:
    stats = ConversionStats()
    options = ConvertOptions(
        doc_length=file.doc_length,
        blocks=file.blocks,
        field=file.field,
        glob=file.glob,
        exclude=frozenset(file.exclude),
    )
    with tempfile.TemporaryDirectory() as unzipped:
        if file.unzip:
            for archive in sorted(source.glob("*.zip")):
                with zipfile.ZipFile(archive) as zipped:
                    zipped.extractall(unzipped)
            source = Path(unzipped)
        converted = CONVERTERS[file.format](source, nlp, stats, options)
        if guards:
            converted = ContaminationGuard.from_docbins(guards, nlp.vocab).filter(converted, stats)
        docs = list(converted)
    if not docs:
        raise ConversionError(f"{source} holds no text to convert.")
    path = out / file.output
    path.parent.mkdir(parents=True, exist_ok=True)
    prepared = PreparedFile(path, stats)
    if file.dev_fraction:
        docs, dev = split_off_dev(docs, file.dev_fraction)
        prepared.dev, prepared.n_dev = out / DEV_FILE, len(dev)
        DocBin(docs=dev, store_user_data=True).to_disk(prepared.dev)
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return prepared
