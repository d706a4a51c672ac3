"""`spacy-punct train`: train a pipeline: spacy train with a time limit."""

import json
import time
from pathlib import Path
from typing import Any, Dict

import typer

from ..jobs.inputs import use_threads
from ..runtime.threads import DEFAULT_THREADS
from ._util import (
    THREADS_HELP,
    app,
    fail,
)


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
    checkpoint_minutes: float = typer.Option(
        0,
        help="Train resumably: write a checkpoint of the whole run (weights, optimizer, schedule, data position) "
        "every this many minutes and on SIGTERM/SIGINT, and progress to OUTPUT/status.json (0: spaCy's own loop, "
        "which cannot resume).",
    ),
    resume: bool = typer.Option(
        False,
        "--resume",
        help="Go on with the run whose checkpoint is in OUTPUT, exactly where it stopped (where OUTPUT holds none, start it).",
    ),
) -> None:
    """`spacy train` with a time limit, or a resumable run (--checkpoint-minutes,
    --resume). Further options override the config, as with spacy train (e.g.
    --paths.train corpus/train.spacy)."""
    from spacy.cli._util import parse_config_overrides

    from ..training.loop import check_config, train_for
    from ..training.warm_start import WarmStartError

    use_threads(threads)
    overrides = parse_config_overrides(ctx.args)
    try:
        check_config(config, overrides)
    except ValueError as e:
        fail(f"{e} Nothing was written.")
    if resume or checkpoint_minutes > 0:
        _train_resumable(config, output, overrides, max_minutes, checkpoint_minutes or 10.0, resume, gpu_id)
        return
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


def _train_resumable(
    config: Path,
    output: Path,
    overrides: Dict[str, Any],
    max_minutes: float,
    checkpoint_minutes: float,
    resume: bool,
    gpu_id: int,
) -> None:
    from ..training.resumable import train_resumable
    from ..training.warm_start import WarmStartError

    try:
        state = train_resumable(
            config,
            output,
            overrides,
            resume=resume,
            checkpoint_minutes=checkpoint_minutes,
            max_minutes=max_minutes,
            use_gpu=gpu_id,
        )
    except (ValueError, WarmStartError) as e:
        fail(str(e))
    ended = "ended by its stopping rule" if state.finished else "stopped; --resume goes on"
    typer.echo(
        f"Run at step {state.step} after {state.seconds / 3600:.2f} training hours in {state.pieces} piece(s) "
        f"({ended}); status in {output / 'status.json'}"
    )
