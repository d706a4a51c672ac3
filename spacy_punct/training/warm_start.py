"""Training in stages: a new run starts from the weights of a saved pipeline
(a bundled pipeline, or the last run's `model-last`) instead of the
pretrained encoder and new heads, so that a corpus larger than one sitting
is learned over several runs."""
from typing import Any, Callable, List, Optional, Sequence, cast

import spacy
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.util import registry

Callback = Callable[[Language], Language]


class WarmStartError(ValueError):
    """The saved pipeline cannot give the new one its weights."""


def warm_start(nlp: Language, source: str, components: Optional[List[str]] = None,
               skip: Sequence[str] = ()) -> List[str]:
    """Copy the weights and settings of `components` (None: every trained
    component of `nlp` that the saved pipeline has too, less those in `skip`)
    from the pipeline saved at `source` into `nlp`'s components of the same
    names (same architectures). Returns the names copied."""
    pipeline = spacy.info(source)["pipeline"]  # type: ignore[index]  # a model's info is its meta
    if components is None:
        components = [name for name, pipe in nlp.pipeline
                      if isinstance(pipe, TrainablePipe) and name in pipeline and name not in skip]
        if not components:
            raise WarmStartError(f"warm_start: {source} has none of this pipeline's trained components "
                                 f"({', '.join(nlp.pipe_names)}).")
    saved = spacy.load(source, exclude=[name for name in pipeline if name not in components])
    copied = []
    for name in components:
        if name not in saved.component_names or name not in nlp.component_names:
            raise WarmStartError(f"warm_start: both pipelines need a component named {name!r} ({source} has "
                                 f"{', '.join(saved.component_names)}; this one {', '.join(nlp.component_names)}).")
        pipe: Any = nlp.get_pipe(name)  # a component with to_bytes and from_bytes
        pipe.from_bytes(cast(Any, saved.get_pipe(name)).to_bytes(exclude=["vocab"]), exclude=["vocab"])
        copied.append(name)
    return copied


@registry.callbacks("spacy_punct.warm_start.v1")
def create_warm_start(source: str, components: Optional[List[str]] = None, skip: Sequence[str] = (),
                      then: Optional[Callback] = None) -> Callback:
    """An `[initialize.after_init]` callback: start from the weights of the
    pipeline saved at `source` (see `warm_start`; `components` None: every
    trained component both have, less those in `skip`), then run `then`
    (another after_init callback, such as `spacy_punct.freeze_embeddings.v1`)."""

    def after_init(nlp: Language) -> Language:
        warm_start(nlp, source, None if components is None else list(components), list(skip))
        return then(nlp) if then is not None else nlp

    return after_init
