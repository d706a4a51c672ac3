"""Freezing the word-piece embeddings of a pipeline's transformers. Half of a
small encoder's weights (11.7M of all-MiniLM-L6-v2's 22.7M) sit in its
word-piece embeddings; on a CPU, leaving them out of the update saves their
gradients and optimizer steps, and keeps rare word pieces where pretraining
put them."""
from typing import Callable, List

from spacy.language import Language
from spacy.util import registry


def freeze_input_embeddings(nlp: Language) -> List[str]:
    """Stop gradients to the input embeddings of every Hugging Face model in
    the pipeline. Returns the names of the components frozen."""
    frozen = []
    for name, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is None:
            continue
        for node in model.walk():
            for shim in node.shims:
                torch_model = getattr(shim, "_model", None)
                if torch_model is not None and hasattr(torch_model, "get_input_embeddings"):
                    torch_model.get_input_embeddings().weight.requires_grad_(False)
                    frozen.append(name)
    return frozen


@registry.callbacks("spacy_punct.freeze_embeddings.v1")
def create_freeze_embeddings() -> Callable[[Language], Language]:
    """An `[initialize.after_init]` callback: the transformers' word-piece
    embeddings stay as pretrained (see `freeze_input_embeddings`)."""

    def after_init(nlp: Language) -> Language:
        if not freeze_input_embeddings(nlp):
            raise ValueError("spacy_punct.freeze_embeddings.v1: the pipeline has no Hugging Face transformer to freeze.")
        return nlp

    return after_init
