"""`spacy-punct split`: hold out the last documents as a dev set."""

from pathlib import Path

import typer
from spacy.tokens import DocBin

from ..convert.prepare import split_off_dev
from ..formats.output_files import prepare_docbin_output
from ..word_records import read_docbins
from ._util import (
    app,
    blank_pipeline,
    fail,
)


@app.command(short_help="Hold out the last documents as a dev set.")
def split(
    input: Path = typer.Argument(..., help="A .spacy file (or folder) to split.", exists=True),
    train_output: Path = typer.Argument(..., help="The .spacy file for the training part."),
    dev_output: Path = typer.Argument(..., help="The .spacy file for the held-out part."),
    dev_fraction: float = typer.Option(0.1, help="Share of the documents held out (the last ones)."),
    lang: str = typer.Option("en", help="Language of the texts."),
) -> None:
    """Hold out the last documents of a corpus as a dev set."""
    if not 0 < dev_fraction < 1:
        fail(f"--dev-fraction must be between 0 and 1, not {dev_fraction}.")
    if train_output.resolve() == dev_output.resolve():
        fail(f"the training and the held-out part would both be written to {train_output}: name two files.")
    vocab = blank_pipeline(lang).vocab
    prepare_docbin_output(train_output, input)
    prepare_docbin_output(dev_output, input)
    try:
        docs = list(read_docbins(input, vocab))
    except ValueError as e:
        fail(str(e))
    if len(docs) < 2:
        fail(f"{input} has {len(docs)} document(s): too few to split.")
    train_docs, dev_docs = split_off_dev(docs, dev_fraction)
    for path, part in ((train_output, train_docs), (dev_output, dev_docs)):
        DocBin(docs=part, store_user_data=True).to_disk(path)
        typer.echo(f"Wrote {len(part)} docs, {sum(len(d) for d in part)} tokens to {path}")
