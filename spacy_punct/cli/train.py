"""`spacy-punct train`: train a pipeline: spacy train with a time limit."""

import json
import time
from pathlib import Path
from typing import Any, Dict

import typer

from ..runtime.threads import DEFAULT_THREADS
from ._util import THREADS_HELP, app, fail, set_threads_or_fail


@app.command(
    short_help="Train a pipeline (spacy train with a time limit).",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def train(
    ctx: typer.Context,
    config: Path = typer.Argument(..., help="The training config.", exists=True, dir_okay=False),
    output: Path = typer.Option(..., "--output", "-o", help="Where model-best and model-last go."),
    max_minutes: float = typer.Option(0, help="Stop training after this many minutes (0: as the config says)."),
    gpu_id: int = typer.Option(-1, help="GPU id, or -1 for the CPU."),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """`spacy train` with a time limit. Further options override the config,
    as with spacy train (e.g. --paths.train corpus/train.spacy)."""
    from spacy.cli._util import parse_config_overrides

    from ..training.loop import check_config, train_for
    from ..training.warm_start import WarmStartError

    set_threads_or_fail(threads)
    overrides = parse_config_overrides(ctx.args)
    try:
        check_config(config, overrides)
    except ValueError as e:
        fail(f"{e} Nothing was written.")
    created = not output.exists()
    start = time.perf_counter()
    try:
        end = train_for(config, output, max_minutes, gpu_id, overrides)
    except WarmStartError as e:
        fail(str(e))
    except OSError as e:
        # e.g. a Hugging Face model that is neither here nor reachable
        if created and output.is_dir() and not any(output.iterdir()):
            output.rmdir()
        fail(" ".join(str(e).split()))
    minutes = (time.perf_counter() - start) / 60
    reason = "time limit reached" if end.time_up else "config's stopping rule"
    summary: Dict[str, Any] = {"recipe": config.as_posix(), "minutes": minutes, "ended_by": reason}
    if end.final is not None:
        summary["final_evaluation"] = end.final
        outcome = "saved as model-best" if end.final["kept"] == "model-last" else "model-best kept"
        typer.echo(
            f"model-last scored {end.final['model-last']:.4f} on the dev data against model-best's "
            f"{end.final['model-best']:.4f}: {outcome}"
        )
    (output / "training.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf8")
    typer.echo(f"Training ended after {minutes:.1f} minutes ({reason}); pipelines in {output}")
