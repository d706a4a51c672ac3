"""Freezing parts of a pipeline's transformers. Half of a small encoder's
weights (11.7M of all-MiniLM-L6-v2's 22.7M) sit in its word-piece
embeddings; on a CPU, leaving them out of the update saves their gradients and
optimizer steps, and keeps rare word pieces where pretraining put them.
Freezing the lowest layers as well saves their backward pass: the gradient
stops at the first layer that trains."""
from typing import Callable, List

from spacy.language import Language
from spacy.util import registry

from ..layers.hf_models import hf_models


def freeze_input_embeddings(nlp: Language) -> List[str]:
    """Stop gradients to the input embeddings of every Hugging Face model in
    the pipeline. Returns the names of the components frozen."""
    frozen = []
    for name, torch_model in hf_models(nlp):
        torch_model.get_input_embeddings().weight.requires_grad_(False)
        frozen.append(name)
    return frozen


def freeze_lower_layers(nlp: Language, layers: int) -> List[str]:
    """`freeze_encoder_layers` on every Hugging Face model in the pipeline.
    Returns the names of the components frozen."""
    frozen = []
    for name, torch_model in hf_models(nlp):
        freeze_encoder_layers(torch_model, layers, name)
        frozen.append(name)
    return frozen


def freeze_encoder_layers(torch_model, layers: int, name: str = "transformer") -> None:
    """Stop gradients to the whole embedding layer (word pieces, positions,
    token types and their norm) and to the lowest `layers` layers of a
    Hugging Face encoder of the BERT family (BERT, RoBERTa, XLM-R and their
    kin: an `embeddings` module and an `encoder.layer` list)."""
    base = torch_model.base_model
    stack = getattr(getattr(base, "encoder", None), "layer", None)
    if stack is None or not hasattr(base, "embeddings"):
        raise ValueError(f"freezing layers: the transformer of '{name}' ({type(base).__name__}) has no embeddings and encoder.layer")
    if not 0 <= layers < len(stack):
        raise ValueError(f"freezing layers: {layers} of the {len(stack)} layers of '{name}' (at least one must train)")
    for module in [base.embeddings, *stack[:layers]]:
        module.requires_grad_(False)


def _after_init(freeze: Callable[[Language], List[str]], callback: str) -> Callable[[Language], Language]:
    def after_init(nlp: Language) -> Language:
        if not freeze(nlp):
            raise ValueError(f"{callback}: the pipeline has no Hugging Face transformer to freeze.")
        return nlp

    return after_init


@registry.callbacks("spacy_punct.freeze_embeddings.v1")
def create_freeze_embeddings() -> Callable[[Language], Language]:
    """An `[initialize.after_init]` callback: the transformers' word-piece
    embeddings stay as pretrained (see `freeze_input_embeddings`)."""
    return _after_init(freeze_input_embeddings, "spacy_punct.freeze_embeddings.v1")


@registry.callbacks("spacy_punct.freeze_layers.v1")
def create_freeze_layers(layers: int) -> Callable[[Language], Language]:
    """An `[initialize.after_init]` callback: the transformers' embedding layer
    and their lowest `layers` layers stay as pretrained (see
    `freeze_lower_layers`)."""
    return _after_init(lambda nlp: freeze_lower_layers(nlp, layers), "spacy_punct.freeze_layers.v1")
