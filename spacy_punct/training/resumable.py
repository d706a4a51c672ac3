"""Training that outlives one sitting: spaCy's update loop (as
`spacy.training.loop.train_while_improving` runs it) with a checkpoint every
few minutes and on SIGTERM or SIGINT, from which the run goes on as if it
had never stopped. spaCy's own `spacy train` cannot resume a run.

Exactness rests on three things. The weights are saved in float32 and the
optimizer's whole state with them (`checkpoint`). The random states are
not saved but set, from the run's seed and the step, before each batch is
read and before each update, so that step N draws the same numbers in a run
resumed at any step. And the data position is the epoch and the step whose
batch opened it: a resumed run opens that epoch again (its shuffling seeded
by the epoch) and reads its batches up to the step, without updating.

Progress goes to <output>/status.json (rewritten atomically: the step,
words a second, the last evaluation, the best one) and every evaluation to
<output>/curve.jsonl (step, training hours, score), which a run resumed
appends to."""

import hashlib
import json
import os
import random
import shutil
import signal
import sys
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence

from spacy.cli._util import setup_gpu
from spacy.language import Language
from spacy.schemas import ConfigSchemaTraining
from spacy.training import Example
from spacy.training.initialize import init_nlp
from spacy.training.loop import create_before_to_disk_callback, create_evaluation_callback, subdivide_batch, update_meta
from spacy.util import load_config, registry, resolve_dot_names
from thinc.api import Config, fix_random_seed

from .checkpoint import (
    RunState,
    checkpoint_directory,
    config_differences,
    find_checkpoint,
    load_weights,
    parameter_names,
    read_optimizer_arrays,
    read_state,
    restore_optimizer,
    save_checkpoint,
)

STATUS = "status.json"
CURVE = "curve.jsonl"
MODEL_BEST = "model-best"
MODEL_LAST = "model-last"


def derived_seed(seed: int, *parts: Any) -> int:
    """A 32-bit seed that depends on the run's seed and `parts` only."""
    digest = hashlib.sha256(repr((seed, *parts)).encode("utf8")).digest()
    return int.from_bytes(digest[:4], "little")


class BatchStream:
    """The training batches of every epoch in turn, each read under a seed of
    its step: `next_batch(step)` gives the same batch for the same step in
    any process, so long as the steps before it in its epoch were read."""

    def __init__(
        self,
        nlp: Language,
        corpus: Callable[[Language], Iterable[Example]],
        batcher: Callable[[Iterable[Example]], Iterable[List[Example]]],
        max_epochs: int,
        seed: int,
        epoch: int = 0,
        epoch_start: int = 0,
    ) -> None:
        self.nlp, self.corpus, self.batcher, self.max_epochs, self.seed = nlp, corpus, batcher, max_epochs, seed
        self.epoch, self.epoch_start = epoch, epoch_start
        self._listed: Optional[List[Example]] = None
        self._batches = self._open()

    def _open(self) -> Iterator[List[Example]]:
        fix_random_seed(derived_seed(self.seed, "epoch", self.epoch))
        if hasattr(self.corpus, "epoch"):  # the reader's own per-epoch seeding
            setattr(self.corpus, "epoch", self.epoch)
        if self.max_epochs < 0:
            examples: Iterable[Example] = self.corpus(self.nlp)
        else:  # spaCy's loop reads such a corpus once and shuffles it every epoch
            if self._listed is None:
                self._listed = list(self.corpus(self.nlp))
                if not self._listed:
                    raise ValueError("the training corpus holds no examples.")
            shuffled = list(self._listed)
            random.shuffle(shuffled)
            examples = shuffled
        return iter(self.batcher(examples))

    def next_batch(self, step: int) -> List[Example]:
        """The batch of `step`; `StopIteration` after the last epoch."""
        fix_random_seed(derived_seed(self.seed, "data", step))
        while True:
            try:
                return list(next(self._batches))
            except StopIteration:
                if 0 < self.max_epochs <= self.epoch + 1:
                    raise
                self.epoch, self.epoch_start = self.epoch + 1, step
                self._batches = self._open()

    def skip_to(self, step: int) -> None:
        """Read the batches of the steps from the epoch's start to `step`."""
        for past in range(self.epoch_start, step):
            self.next_batch(past)


class StopRequest:
    """Set by SIGTERM or SIGINT while installed: the loop ends after the
    update in progress and writes a checkpoint."""

    def __init__(self) -> None:
        self.signal: Optional[int] = None

    @contextmanager
    def installed(self) -> Iterator["StopRequest"]:
        def handle(signum: int, frame: Any) -> None:
            self.signal = signum

        signals = [signal.SIGTERM, signal.SIGINT]
        before = [signal.signal(s, handle) for s in signals]
        try:
            yield self
        finally:
            for s, handler in zip(signals, before):
                signal.signal(s, handler)


def run_config(config_path: Path, overrides: Dict[str, Any], output: Path, resume: bool) -> Config:
    """The run's config: the one given with its overrides, which must match
    the checkpoint's when resuming (`ValueError` otherwise, naming the
    settings that differ). Without `resume`, `output` must hold no
    checkpoint; with it and none there, the run starts."""
    config = load_config(config_path, overrides=overrides, interpolate=False)
    checkpoint = find_checkpoint(output)
    if resume and checkpoint is not None:
        saved = Config().from_disk(checkpoint / "config.cfg", interpolate=False)
        differences = config_differences(saved, config, saved_directory=checkpoint_directory(checkpoint))
        if differences or set(saved) != set(config):
            named = ", ".join(differences[:5]) or "its layout"
            raise ValueError(
                f"the config differs from the checkpoint's in {named}: resume with the run's own settings."
            )
    elif checkpoint is not None:
        step = read_state(checkpoint)[0].step
        raise ValueError(
            f"{output} holds a checkpoint of a run at step {step}: --resume to go on with it, or another --output."
        )
    return config


def train_resumable(
    config_path: Path,
    output: Path,
    overrides: Optional[Dict[str, Any]] = None,
    *,
    resume: bool = False,
    checkpoint_minutes: float = 10.0,
    max_minutes: float = 0.0,
    max_steps: Optional[int] = None,
    use_gpu: int = -1,
    stdout: IO = sys.stdout,
) -> RunState:
    """Train `config_path` into `output` (model-best at each best evaluation,
    model-last when the run ends by its config's stopping rule), with a
    checkpoint every `checkpoint_minutes`, when this piece has run
    `max_minutes` (0: no limit) or taken `max_steps` more updates, and on
    SIGTERM or SIGINT. With `resume`, go on from the checkpoint in
    `output` where there is one. Returns the run's state; `finished` once the config's
    stopping rule ended it."""
    output = Path(output)
    config = run_config(config_path, dict(overrides or {}), output, resume)
    output.mkdir(parents=True, exist_ok=True)
    if use_gpu >= 0:
        setup_gpu(use_gpu)
    nlp = init_nlp(config, use_gpu=use_gpu)
    resolved = nlp.config.interpolate()
    T = registry.resolve(resolved["training"], schema=ConfigSchemaTraining)
    train_corpus, dev_corpus = resolve_dot_names(resolved, [T["train_corpus"], T["dev_corpus"]])
    optimizer = T["optimizer"]
    seed = T["seed"] if T["seed"] is not None else 0
    state = RunState(seed=seed)
    checkpoint = find_checkpoint(output)
    if resume and checkpoint is not None:
        state, counts, _ = read_state(checkpoint)
        load_weights(nlp, checkpoint)
        restore_optimizer(optimizer, parameter_names(nlp), read_optimizer_arrays(checkpoint), counts, state.step)
        print(f"Resuming the run at step {state.step} (epoch {state.epoch}).", file=sys.stderr)
    if state.finished:
        print("The run had already ended by its config's stopping rule.", file=sys.stderr)
        return state
    state.pieces += 1
    evaluate = create_evaluation_callback(nlp, dev_corpus, T["score_weights"])
    before_to_disk = create_before_to_disk_callback(T["before_to_disk"])
    stream = BatchStream(nlp, train_corpus, T["batcher"], T["max_epochs"], seed, state.epoch, state.epoch_start)
    stream.skip_to(state.step)
    frozen, annotating = T["frozen_components"], T["annotating_components"]
    with nlp.select_pipes(disable=frozen):
        log_step, finalize_logger = T["logger"](nlp, stdout, sys.stderr)
    status = StatusWriter(output / STATUS, state)
    started, piece_words, first_step = time.monotonic(), 0, state.step
    last_checkpoint = started
    stop = StopRequest()
    reason = "finished"
    try:
        with stop.installed():
            while True:
                try:
                    batch = stream.next_batch(state.step)
                except StopIteration:
                    state.finished = True
                    break
                state.epoch, state.epoch_start = stream.epoch, stream.epoch_start
                step_started = time.monotonic()
                _update(nlp, optimizer, batch, T, state, frozen, annotating)
                words = sum(len(eg) for eg in batch)
                state.words += words
                piece_words += words
                state.seconds += time.monotonic() - step_started
                info = _info(state)
                if state.step % T["eval_frequency"] == 0:
                    is_best = _evaluate(nlp, optimizer, evaluate, state, info)
                    with nlp.select_pipes(disable=frozen):
                        update_meta(T, nlp, info)
                    if is_best:
                        _save_pipeline(before_to_disk(nlp), output / MODEL_BEST)
                    _append_curve(output / CURVE, state)
                    log_step(info)
                    state.losses = {}
                else:
                    log_step(None)
                state.step += 1
                if _stopping_rule(state, T):
                    state.finished = True
                    break
                now = time.monotonic()
                rate = piece_words / max(now - started, 1e-9)
                status.update("running", rate)
                if stop.signal is not None:
                    reason = f"signal {signal.Signals(stop.signal).name}"
                    break
                if max_minutes and now - started >= 60 * max_minutes:
                    reason = f"time limit of {max_minutes:g} minutes"
                    break
                if max_steps and state.step - first_step >= max_steps:
                    reason = f"{max_steps} steps"
                    break
                if checkpoint_minutes and now - last_checkpoint >= 60 * checkpoint_minutes:
                    save_checkpoint(output, nlp, optimizer, state, config)
                    status.checkpointed(rate)
                    last_checkpoint = time.monotonic()
    finally:
        finalize_logger()
    rate = piece_words / max(time.monotonic() - started, 1e-9)
    save_checkpoint(output, nlp, optimizer, state, config)
    if state.finished:
        _save_pipeline(before_to_disk(nlp), output / MODEL_LAST)
        print(f"The run ended by its config's stopping rule at step {state.step}.", file=sys.stderr)
    else:
        print(f"Stopped at step {state.step} ({reason}); --resume goes on from the checkpoint.", file=sys.stderr)
    status.checkpointed(rate, "finished" if state.finished else "stopped")
    return state


def _update(
    nlp: Language,
    optimizer: Any,
    batch: List[Example],
    T: Dict[str, Any],
    state: RunState,
    frozen: Sequence[str],
    annotating: Sequence[str],
) -> None:
    """One update, as spaCy's loop makes it, under the step's own seed."""
    if T["before_update"]:
        T["before_update"](nlp, {"step": state.step, "epoch": state.epoch})
    fix_random_seed(derived_seed(state.seed, "update", state.step))
    dropout = T["dropout"]
    for subbatch in subdivide_batch(batch, T["accumulate_gradient"]):
        nlp.update(subbatch, drop=dropout, losses=state.losses, sgd=False, exclude=frozen, annotates=annotating)  # type: ignore[arg-type]
    for name, proc in nlp.pipeline:
        if (
            name not in frozen
            and getattr(proc, "is_trainable", False)
            and getattr(proc, "model", None) not in (True, False, None)
        ):
            proc.finish_update(optimizer)  # type: ignore[attr-defined]
    optimizer.step_schedules()


def _info(state: RunState) -> Dict[str, Any]:
    """What spaCy's loop tells its logger after an update."""
    return {
        "epoch": state.epoch,
        "step": state.step,
        "score": None,
        "other_scores": None,
        "losses": state.losses,
        "checkpoints": state.results,
        "seconds": int(state.seconds),
        "words": state.words,
    }


def _evaluate(nlp: Language, optimizer: Any, evaluate: Callable, state: RunState, info: Dict[str, Any]) -> bool:
    if optimizer.averages:
        with nlp.use_params(optimizer.averages):
            score, scores = evaluate()
    else:
        score, scores = evaluate()
    state.results.append((score, state.step))
    state.last_scores = _flat_scores(scores)
    info.update(score=score, other_scores=scores, checkpoints=state.results)
    return score == max(state.results)[0]


def _flat_scores(scores: Dict[str, Any]) -> Dict[str, float]:
    """The numbers among an evaluation's scores, a class's F1 among them
    (`punct_per_type` -> `punct_f_QUESTION`), for the status and the curve."""
    flat = {key: value for key, value in scores.items() if isinstance(value, (int, float))}
    for key, per_type in scores.items():
        if key.endswith("_per_type") and isinstance(per_type, dict):
            prefix = key[: -len("_per_type")]
            for label, values in per_type.items():
                if isinstance(values, dict) and isinstance(values.get("f"), (int, float)):
                    flat[f"{prefix}_f_{label}"] = values["f"]
    return flat


def _stopping_rule(state: RunState, T: Dict[str, Any]) -> bool:
    """spaCy's: no better evaluation in `patience` steps, or `max_steps` done
    (its loop counts the update of step `max_steps` too)."""
    if T["patience"] and state.results:
        best_step = -max((score, -step) for score, step in state.results)[1]
        if state.step - 1 - best_step >= T["patience"]:
            return True
    return bool(T["max_steps"]) and state.step > T["max_steps"]


def _save_pipeline(nlp: Language, path: Path) -> None:
    """Save `nlp` to `path`, replacing what was there only once it is written."""
    partial = path.with_name(path.name + ".partial")
    if partial.exists():
        shutil.rmtree(partial)
    nlp.to_disk(partial)
    if path.exists():
        shutil.rmtree(path)
    partial.rename(path)


def _append_curve(path: Path, state: RunState) -> None:
    score, step = state.results[-1]
    record = {"step": step, "hours": round(state.seconds / 3600, 4), "words": state.words, "score": score}
    record.update(state.last_scores)
    with open(path, "a", encoding="utf8") as file:
        file.write(json.dumps(record) + "\n")


class StatusWriter:
    """<output>/status.json, rewritten atomically at most every few seconds."""

    def __init__(self, path: Path, state: RunState) -> None:
        self.path, self.state = path, state
        self.checkpoint: Optional[Dict[str, Any]] = None
        self.written = 0.0

    def update(self, condition: str, words_per_second: float, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.written < 10:
            return
        self.written = now
        state = self.state
        best = max(state.results) if state.results else None
        last = state.results[-1] if state.results else None
        document = {
            "state": condition,
            "pid": os.getpid(),
            "updated": _now(),
            "step": state.step,
            "epoch": state.epoch,
            "words": state.words,
            "words_per_second": round(words_per_second, 1),
            "training_hours": round(state.seconds / 3600, 3),
            "pieces": state.pieces,
            "last_evaluation": None if last is None else {"step": last[1], "score": last[0], **state.last_scores},
            "best_evaluation": None if best is None else {"step": best[1], "score": best[0]},
            "checkpoint": self.checkpoint,
        }
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(document, indent=2) + "\n", encoding="utf8")
        partial.replace(self.path)

    def checkpointed(self, words_per_second: float, condition: str = "running") -> None:
        self.checkpoint = {"step": self.state.step, "written": _now()}
        self.update(condition, words_per_second, force=True)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
