"""`spacy-punct fit-repair`: teach a pipeline the repair mode."""

import sys
from pathlib import Path
from typing import List

import typer
from tqdm import tqdm

from ..jobs.inputs import load_punctuator, use_threads
from ..pipelines.repair import fit_repair as fit_repair_head
from ..runtime.threads import DEFAULT_THREADS
from ..word_records import read_docbins
from ._util import (
    THREADS_HELP,
    app,
    fail,
)


@app.command("fit-repair", short_help="Teach a pipeline the repair mode (half-punctuated text).")
def fit_repair(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    train: List[Path] = typer.Argument(
        ..., help="Punctuated, cased text: .spacy files or folders of them.", exists=True
    ),
    output: Path = typer.Option(..., "--output", "-o", help="The folder to write the pipeline to (must not exist)."),
    limit: int = typer.Option(0, min=0, help="Documents read from each TRAIN path (0: all)."),
    epochs: int = typer.Option(6, min=1, help="Passes over the damaged text."),
    width: int = typer.Option(64, min=8, help="The repair head's width."),
    seed: int = typer.Option(0, help="Seed of the damage and of the training order."),
    within: float = typer.Option(
        0.0, min=0.0, max=1.0, help="Share of the runs' edges moved into a sentence (marks that vanish mid-sentence)."
    ),
    empty_weight: float = typer.Option(
        1.0,
        min=0.01,
        max=1.0,
        help="Weight of the slots without a mark in the head's class loss (below 1: more marks).",
    ),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Give the punctuator a repair head: the text of TRAIN, runs of its
    sentences stripped of marks and case as recognisers lose them, is read
    by the pipeline, and the head learns from the punctuator's
    probabilities and the marks and case left where the stretches that lost
    them are and what marks they miss (`--repair` then uses it). The
    pipeline's own weights do not change."""
    if output.exists():
        fail(f"{output} exists: choose a new folder (nothing was written).")
    use_threads(threads)
    nlp = load_punctuator(model)
    try:
        docs = [doc for path in train for doc in read_docbins(path, nlp.vocab, limit=limit)]
    except ValueError as e:
        fail(str(e))
    bar = tqdm(desc="reading", unit=" texts", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False)
    try:
        n_words = fit_repair_head(
            nlp,
            docs,
            width=width,
            epochs=epochs,
            seed=seed,
            within=within,
            empty_weight=empty_weight,
            progress=lambda done, total: bar.update(done - bar.n),
            log=lambda line: typer.echo(line, err=True),
        )
    except ValueError as e:
        fail(str(e))
    finally:
        bar.close()
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        nlp.to_disk(output)
    except OSError as e:
        fail(f"could not write {output}: {e.strerror or e}.")
    typer.echo(f"Wrote {output}: a repair head learned from {n_words:,} words of {len(docs)} documents")
