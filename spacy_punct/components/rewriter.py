"""The `punct_rewriter` pipeline component: the rewrite as the last step of a
pipeline, so that components between the punctuator and it (a truecaser, an
NER) can listen to the punctuator's encoder and still see the input doc."""

from typing import Iterable, Iterator, Optional

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.util import minibatch

from ..downstream import DownstreamCheck, check_downstream_listeners
from ..extensions import register_extensions
from ..rewrite import rewrite_doc

register_extensions()


@Language.factory(
    "punct_rewriter",
    requires=["token._.punct", "token.is_sent_start"],
    assigns=["token.is_sent_start", "doc._.punctuated", "token._.source_i", "token._.source_idx"],
    retokenizes=True,  # a new doc with the marks as tokens
)
def make_punct_rewriter(nlp: Language, name: str) -> "PunctRewriter":
    """Write the marks a punctuator (with rewrite = false) decided into a new,
    punctuated and sentence-cased doc."""
    return PunctRewriter(name, nlp)


class PunctRewriter(Pipe):
    """Return the rewritten doc of each annotated doc."""

    rewrites_docs = True

    def __init__(self, name: str = "punct_rewriter", nlp: Optional[Language] = None) -> None:
        self.name = name
        self._check_downstream = DownstreamCheck(nlp, name)

    def __call__(self, doc: Doc) -> Doc:
        error_handler = self.get_error_handler()
        try:
            self._check_downstream(self.name)
            return rewrite_doc(doc)
        except Exception as e:
            error_handler(self.name, self, [doc], e)

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        for docs in minibatch(stream, size=batch_size):
            yield from (self(doc) for doc in docs)

    def initialize(self, get_examples=None, *, nlp: Optional[Language] = None) -> None:
        """Check the pipeline: nothing after the rewriter may listen to an
        encoder before it."""
        if nlp is not None:
            check_downstream_listeners(nlp, self.name)
