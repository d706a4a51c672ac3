"""Predictions per token on the transformer path: the window and stride of the
transformer's span getter. With stride < window, every token is read in about
window / stride windows and its vectors are averaged over them."""
from typing import List

from spacy.language import Language
from spacy.util import registry


def transformer_names(nlp: Language) -> List[str]:
    """The components whose model reads the doc through a span getter (spacy-transformers)."""
    return [
        name
        for name, pipe in nlp.pipeline
        if getattr(pipe, "model", None) is not None and "get_spans" in getattr(pipe.model, "attrs", {})
    ]


def set_windows(nlp: Language, window: int, stride: int) -> List[str]:
    """Make the pipeline's transformers read windows of `window` tokens, one
    every `stride` tokens. Returns the names of the components changed."""
    if window < 1 or not 1 <= stride <= window:
        raise ValueError(f"Need window >= 1 and 1 <= stride <= window, not window={window}, stride={stride}.")
    names = transformer_names(nlp)
    if not names:
        raise ValueError(
            "The pipeline has no transformer, so it has no windows to set: "
            "tok2vec models read the whole doc."
        )
    get_spans = registry.span_getters.get("spacy-transformers.strided_spans.v1")(window=window, stride=stride)
    for name in names:
        nlp.get_pipe(name).model.attrs["get_spans"] = get_spans
    return names
