"""Finding the Hugging Face models inside a pipeline: the layers of its
components that hold one in a shim (spacy-transformers' HFWrapper), the
shims, and the torch models themselves."""

from typing import Any, Iterator, List, Tuple

from spacy.language import Language
from thinc.api import Model


def _hf_shims_by_layer(nlp: Language) -> Iterator[Tuple[str, Model, Any]]:
    """(component name, layer, shim) for each shim that holds a Hugging Face model."""
    for name, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is None:
            continue
        for node in model.walk():
            for shim in node.shims:
                if hasattr(getattr(shim, "_model", None), "get_input_embeddings"):
                    yield name, node, shim


def hf_layers(nlp: Language) -> List[Model]:
    """The layers of the pipeline's components that hold a Hugging Face model."""
    layers: List[Model] = []
    for _, layer, _ in _hf_shims_by_layer(nlp):
        if not any(layer is seen for seen in layers):
            layers.append(layer)
    return layers


def hf_shims(nlp: Language) -> List[Any]:
    """The shims of the pipeline's components that hold a Hugging Face model."""
    return [shim for _, _, shim in _hf_shims_by_layer(nlp)]


def hf_models(nlp: Language) -> Iterator[Tuple[str, Any]]:
    """The Hugging Face (torch) models inside the pipeline, with their component's name."""
    for name, _, shim in _hf_shims_by_layer(nlp):
        yield name, shim._model
