"""`spacy-punct distill`: write a teacher pipeline's class probabilities on training docs."""

from pathlib import Path
from typing import Any, List

import typer

from ..jobs.distill import DistillJob, run_distill
from ..jobs.inputs import use_threads
from ..runtime.threads import DEFAULT_THREADS
from ._util import (
    GPU_HELP,
    STRIDE_HELP,
    THREADS_HELP,
    WINDOW_HELP,
    app,
    progress_bar,
    use_gpu_or_fail,
)


@app.command(short_help="Write a teacher pipeline's class probabilities on training docs.")
def distill(
    teacher: str = typer.Argument(..., help="The teacher: a pipeline name or path with a punctuator."),
    input: Path = typer.Argument(
        ..., help="A .spacy file of punctuated training text, or a folder of them.", exists=True
    ),
    output: Path = typer.Argument(
        ...,
        help="A folder to write .spacy files of at most --tokens-per-file tokens to (memory stays bounded), or one .spacy file (all docs in memory until written).",
    ),
    ensemble: List[str] = typer.Option(
        [], help="A further teacher, whose probabilities are averaged with the first's (repeatable)."
    ),
    lowercase: bool = typer.Option(True, help="Show the teacher lower-cased words, as the student's reader does."),
    batch_size: int = typer.Option(8, help="Documents per batch."),
    tokens_per_file: int = typer.Option(500_000, min=1, help="A folder output: tokens per .spacy file."),
    window: int = typer.Option(0, min=0, help=WINDOW_HELP),
    stride: int = typer.Option(0, min=0, help=STRIDE_HELP),
    resume: bool = typer.Option(
        False,
        help="A folder output: go on after the parts a stopped run wrote there (the same teacher, input and settings); the folder ends as one run would leave it.",
    ),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
    gpu_id: int = typer.Option(-1, help=GPU_HELP),
) -> None:
    """Write the teacher's class probabilities on the words of training docs
    (`token._.teacher_probs`), the mean of the teachers' with --ensemble:
    train a student on the output with the punctuator's `distill_weight`
    above 0. A folder output keeps its settings in distill.json; --resume
    goes on from a stopped run's parts."""
    use_threads(threads)
    use_gpu_or_fail(gpu_id)
    job = DistillJob(teacher, input, output, ensemble, lowercase, batch_size, tokens_per_file, window, stride, resume)
    bars: List[Any] = []  # shown from the first doc taught: an error before it is one line alone

    def advance() -> None:
        if not bars:
            bars.append(progress_bar(True, unit=" docs"))
        bars[0].update(1)

    done = run_distill(job, advance)
    for bar in bars:
        bar.close()
    if done.kept_docs:
        typer.echo(f"Went on after the {done.kept_docs} docs that a stopped run had taught")
    typer.echo(f"Wrote {done.docs} docs, {done.tokens} tokens with the teacher's probabilities to {done.where}")
