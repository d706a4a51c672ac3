"""Loading a punctuating pipeline (a bundled pipeline's name, a package or a
folder), finding its punctuator, and its class probabilities per token.

Every function raises an exception on bad input (never exits), so a library
user, a worker process and the command line share them.
"""

import os
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, Optional, Tuple, Union

import numpy
import spacy
from spacy.language import Language
from spacy.tokens import Doc
from thinc.api import use_ops

from ..components.punctuator import Punctuator
from ..decode import DecisionSettings
from ..extensions import register_extensions
from ..runtime.collector import freeze_loaded_objects
from ..runtime.factory_imports import named_factories_only
from ..runtime.threads import DEFAULT_THREADS, set_threads
from .bundled import bundled_names, resolve_model

register_extensions()


class PipelineError(ValueError):
    """A pipeline cannot be loaded, or cannot punctuate."""


def find_punctuator(nlp: Language) -> Tuple[str, Punctuator]:
    """The pipeline's punctuator and its name; a one-line error for anything
    else (a pipeline's name not yet loaded, a pipeline without one)."""
    if not isinstance(nlp, Language):
        hint = f": load it first, load_pipeline({str(nlp)!r})" if isinstance(nlp, (str, Path)) else ""
        raise TypeError(f"expected a loaded spaCy pipeline with a punctuator, not {type(nlp).__name__}{hint}.")
    for name, pipe in nlp.pipeline:
        if isinstance(pipe, Punctuator):
            return name, pipe
    raise PipelineError(f"The pipeline has no punctuator component (it has {nlp.pipe_names}).")


def settings_cfg(nlp: Language, settings: Optional[DecisionSettings]) -> Dict[str, Dict[str, Any]]:
    """The `component_cfg` that makes `nlp.pipe` or `nlp(...)` decide under
    `settings` (none: the punctuator's own)."""
    return {} if settings is None else {find_punctuator(nlp)[0]: {"settings": settings}}


def load_pipeline(
    model: Union[str, Path], config: Optional[Dict[str, Any]] = None, *, threads: Optional[int] = DEFAULT_THREADS
) -> Language:
    """Load a pipeline (a bundled pipeline's name such as "en" or
    "en_punct_sm", a package name or a folder) and check that it has a
    punctuator. `config`: overrides, as for `spacy.load`
    (e.g. {"components": {"punctuator": {"keep_existing": True}}}).
    `threads`: torch's threads for this process from now on (see
    `spacy_punct.runtime.threads`): one by default, which stays fast when other
    processes share the cores; None leaves torch's setting as it is."""
    set_threads(threads)
    _check_findable(model)
    try:
        # dense layers through numpy's BLAS: several times faster on CPUs than
        # thinc's default (blis) for the same products
        path = resolve_model(model)
        with use_ops("numpy", use_blis=False), named_factories_only(path, config):
            nlp = spacy.load(path, config=config or {})
    except (OSError, IOError) as e:
        raise PipelineError(f"Cannot load pipeline {str(model)!r}: {e}") from e
    try:
        find_punctuator(nlp)
    except PipelineError as e:
        raise PipelineError(f"Pipeline {str(model)!r}: {e}") from None
    return nlp


def _check_findable(model: Union[str, Path]) -> None:
    """A one-line error for a name or path that names no pipeline (spaCy's own
    messages for these run over several lines, some about shortcuts)."""
    path = resolve_model(model)
    if Path(path).is_dir():
        if not (Path(path) / "config.cfg").is_file():
            raise PipelineError(f"Cannot load pipeline {str(model)!r}: the folder has no config.cfg.")
    elif Path(path).exists():
        raise PipelineError(f"Cannot load pipeline {str(model)!r}: a file, not a pipeline folder.")
    elif isinstance(path, Path) or "/" in str(path) or os.sep in str(path):
        raise PipelineError(f"Cannot load pipeline {str(model)!r}: no such folder.")
    elif not spacy.util.is_package(str(path)):
        raise PipelineError(
            f"Cannot load pipeline {str(model)!r}: no bundled pipeline ({', '.join(bundled_names())}), "
            "installed package or folder of that name."
        )


def load_for_long_run(model: Union[str, Path], *, threads: Optional[int] = DEFAULT_THREADS) -> Language:
    """`load_pipeline` for a process that then punctuates for long (a command,
    a Ray actor, a server): every object loaded is left out of the garbage
    collector's scans from then on (see `spacy_punct.runtime.collector`)."""
    nlp = load_pipeline(model, threads=threads)
    freeze_loaded_objects()
    return nlp


def predict_probs(nlp: Language, docs: Iterable[Doc], *, batch_size: int = 64) -> Iterator[Tuple[Doc, numpy.ndarray]]:
    """Each doc with the punctuator's class probabilities per token. The
    components before the punctuator annotate the docs; nothing is decided or
    rewritten, and the pipeline's settings are not touched."""
    name, pipe = find_punctuator(nlp)
    # the components before the punctuator, run here: `nlp.select_pipes` would
    # take the punctuator out of a pipeline that other threads are using
    before = [component for _, component in nlp.pipeline[: nlp.pipe_names.index(name)]]
    stream: Iterable[Doc] = (nlp.make_doc(doc) if isinstance(doc, str) else doc for doc in docs)
    for component in before:
        stream = component.pipe(stream, batch_size=batch_size) if hasattr(component, "pipe") else map(component, stream)
    for batch in spacy.util.minibatch(stream, size=batch_size):
        for doc, probs in zip(batch, pipe.predict(batch)):
            yield doc, pipe.model.ops.to_numpy(probs)
