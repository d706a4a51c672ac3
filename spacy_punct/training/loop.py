"""Training with a time limit: spaCy's own loop, stopped after a number of
minutes, and the weights of its last steps evaluated once more."""
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Tuple

import spacy
from thinc.api import ConfigValidationError
from spacy.cli.train import train as spacy_train
from spacy.language import Language
from spacy.schemas import ConfigSchemaTraining
from spacy.training.loop import create_evaluation_callback, update_meta
from spacy.util import load_config, registry, resolve_dot_names


class TrainingTimeUp(SystemExit):
    """Raised by the time-limit callback to end training. A `SystemExit`
    with status 0: spaCy's loop lets it through its `except Exception` and
    saves model-last in its `finally`, so a plain `spacy train` with the
    callback ends cleanly; `spacy-punct train` catches it and evaluates
    model-last once more."""

    def __init__(self, message: str) -> None:
        super().__init__(0)
        self.message = message

    def __str__(self) -> str:
        return self.message


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
            message = f"time limit of {minutes:g} minutes reached at step {info['step']}"
            print(f"Training stops: {message}; model-last is saved.", file=sys.stderr)
            raise TrainingTimeUp(message)

    return before_update


LOG_NAME = "log.jsonl"


def _logs_to_file(training: Dict[str, Any]) -> bool:
    """Whether the config's logger is spaCy's console logger that can also
    write a JSONL file."""
    return training.get("logger", {}).get("@loggers") == "spacy.ConsoleLogger.v3"


def _schedule_without_minutes(training: Dict[str, Any]) -> bool:
    """Whether the learning rate follows `spacy_punct.warmup_linear_within.v1`
    with no minutes of its own."""
    learn_rate = training.get("optimizer", {}).get("learn_rate")
    return (
        isinstance(learn_rate, dict)
        and learn_rate.get("@schedules") == "spacy_punct.warmup_linear_within.v1"
        and not learn_rate.get("minutes")
    )


# confection's advice before every reason a config cannot be read
_CONFIG_HINT = "Make sure the sections and values are formatted correctly."
# what `spacy train` reads from the config before it fills in its defaults
_REQUIRED_SECTIONS = ("nlp", "components", "corpora", "training")


def check_config(config_path: Path, overrides: Optional[Dict[str, Any]] = None) -> None:
    """Raise `ValueError` with a one-line reason where `spacy train` would
    stop on the config before training (and after creating its output
    folder): it cannot be read, lacks a section spaCy reads as written, or a
    corpus it reads from a path has none or a missing one, or a transformer
    names a local folder that is missing (naming the setting)."""
    try:
        raw = load_config(config_path, overrides=dict(overrides or {}), interpolate=False)
        config = raw.interpolate()
    except ConfigValidationError as e:
        reason = " ".join((e.desc or e.title or "").replace(_CONFIG_HINT, "").split())
        raise ValueError(f"{config_path} is not a valid config: {reason}") from None
    missing = [f"[{name}]" for name in _REQUIRED_SECTIONS if name not in raw]
    if "training" in raw and "gpu_allocator" not in raw["training"]:
        missing.append("gpu_allocator in [training]")
    if missing:
        raise ValueError(f"{config_path} lacks {', '.join(missing)}: complete it with "
                         f"`python -m spacy init fill-config {config_path} <completed.cfg>`.")
    for name, corpus in config.get("corpora", {}).items():
        if not isinstance(corpus, dict) or "path" not in corpus:
            continue
        path, written = corpus["path"], raw["corpora"][name]["path"]
        # the setting a user gives: --paths.train for path = ${paths.train}
        setting = written[2:-1] if isinstance(written, str) and written.startswith("${") else f"corpora.{name}.path"
        if path is None:
            raise ValueError(f"--{setting} is not set: give the {name} corpus (a .spacy file or a folder of them).")
        if not Path(path).exists():
            raise ValueError(f"--{setting} {path} does not exist: give the {name} corpus (a .spacy file or a folder of them).")
    for name, component in config.get("components", {}).items():
        model = component.get("model") if isinstance(component, dict) else None
        if isinstance(model, dict) and "TransformerModel" in str(model.get("@architectures", "")):
            _check_transformer_name(f"components.{name}.model.name", model.get("name"))


# a Hugging Face model id: "name" or "namespace/name"
_HUB_ID = re.compile(r"^[\w.-]+(/[\w.-]+)?$")


def _check_transformer_name(setting: str, name: Any) -> None:
    """Raise `ValueError` where a transformer's model name can only mean a
    local folder (a path no Hugging Face id could be, or one inside a folder
    that exists here) and that folder is missing: transformers would try the
    Hugging Face hub for it, retrying for half a minute offline."""
    if not isinstance(name, str) or not name or Path(name).is_dir():
        return
    first = Path(name).parts[0]
    if not _HUB_ID.match(name) or name.startswith(".") or (first != name and Path(first).is_dir()):
        raise ValueError(f"--{setting} {name} is not a folder here: build the encoder folder it names "
                         f"(the project's encoder steps) or give a Hugging Face model id.")


@dataclass
class TrainingEnd:
    """How training ended: `time_up` when the time limit stopped it, and then
    `final`, the dev scores of model-best and model-last and which of them
    model-best now is (see `keep_the_better_last`)."""

    time_up: bool
    final: Optional[Dict[str, Any]] = None


def train_for(
    config_path: Path,
    output_path: Path,
    max_minutes: float = 0,
    use_gpu: int = -1,
    overrides: Optional[Dict[str, Any]] = None,
) -> TrainingEnd:
    """Run `spacy train`, stopping after `max_minutes` (0: no limit). spaCy
    saves `model-last` when the loop ends and `model-best` at every best
    evaluation; with `spacy.ConsoleLogger.v3` the evaluations are also written
    to <output_path>/log.jsonl. A `spacy_punct.warmup_linear_within.v1`
    learning rate without minutes of its own declines to zero by the time
    limit, so the steps after the last evaluation are the ones at the lowest
    rate: when the time limit ends training, model-last is evaluated too and
    becomes model-best if it scores higher."""
    overrides = dict(overrides or {})
    # spaCy fills a section the config leaves out with its defaults
    training = load_config(config_path, overrides=overrides, interpolate=False).get("training", {})
    if _logs_to_file(training):
        log_path = Path(output_path) / LOG_NAME
        log_path.unlink(missing_ok=True)
        overrides.setdefault("training.logger.output_file", str(log_path))
    if max_minutes > 0:
        if _schedule_without_minutes(training):
            overrides["training.optimizer.learn_rate.minutes"] = max_minutes
        overrides["training.before_update"] = {
            "@callbacks": "spacy_punct.time_limit.v1",
            "minutes": max_minutes,
        }
    try:
        spacy_train(config_path, output_path, use_gpu=use_gpu, overrides=overrides)
    except TrainingTimeUp:
        return TrainingEnd(time_up=True, final=keep_the_better_last(Path(output_path)))
    return TrainingEnd(time_up=False)


def keep_the_better_last(output_path: Path) -> Optional[Dict[str, Any]]:
    """Score <output_path>/model-best and model-last on the dev corpus of
    their config, as spaCy's loop scores its evaluations; where model-last
    scores higher, it is saved as model-best, with its scores in the meta as
    spaCy writes them. Returns both scores and which one model-best is, or
    None where either pipeline is missing."""
    paths = {name: output_path / name for name in ("model-best", "model-last")}
    if not all((path / "meta.json").exists() for path in paths.values()):
        return None
    evaluated = {name: _evaluate_saved(path) for name, path in paths.items()}
    (_, _, best_score, _), (nlp, training, last_score, last_scores) = evaluated["model-best"], evaluated["model-last"]
    kept = "model-best"
    if last_score > best_score:
        update_meta(training, nlp, {"other_scores": last_scores, "losses": {}})
        nlp.to_disk(paths["model-best"])
        kept = "model-last"
    return {"model-best": best_score, "model-last": last_score, "kept": kept}


def _evaluate_saved(path: Path) -> Tuple[Language, Dict[str, Any], float, Dict[str, Any]]:
    """A saved pipeline, its resolved training settings, and its weighted
    score and scores on its config's dev corpus, as spaCy's loop computes them."""
    nlp = spacy.load(path)
    config = nlp.config.interpolate()
    training = registry.resolve(config["training"], schema=ConfigSchemaTraining)
    (dev_corpus,) = resolve_dot_names(config, [training["dev_corpus"]])
    score, scores = create_evaluation_callback(nlp, dev_corpus, training["score_weights"])()
    return nlp, training, score, scores
