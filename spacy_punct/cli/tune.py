"""`spacy-punct tune`: tune decision thresholds, margins and the end threshold on dev data."""

from pathlib import Path

import typer

from ..jobs.inputs import load_punctuator, use_threads
from ..pipelines.loading import find_punctuator, load_pipeline
from ..runtime.threads import DEFAULT_THREADS
from ..training.corpus import PunctCorpus
from ._util import (
    THREADS_HELP,
    app,
    fail,
)


@app.command(short_help="Tune decision thresholds and margins on dev data.")
def tune(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    dev: Path = typer.Argument(..., help="A .spacy dev set (never the test set).", exists=True),
    output: Path = typer.Argument(..., help="A new folder for the pipeline with the tuned settings."),
    max_length: int = typer.Option(0, help="Cut documents into chunks of this many words (0: whole documents)."),
    thresholds: bool = typer.Option(True, help="Tune per-class probability thresholds."),
    margins: bool = typer.Option(True, help="Tune per-class margins (Cai & Wang)."),
    end_threshold: bool = typer.Option(
        False, help="Tune the end threshold too: the sentence end decided first (the thresholds then read shares)."
    ),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Tune per-class decision thresholds and margins on dev data for the best
    micro F1, and save a copy of the pipeline that uses them."""
    from ..evaluation.tuning import collect_probs, tune_decisions

    if not (thresholds or margins):
        fail("nothing to tune: --no-thresholds and --no-margins.")
    if output.exists():
        fail(f"{output} exists: choose a new folder (nothing was written).")
    output.parent.mkdir(parents=True, exist_ok=True)
    use_threads(threads)
    nlp = load_punctuator(model)
    name, pipe = find_punctuator(nlp)
    try:
        examples = list(PunctCorpus(dev, max_length=max_length)(nlp))
    except ValueError as e:
        fail(str(e))
    probs, gold = collect_probs(nlp, examples)
    chosen_thresholds, chosen_margins, chosen_end, before, after = tune_decisions(
        probs, gold, pipe.label_set, thresholds=thresholds, margins=margins, end_threshold=end_threshold
    )
    end = f", end threshold {chosen_end}" if end_threshold else ""
    typer.echo(
        f"dev micro F1 {100 * before:.1f} -> {100 * after:.1f} with thresholds "
        f"{chosen_thresholds} and margins {chosen_margins}{end}"
    )
    settings = {"thresholds": chosen_thresholds, "margins": chosen_margins, "end_threshold": chosen_end}
    load_pipeline(model, config={"components": {name: settings}}, threads=None).to_disk(output)
    typer.echo(f"Saved {output}")
