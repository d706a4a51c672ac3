"""`spacy-punct distill`: write a teacher pipeline's class probabilities on training docs."""

import itertools
from pathlib import Path
from typing import Iterator, List

import typer
from spacy.tokens import Doc, DocBin

from ..formats.output_files import prepare_output, prepare_output_folder
from ..inference.options import PunctOptions
from ..jobs.inputs import load_punctuator, use_threads
from ..runtime.threads import DEFAULT_THREADS
from ..word_records import read_docbins, write_docbin_parts
from ._util import (
    GPU_HELP,
    STRIDE_HELP,
    THREADS_HELP,
    WINDOW_HELP,
    app,
    fail,
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
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
    gpu_id: int = typer.Option(-1, help=GPU_HELP),
) -> None:
    """Write the teacher's class probabilities on the words of training docs
    (`token._.teacher_probs`), the mean of the teachers' with --ensemble:
    train a student on the output with the punctuator's `distill_weight`
    above 0."""
    from ..pipelines.distillation import teacher_docs

    one_file = output.suffix == ".spacy"
    if one_file:
        prepare_output(output, input)
    else:
        prepare_output_folder(output, input)
    use_threads(threads)
    use_gpu_or_fail(gpu_id)
    teachers = [load_punctuator(name) for name in [teacher, *ensemble]]
    for nlp in teachers:
        PunctOptions(window=window, stride=stride).apply_encoder_options(nlp)
    docs = read_docbins(input, teachers[0].vocab)
    try:  # an input that is not a DocBin fails here, before the progress bar shows
        first = list(itertools.islice(docs, 1))
    except ValueError as e:
        fail(str(e))
    bar = progress_bar(True, unit=" docs")
    n_docs = n_words = 0

    def counted(docs: Iterator[Doc]) -> Iterator[Doc]:
        nonlocal n_docs, n_words
        for doc in docs:
            n_docs += 1
            n_words += len(doc)
            bar.update(1)
            yield doc

    taught = counted(teacher_docs(teachers, itertools.chain(first, docs), lowercase=lowercase, batch_size=batch_size))
    try:
        if one_file:
            DocBin(docs=taught, store_user_data=True).to_disk(output)
            where = str(output)
        else:
            paths = write_docbin_parts(taught, output, tokens_per_file=tokens_per_file)
            where = f"{len(paths)} file(s) in {output}"
    except ValueError as e:
        fail(str(e))
    bar.close()
    typer.echo(f"Wrote {n_docs} docs, {n_words} tokens with the teacher's probabilities to {where}")
