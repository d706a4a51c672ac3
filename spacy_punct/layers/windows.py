"""Predictions per token on the transformer path: the window and stride of the
transformer's span getter. With stride < window, every token is read in about
window / stride windows and its vectors are averaged over them."""

from typing import List

from spacy.language import Language
from spacy.util import registry


def transformer_names(nlp: Language) -> List[str]:
    """The components whose model reads the doc through a span getter (spacy-transformers)."""
    return [name for name, pipe in nlp.pipeline if "get_spans" in getattr(getattr(pipe, "model", None), "attrs", {})]


STRIDED_SPANS = "spacy-transformers.strided_spans.v1"


def _get_spans_config(nlp: Language, name: str) -> dict:
    return nlp.config["components"].get(name, {}).get("model", {}).get("get_spans", {})


def configured_window(nlp: Language, name: str) -> int:
    """The window a transformer component's config gives its span getter (0: none)."""
    return int(_get_spans_config(nlp, name).get("window", 0) or 0)


def configured_span_getter(nlp: Language, name: str) -> str:
    """The registered name of a transformer component's span getter, where it
    takes a window and a stride (`spacy_punct.word_strided_spans.v1`); else
    spacy-transformers' `strided_spans.v1`."""
    config = _get_spans_config(nlp, name)
    return config.get("@span_getters", STRIDED_SPANS) if "window" in config else STRIDED_SPANS


def set_windows(nlp: Language, window: int, stride: int) -> List[str]:
    """Make the pipeline's transformers read windows of `window` tokens (0:
    the configured window), one every `stride` tokens (0: the window, no
    overlap), counted as their span getter counts them (words only with
    `spacy_punct.word_strided_spans.v1`). Returns the names of the components
    changed."""
    names = transformer_names(nlp)
    if not names:
        raise ValueError(
            "The pipeline has no transformer, so it has no windows to set: tok2vec models read the whole doc."
        )
    settings = {}
    for name in names:
        name_window = window or configured_window(nlp, name)
        name_stride = stride or name_window
        if name_window < 1 or not 1 <= name_stride <= name_window:
            raise ValueError(
                f"Need window >= 1 and 1 <= stride <= window, not window={name_window}, stride={name_stride}"
                + (" ('" + name + "' configures no window: give one)." if not name_window else ".")
            )
        settings[name] = (name_window, name_stride)
    for name, (name_window, name_stride) in settings.items():
        get_spans = registry.get("span_getters", configured_span_getter(nlp, name))
        getattr(nlp.get_pipe(name), "model").attrs["get_spans"] = get_spans(window=name_window, stride=name_stride)
    return names
