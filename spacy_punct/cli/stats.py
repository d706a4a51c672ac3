"""`spacy-punct stats`: count documents, words and labels of a DocBin."""

from collections import Counter
from pathlib import Path

import typer

from ..labels import EMPTY, MARK_LABELS
from ..training.corpus import PunctCorpus
from ._util import app, blank_pipeline, fail


@app.command(short_help="Count documents, words and labels of a DocBin.")
def stats(
    data: Path = typer.Argument(..., help="A .spacy file or a folder of them.", exists=True),
    lang: str = typer.Option("en", help="Language of the texts."),
) -> None:
    """Count documents, words and labels as the training reader reads them."""
    nlp = blank_pipeline(lang)
    counts: Counter = Counter()
    n_docs = 0
    try:
        for example in PunctCorpus(data, max_length=0, lowercase=False)(nlp):
            n_docs += 1
            counts.update(MARK_LABELS.get(t._.punct, EMPTY) for t in example.reference)
    except ValueError as e:
        fail(str(e))
    typer.echo(f"documents: {n_docs}\nwords: {sum(counts.values())}")
    for label, n in sorted(counts.items()):
        typer.echo(f"{label}: {n}")
