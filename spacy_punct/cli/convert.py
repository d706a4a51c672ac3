"""`spacy-punct convert`: convert a corpus to a DocBin of punctuated text."""

from pathlib import Path
from typing import List, Optional

import typer
from spacy.tokens import DocBin

from ..convert import CONVERTERS, ContaminationGuard, ConversionError, ConversionStats, ConvertOptions
from ..convert.guard import DEFAULT_MAX_SHARE
from ..formats.output_files import prepare_docbin_output
from ._util import (
    ENCODING_HELP,
    app,
    blank_pipeline,
    fail,
)


@app.command(short_help="Convert a corpus to a DocBin of punctuated text.")
def convert(
    format: str = typer.Argument(..., help=f"Source format: {', '.join(CONVERTERS)}."),
    input: Path = typer.Argument(..., help="Input file, or a folder of input files.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language (its tokenizer and clitics)."),
    doc_length: int = typer.Option(2000, help="Words per document where the source marks no documents."),
    blocks: bool = typer.Option(False, help="text: one document per blank-line-separated block."),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
    guard: List[Path] = typer.Option(
        [],
        help="A converted test set (.spacy): drop the documents that share more than --guard-share of their word 8-grams with it (repeatable).",
    ),
    guard_share: float = typer.Option(
        DEFAULT_MAX_SHARE, help="The share of a document's 8-grams found in a test set above which --guard drops it."
    ),
    field: str = typer.Option("text", help="json: the records' field that holds the text (HuSST: Sent)."),
    glob: Optional[str] = typer.Option(
        None,
        help="The files of an input folder to read, as a glob pattern (default: the format's own; lines: all but README and LICENSE files).",
    ),
    exclude: Optional[Path] = typer.Option(
        None,
        help="A file listing files of the input folder to leave out, one path (relative to the folder) a line.",
        exists=True,
        dir_okay=False,
    ),
) -> None:
    """Convert a corpus to a DocBin of natural punctuated text."""
    if format not in CONVERTERS:
        fail(f"unknown format {format!r}; choose one of {', '.join(CONVERTERS)}.")
    nlp = blank_pipeline(lang)
    prepare_docbin_output(output, input)
    stats = ConversionStats()
    excluded = (
        frozenset(line.strip() for line in exclude.read_text(encoding="utf-8").splitlines() if line.strip())
        if exclude
        else frozenset()
    )
    options = ConvertOptions(
        doc_length=doc_length, blocks=blocks, encoding=encoding, exclude=excluded, field=field, glob=glob
    )
    try:
        converted = CONVERTERS[format](input, nlp, stats, options)
        if guard:
            converted = ContaminationGuard.from_docbins(guard, nlp.vocab, guard_share).filter(converted, stats)
        docs = list(converted)
    except ConversionError as e:
        fail(str(e))
    if not docs:
        fail(f"{input} holds no text to convert.")
    DocBin(docs=docs, store_user_data=True).to_disk(output)  # word timings, where the source has them
    typer.echo(f"Wrote {output}\n{stats.summary()}")
    warning = stats.warning()
    if warning:
        typer.secho(warning, err=True, fg="yellow")
