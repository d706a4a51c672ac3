"""`spacy-punct convert`: convert a corpus to a DocBin of punctuated text."""
from pathlib import Path
from typing import Optional

import spacy
import typer
from spacy.tokens import DocBin

from ..convert import CONVERTERS, ConversionError, ConversionStats, ConvertOptions
from ._util import ENCODING_HELP, app, fail, prepare_output


@app.command(short_help="Convert a corpus to a DocBin of punctuated text.")
def convert(
    format: str = typer.Argument(..., help=f"Source format: {', '.join(CONVERTERS)}."),
    input: Path = typer.Argument(..., help="Input file, or a folder of input files.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language (its tokenizer and clitics)."),
    doc_length: int = typer.Option(2000, help="Words per document where the source marks no documents."),
    blocks: bool = typer.Option(False, help="text: one document per blank-line-separated block."),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
) -> None:
    """Convert a corpus to a DocBin of natural punctuated text."""
    if format not in CONVERTERS:
        fail(f"unknown format {format!r}; choose one of {', '.join(CONVERTERS)}.")
    prepare_output(output, input)
    nlp = spacy.blank(lang)
    stats = ConversionStats()
    options = ConvertOptions(doc_length=doc_length, blocks=blocks, encoding=encoding)
    try:
        docs = list(CONVERTERS[format](input, nlp, stats, options))
    except ConversionError as e:
        fail(str(e))
    if not docs:
        fail(f"{input} holds no text to convert.")
    DocBin(docs=docs, store_user_data=True).to_disk(output)  # word timings, where the source has them
    typer.echo(f"Wrote {output}\n{stats.summary()}")
    warning = stats.warning()
    if warning:
        typer.secho(warning, err=True, fg="yellow")
