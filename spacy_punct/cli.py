"""The `spacy-punct` command line."""
import sys
from pathlib import Path
from typing import Iterator, NoReturn, Optional, TextIO

import spacy
import typer
from spacy.language import Language
from spacy.tokens import DocBin
from tqdm import tqdm

from .corpus import read_docbins, strip_docs

app = typer.Typer(help="Punctuation restoration with spaCy.", no_args_is_help=True)


@app.callback()
def main() -> None:
    """Punctuation restoration with spaCy."""


def fail(message: str) -> NoReturn:
    """Print an error and exit with status 1."""
    typer.secho(f"Error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(1)


def load_punctuating_pipeline(model: str) -> Language:
    """Load a pipeline and check that it has a punctuator."""
    try:
        nlp = spacy.load(model)
    except OSError as e:
        fail(f"cannot load pipeline {model!r}: {e}")
    factories = [nlp.get_pipe_meta(name).factory for name in nlp.pipe_names]
    if "punctuator" not in factories:
        fail(f"pipeline {model!r} has no punctuator component (it has {nlp.pipe_names}).")
    return nlp


def _read_lines(stream: TextIO, progress: bool, total: Optional[int]) -> Iterator[str]:
    lines = tqdm(stream, total=total, unit=" lines", disable=not progress, file=sys.stderr)
    for line in lines:
        yield line.rstrip("\r\n")


@app.command()
def punctuate(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    input: Optional[Path] = typer.Argument(None, help="Text file, one document per line (default: stdin).", exists=True, dir_okay=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Output file (default: stdout)."),
    batch_size: int = typer.Option(64, help="Documents per batch."),
) -> None:
    """Punctuate text, one document per line; empty lines stay empty."""
    nlp = load_punctuating_pipeline(model)
    if input is None:
        source: TextIO = sys.stdin
        total = None
    else:
        with input.open(encoding="utf8", errors="replace", newline="") as counted:
            total = sum(1 for _ in counted)
        source = input.open(encoding="utf8", errors="replace", newline="")
    target = output.open("w", encoding="utf8") if output else sys.stdout
    try:
        texts = _read_lines(source, progress=input is not None, total=total)
        for doc in nlp.pipe(texts, batch_size=batch_size):
            target.write(doc.text + "\n")
    finally:
        if output:
            target.close()
        if input is not None:
            source.close()


@app.command()
def strip(
    input: Path = typer.Argument(..., help="A .spacy file of punctuated text, or a folder of them.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language of the texts."),
    cased: bool = typer.Option(False, "--cased", help="Keep the case of the words."),
) -> None:
    """Write the gold form of a test set: bare words with their gold marks in
    `token._.punct`, the form that `spacy evaluate` reads."""
    vocab = spacy.blank(lang).vocab
    try:
        docs = list(strip_docs(read_docbins(input, vocab), lowercase=not cased))
    except ValueError as e:
        fail(str(e))
    output.parent.mkdir(parents=True, exist_ok=True)
    DocBin(docs=docs, store_user_data=True).to_disk(output)
    n_words = sum(len(doc) for doc in docs)
    typer.echo(f"Wrote {len(docs)} docs, {n_words} words to {output}")


if __name__ == "__main__":
    app()
