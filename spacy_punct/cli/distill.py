"""`spacy-punct distill`: write a teacher pipeline's class probabilities on training docs."""
import sys
from pathlib import Path
from typing import List

import typer
from spacy.tokens import DocBin
from tqdm import tqdm

from ..threads import DEFAULT_THREADS
from ..word_records import read_docbins
from ._util import THREADS_HELP, app, apply_transformer_settings, fail, load_or_fail, prepare_output, set_threads_or_fail


@app.command(short_help="Write a teacher pipeline's class probabilities on training docs.")
def distill(
    teacher: str = typer.Argument(..., help="The teacher: a pipeline name or path with a punctuator."),
    input: Path = typer.Argument(..., help="A .spacy file of punctuated training text, or a folder of them.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    ensemble: List[str] = typer.Option([], help="A further teacher, whose probabilities are averaged with the first's (repeatable)."),
    lowercase: bool = typer.Option(True, help="Show the teacher lower-cased words, as the student's reader does."),
    batch_size: int = typer.Option(8, help="Documents per batch."),
    window: int = typer.Option(0, help="Transformers: tokens per window (0: as configured)."),
    stride: int = typer.Option(0, help="Transformers: tokens between window starts (0: the window); window/stride predictions per token."),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Write the teacher's class probabilities on the words of training docs
    (`token._.teacher_probs`), the mean of the teachers' with --ensemble:
    train a student on the output with the punctuator's `distill_weight`
    above 0."""
    from ..distillation import teacher_docs

    prepare_output(output, input)
    set_threads_or_fail(threads)
    teachers = [load_or_fail(name) for name in [teacher, *ensemble]]
    for nlp in teachers:
        apply_transformer_settings(nlp, window, stride, "")
    bar = tqdm(unit=" docs", file=sys.stderr, disable=not sys.stderr.isatty())
    vocab = teachers[0].vocab
    docs = DocBin(store_user_data=True)
    n_words = 0
    try:
        for doc in teacher_docs(teachers, read_docbins(input, vocab), lowercase=lowercase, batch_size=batch_size):
            docs.add(doc)
            n_words += len(doc)
            bar.update(1)
    except ValueError as e:
        fail(str(e))
    bar.close()
    docs.to_disk(output)
    typer.echo(f"Wrote {len(docs)} docs, {n_words} tokens with the teacher's probabilities to {output}")
