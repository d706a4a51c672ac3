"""Checks on the components after a rewriting one (the punctuator, the
`punct_rewriter`): they run on the rewritten doc, so a listener of an encoder
that ran on the input, or a ruler whose phrase patterns spaCy runs through the
rewrite, would silently see the wrong text."""

import weakref
from typing import Iterator, List, Optional, Tuple, Union

from spacy.language import Language
from spacy.pipeline import EntityRuler, SpanRuler


def rewrites_docs(component: object) -> bool:
    """Whether a pipeline component returns new docs rather than its input."""
    return bool(getattr(component, "rewrites_docs", False))


def check_downstream_listeners(nlp: Language, name: str) -> None:
    """Raise if a component after `name` listens to one before it while `name`
    rewrites docs: it would read vectors of the input doc, not of the rewritten one."""
    if not rewrites_docs(nlp.get_pipe(name)):
        return
    names = nlp.pipe_names
    position = names.index(name)
    for upstream in names[:position]:
        listening = getattr(nlp.get_pipe(upstream), "listening_components", None) or []
        late = [listener for listener in listening if listener in names[position + 1 :]]
        if late:
            raise ValueError(
                f"Component(s) {late} listen to '{upstream}', which runs before "
                f"'{name}'. '{name}' rewrites each doc, so they would see vectors of "
                "the unpunctuated input. Give them their own tok2vec, or run the "
                "punctuator with rewrite = false and add the 'punct_rewriter' "
                "component at the end of the pipeline."
            )


def _later_rulers(nlp: Language, name: str) -> Iterator[Tuple[str, Union[SpanRuler, EntityRuler]]]:
    # disabled ones too: a ruler disables itself while spaCy runs its patterns
    names = nlp.component_names
    for later in names[names.index(name) + 1 :]:
        pipe = nlp.get_pipe(later)
        if isinstance(pipe, (SpanRuler, EntityRuler)):
            yield later, pipe


def check_downstream_rulers(nlp: Language, name: str) -> None:
    """Raise if a ruler after `name` has phrase patterns while `name` rewrites
    docs: spaCy runs a ruler's phrase patterns through the components before
    it, so each pattern would be punctuated itself ("Paris" -> "Paris.") and
    would not match inside a sentence. (A ruler adds a phrase pattern only
    after running it, so the check fails at the next doc, not in `add_patterns`.)"""
    if not rewrites_docs(nlp.get_pipe(name)):
        return
    for ruler_name, ruler in _later_rulers(nlp, name):
        if any(isinstance(entry["pattern"], str) for entry in ruler.patterns):
            raise ValueError(
                f"'{ruler_name}' runs after '{name}' and has phrase patterns: spaCy "
                f"runs them through '{name}', which would punctuate them, so they "
                f"would not match. Add the ruler before '{name}' "
                f"(nlp.add_pipe(..., before='{name}'); the rewrite keeps its entities), "
                "or give it token patterns."
            )


class DownstreamCheck:
    """The downstream checks for one component, run again only when the
    pipeline's layout or its later rulers' patterns change. Holds the pipeline
    weakly and pickles empty."""

    def __init__(self, nlp: Optional[Language], name: str) -> None:
        self._ref = weakref.ref(nlp) if nlp is not None else None
        self._name = name
        self._checked: Optional[Tuple[Tuple[str, ...], Tuple[str, ...], List[int]]] = None

    def __call__(self, name: Optional[str] = None) -> None:
        nlp = self._ref() if self._ref is not None else None
        if nlp is None:
            return
        name = name or self._name
        layout = (
            tuple(nlp.pipe_names),
            tuple(nlp.component_names),
            [len(ruler) for _, ruler in _later_rulers(nlp, name)],
        )
        if layout == self._checked:
            return
        check_downstream_listeners(nlp, name)
        check_downstream_rulers(nlp, name)
        self._checked = layout

    def __reduce__(self):
        return (DownstreamCheck, (None, self._name))
