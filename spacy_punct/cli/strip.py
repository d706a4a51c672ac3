"""`spacy-punct strip`: write the gold form of a test set."""

from pathlib import Path

import typer
from spacy.tokens import DocBin

from ..formats.output_files import prepare_docbin_output
from ..word_records import read_docbins, strip_docs
from ._util import (
    app,
    blank_pipeline,
    fail,
)


@app.command(short_help="Write the gold form of a test set.")
def strip(
    input: Path = typer.Argument(..., help="A .spacy file of punctuated text, or a folder of them.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language of the texts."),
    cased: bool = typer.Option(False, "--cased", help="Keep the case of the words."),
) -> None:
    """Write the gold form of a test set: bare words with their gold marks in
    `token._.punct`, the form that `spacy evaluate` reads."""
    vocab = blank_pipeline(lang).vocab
    prepare_docbin_output(output, input)
    try:
        docs = list(strip_docs(read_docbins(input, vocab), lowercase=not cased))
    except ValueError as e:
        fail(str(e))
    DocBin(docs=docs, store_user_data=True).to_disk(output)
    n_words = sum(len(doc) for doc in docs)
    typer.echo(f"Wrote {len(docs)} docs, {n_words} words to {output}")


if __name__ == "__main__":
    app()
