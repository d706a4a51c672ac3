"""`spacy-punct benchmark`: time pipelines side by side."""

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from tqdm import tqdm

from ..formats.output_files import prepare_output
from ..jobs.inputs import load_punctuator, use_threads
from ..runtime.threads import DEFAULT_THREADS
from ._util import (
    CPU_PRECISION_HELP,
    ENCODING_HELP,
    THREADS_HELP,
    app,
    fail,
)


@app.command(short_help="Time pipelines side by side: words per second.")
def benchmark(
    data: Path = typer.Argument(
        ...,
        help="A .spacy test set (its bare words cut into lines) or a text file (one document per line).",
        exists=True,
    ),
    models: List[str] = typer.Argument(..., help="Pipeline names or paths, timed side by side."),
    words_per_line: int = typer.Option(40, help="A .spacy test set's words per line (0: whole documents)."),
    batch_size: int = typer.Option(64, min=1, help="Docs per batch of nlp.pipe."),
    rounds: int = typer.Option(3, min=1, help="Time each pipeline this many times, in turn; the best counts."),
    cpu_precision: str = typer.Option("", help=CPU_PRECISION_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
    processes: int = typer.Option(
        1,
        min=1,
        help="Worker processes of nlp.pipe (n_process), one torch thread each; with more than 1, --threads stays 1.",
    ),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the results as JSON here."),
) -> None:
    """Time `nlp.pipe` of one or more pipelines on the same lines, with the
    same batch size and threads, in alternating rounds; print words/s."""
    from ..evaluation.speed import benchmark_lines, compare_speeds, count_words, int8_weight_bits, machine
    from ..layers.transformer import set_cpu_precision
    from ..layers.windows import transformer_names

    if len(set(models)) < len(models):
        fail("a pipeline is named twice: name each once.")
    if processes > 1 and threads != 1:
        fail(f"--processes {processes} runs one torch thread in each process: leave --threads at 1.")
    prepare_output(output, data)
    use_threads(threads)
    pipelines = {model: load_punctuator(model) for model in models}
    if cpu_precision:
        try:
            for nlp in pipelines.values():
                if transformer_names(nlp):
                    set_cpu_precision(nlp, cpu_precision)
        except ValueError as e:
            fail(str(e))
    try:
        lines = benchmark_lines(next(iter(pipelines.values())), data, words_per_line, encoding)
    except (ValueError, OSError) as e:
        fail(str(e))
    n_words = count_words(lines)
    workers = f"{processes} processes of 1 thread" if processes > 1 else f"threads {threads}"
    typer.echo(f"{data}: {len(lines)} lines, {n_words} words; {workers}, batch {batch_size}, best of {rounds}")
    host = machine(set().union(*(int8_weight_bits(nlp) for nlp in pipelines.values())))
    typer.echo(f"CPU: {host['cpu']} ({host['instructions']}); int8 layers' products: {host['int8_products']}")
    bar = tqdm(
        total=rounds * len(models), desc="timings", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False
    )
    try:
        speeds = compare_speeds(
            pipelines, lines, batch_size=batch_size, rounds=rounds, progress=bar.update, n_process=processes
        )
    except ValueError as e:
        fail(str(e))
    finally:
        bar.close()
    first = speeds[models[0]]
    rows = ["| pipeline | words/s | relative |", "|---|---:|---:|"]
    rows += [f"| {model} | {rate:,.0f} | {rate / first:.2f} |" for model, rate in speeds.items()]
    typer.echo("\n".join(rows))
    if output:
        result = {
            "data": str(data),
            "lines": len(lines),
            "words": n_words,
            "threads": threads,
            "processes": processes,
            "batch_size": batch_size,
            "rounds": rounds,
            "machine": host,
            "words_per_second": speeds,
        }
        output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
