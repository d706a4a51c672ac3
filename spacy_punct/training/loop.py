"""Training with a time limit: spaCy's own loop, stopped after a number of minutes."""
import time
from pathlib import Path
from typing import Any, Callable, Dict, Optional

from spacy.cli.train import train as spacy_train
from spacy.language import Language
from spacy.util import load_config, registry


class TrainingTimeUp(Exception):
    """Raised by the time-limit callback to end training."""


@registry.callbacks("spacy_punct.time_limit.v1")
def create_time_limit(minutes: float) -> Callable[[Language, Dict[str, Any]], None]:
    """A `[training.before_update]` callback that ends training `minutes` after
    the first update (initialization not counted)."""
    deadline: Optional[float] = None

    def before_update(nlp: Language, info: Dict[str, Any]) -> None:
        nonlocal deadline
        now = time.monotonic()
        if deadline is None:
            deadline = now + 60 * minutes
        elif now >= deadline:
            raise TrainingTimeUp(f"time limit of {minutes:g} minutes reached at step {info['step']}")

    return before_update


LOG_NAME = "log.jsonl"


def _logs_to_file(config_path: Path, overrides: Dict[str, Any]) -> bool:
    """Whether the config's logger is spaCy's console logger that can also
    write a JSONL file."""
    logger = load_config(config_path, overrides=overrides, interpolate=False)["training"]["logger"]
    return logger.get("@loggers") == "spacy.ConsoleLogger.v3"


def train_for(
    config_path: Path,
    output_path: Path,
    max_minutes: float = 0,
    use_gpu: int = -1,
    overrides: Optional[Dict[str, Any]] = None,
) -> bool:
    """Run `spacy train`, stopping after `max_minutes` (0: no limit). spaCy
    saves `model-last` when the loop ends and `model-best` at every best
    evaluation; with `spacy.ConsoleLogger.v3` the evaluations are also written
    to <output_path>/log.jsonl. Returns whether the time limit ended training."""
    overrides = dict(overrides or {})
    if _logs_to_file(config_path, overrides):
        log_path = Path(output_path) / LOG_NAME
        log_path.unlink(missing_ok=True)
        overrides.setdefault("training.logger.output_file", str(log_path))
    if max_minutes > 0:
        overrides["training.before_update"] = {
            "@callbacks": "spacy_punct.time_limit.v1",
            "minutes": max_minutes,
        }
    try:
        spacy_train(config_path, output_path, use_gpu=use_gpu, overrides=overrides)
    except TrainingTimeUp:
        return True
    return False
