"""A training run's checkpoint: everything a run needs to go on exactly where
it stopped, written atomically into one folder.

    <output>/checkpoint/
        config.cfg      the run's config, overrides applied
        model/          the pipeline, its encoder weights in float32
        optimizer.npz   the optimizer's moments and averages
        state.json      the step, the data position, the scores so far and
                        the optimizer's update counts

The optimizer (thinc's) keys its state by the id of a model node or PyTorch
shim, which a new process numbers afresh; the checkpoint names each
parameter by its component and its place in that component's model instead.
The random states need no saving: the loop seeds them from the run's seed and
the step before each batch and each update (see `resumable`)."""

import contextlib
import hashlib
import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy
from spacy.language import Language
from thinc.api import Config, Model, Optimizer, get_current_ops
from thinc.backends import get_array_ops

CHECKPOINT = "checkpoint"
_PARTIAL = "checkpoint.partial"
_PREVIOUS = "checkpoint.previous"

# the optimizer's key for one parameter: (model node or shim id, parameter name)
Key = Tuple[int, str]


@dataclass
class RunState:
    """Where a run stands: updates done, the data position (the epoch and the
    step whose batch opened it), words read, training hours over every piece,
    and the evaluations so far."""

    seed: int
    step: int = 0
    epoch: int = 0
    epoch_start: int = 0
    words: int = 0
    seconds: float = 0.0
    pieces: int = 0
    results: List[Tuple[float, int]] = field(default_factory=list)
    losses: Dict[str, float] = field(default_factory=dict)
    last_scores: Dict[str, Any] = field(default_factory=dict)
    finished: bool = False

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "RunState":
        data = dict(data)
        data["results"] = [tuple(result) for result in data.get("results", [])]
        return cls(**data)


def parameter_names(nlp: Language) -> Dict[Key, str]:
    """Every trainable parameter's optimizer key in `nlp`, with a name that
    is the same in any process that builds the same pipeline:
    `component/node index/parameter` or `component/node index/shim index/parameter`."""
    names: Dict[Key, str] = {}
    for component, model in _models(nlp):
        for i, node in enumerate(model.walk()):
            for param in node.param_names:
                names.setdefault((node.id, param), f"{component}/{i}/{param}")
            for j, shim in enumerate(node.shims):
                torch_model = getattr(shim, "_model", None)
                for param, _ in getattr(torch_model, "named_parameters", lambda: [])():
                    names.setdefault((shim.id, param), f"{component}/{i}/{j}/{param}")
    return names


def optimizer_state(optimizer: Optimizer, names: Dict[Key, str]) -> Tuple[Dict[str, numpy.ndarray], Dict[str, Any]]:
    """The optimizer's arrays (moments, averages) by stable name, and its
    update counts; raises `ValueError` for a key no parameter of the
    pipeline has."""
    arrays: Dict[str, numpy.ndarray] = {}
    for kind in ("mom1", "mom2", "averages"):
        for key, value in (getattr(optimizer, kind) or {}).items():
            arrays[f"{kind}:{_name(names, key)}"] = get_array_ops(value).to_numpy(value)  # from a GPU too
    counts = {
        kind: {_name(names, key): n for key, n in getattr(optimizer, kind).items()}
        for kind in ("nr_update", "last_seen")
    }
    return arrays, counts


def restore_optimizer(
    optimizer: Optimizer, names: Dict[Key, str], arrays: Dict[str, numpy.ndarray], counts: Dict[str, Any], steps: int
) -> None:
    """Put a saved state into `optimizer`, a new one made from the same
    config: its schedules are advanced `steps` times (they are iterators of
    the step), its arrays and counts keyed by this process's ids."""
    keys = {name: key for key, name in names.items()}
    for _ in range(steps):
        optimizer.step_schedules()
    for stored, value in arrays.items():
        kind, name = stored.split(":", 1)
        target = getattr(optimizer, kind)
        if target is None:
            raise ValueError(f"the checkpoint holds {kind}, which this run's optimizer does not keep.")
        target[_key(keys, name)] = get_current_ops().asarray(numpy.array(value, dtype=value.dtype))  # type: ignore[arg-type]
    for kind in ("nr_update", "last_seen"):
        counter = getattr(optimizer, kind)
        counter.clear()
        for name, n in counts[kind].items():
            counter[_key(keys, name)] = n


def _name(names: Dict[Key, str], key: Key) -> str:
    if key not in names:
        raise ValueError(f"the optimizer holds a parameter of no component: {key}.")
    return names[key]


def _key(keys: Dict[str, Key], name: str) -> Key:
    if name not in keys:
        raise ValueError(f"the checkpoint's parameter {name} is not in this pipeline: was its config changed?")
    return keys[name]


@contextlib.contextmanager
def exact_weights(nlp: Language) -> Iterator[None]:
    """Save the encoders' weights as float32 for the time being, whatever
    storage the config names (int8 would not resume the same run)."""
    shims: List[Any] = [shim for _, model in _models(nlp) for node in model.walk() for shim in node.shims]
    shims = [shim for shim in shims if hasattr(shim, "weights_storage")]  # layers.stored_weights' shims
    stored = [shim.weights_storage for shim in shims]
    try:
        for shim in shims:
            shim.weights_storage = "float32"
        yield
    finally:
        for shim, storage in zip(shims, stored):
            shim.weights_storage = storage


def trainable_flags(nlp: Language) -> Dict[str, bool]:
    """Whether each PyTorch parameter trains, by stable name: loading
    weights builds the encoders anew, losing what a recipe froze."""
    return {name: tensor.requires_grad for name, tensor in _torch_parameters(nlp)}


def load_weights(nlp: Language, checkpoint: Path) -> None:
    """Read the checkpoint's pipeline into `nlp`, keeping which of its
    parameters train."""
    flags = trainable_flags(nlp)
    nlp.from_disk(checkpoint / "model")
    for name, tensor in _torch_parameters(nlp):
        tensor.requires_grad_(flags.get(name, tensor.requires_grad))


def _models(nlp: Language) -> Iterator[Tuple[str, Model]]:
    """Each component's model, with the component's name."""
    for component, proc in nlp.pipeline:
        model = getattr(proc, "model", None)
        if isinstance(model, Model):
            yield component, model


def _torch_parameters(nlp: Language) -> Iterator[Tuple[str, Any]]:
    """The PyTorch parameters of the pipeline's shims, by stable name."""
    for component, model in _models(nlp):
        for i, node in enumerate(model.walk()):
            for j, shim in enumerate(node.shims):
                for param, tensor in getattr(getattr(shim, "_model", None), "named_parameters", lambda: [])():
                    yield f"{component}/{i}/{j}/{param}", tensor


def save_checkpoint(output: Path, nlp: Language, optimizer: Optimizer, state: RunState, config: Config) -> None:
    """Write the checkpoint into <output>/checkpoint, replacing the last one
    only once the new one is complete."""
    partial, current, previous = output / _PARTIAL, output / CHECKPOINT, output / _PREVIOUS
    if partial.exists():
        shutil.rmtree(partial)
    partial.mkdir(parents=True)
    with exact_weights(nlp):
        nlp.to_disk(partial / "model")
    arrays, counts = optimizer_state(optimizer, parameter_names(nlp))
    with open(partial / "optimizer.npz", "wb") as file:
        numpy.savez(file, **arrays)  # type: ignore[arg-type]
    config.to_disk(partial / "config.cfg")
    # the config's relative paths are read from here (see `config_differences`)
    directory = str(Path.cwd())
    document = {"state": asdict(state), "optimizer": counts, "config_hash": config_hash(config), "directory": directory}
    (partial / "state.json").write_text(json.dumps(document) + "\n", encoding="utf8")
    if current.exists():
        if previous.exists():
            shutil.rmtree(previous)
        current.rename(previous)
    partial.rename(current)
    if previous.exists():
        shutil.rmtree(previous)


def find_checkpoint(output: Path) -> Optional[Path]:
    """The complete checkpoint in `output`: the last one written, or the one
    before where a stop came between the two renames."""
    for name in (CHECKPOINT, _PREVIOUS):
        if (output / name / "state.json").exists():
            return output / name
    return None


def read_state(checkpoint: Path) -> Tuple[RunState, Dict[str, Any], str]:
    """A checkpoint's run state, the optimizer's counts and the hash of its config."""
    document = json.loads((checkpoint / "state.json").read_text(encoding="utf8"))
    return RunState.from_json(document["state"]), document["optimizer"], document["config_hash"]


def read_optimizer_arrays(checkpoint: Path) -> Dict[str, numpy.ndarray]:
    with numpy.load(checkpoint / "optimizer.npz") as stored:
        return {name: stored[name] for name in stored.files}


def config_hash(config: Config) -> str:
    return hashlib.sha256(config.to_str().encode("utf8")).hexdigest()


def config_differences(
    saved: Config, given: Config, prefix: str = "", saved_directory: Optional[Path] = None
) -> List[str]:
    """The dotted settings whose values differ between two configs; two
    paths to one file or folder do not differ (`corpus/en/train` read from
    the repository, where the saved config's relative paths are read from
    `saved_directory`, and `../../corpus/en/train` from a project's folder)."""
    differences: List[str] = []
    for key in sorted(set(saved) | set(given)):
        a, b = saved.get(key), given.get(key)
        name = f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(b, dict):
            differences.extend(config_differences(Config(a), Config(b), f"{name}.", saved_directory))
        elif a != b and not _same_path(a, b, saved_directory):
            differences.append(name)
    return differences


def checkpoint_directory(checkpoint: Path) -> Optional[Path]:
    """The working directory the checkpoint's config was read from (None: not recorded)."""
    document = json.loads((checkpoint / "state.json").read_text(encoding="utf8"))
    return Path(document["directory"]) if document.get("directory") else None


def _same_path(a: Any, b: Any, saved_directory: Optional[Path]) -> bool:
    if not (isinstance(a, str) and isinstance(b, str) and a and b):
        return False
    first = Path(a) if saved_directory is None else saved_directory / a  # an absolute `a` stays as it is
    try:
        return first.exists() and Path(b).exists() and first.samefile(b)
    except OSError:
        return False
