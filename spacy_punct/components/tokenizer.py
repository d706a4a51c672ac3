"""The tokenizer of the project's pipelines (`spacy_punct.Tokenizer.v1`):
spaCy's own, whose tokenization scores leave out the examples whose predicted
text is no longer the reference's. The punctuator changes the text, so with
spaCy's tokenizer `nlp.evaluate` and `spacy evaluate` fail on examples of
natural punctuated text (bare input, punctuated reference) before any
component is scored (E949: the two texts cannot be aligned)."""
from typing import Any, Callable, Dict, Iterable

from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry


def _aligned_chars(doc: Doc) -> str:
    # what spaCy's alignment compares (spacy.training.alignment)
    return "".join(token.text for token in doc).replace(" ", "").lower()


class PunctTokenizer(Tokenizer):
    """spaCy's tokenizer; tokenization scored only where spaCy can align the
    predicted and reference texts."""

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        alignable = [eg for eg in examples if _aligned_chars(eg.predicted) == _aligned_chars(eg.reference)]
        return Scorer.score_tokenization(alignable, **kwargs)


@registry.tokenizers("spacy_punct.Tokenizer.v1")
def create_tokenizer() -> Callable[[Language], PunctTokenizer]:
    """spaCy's `spacy.Tokenizer.v1` with the language's rules, as a `PunctTokenizer`."""
    spacy_tokenizer = registry.tokenizers.get("spacy.Tokenizer.v1")()

    def tokenizer_factory(nlp: Language) -> PunctTokenizer:
        base = spacy_tokenizer(nlp)
        return PunctTokenizer(
            nlp.vocab,
            rules=base.rules,
            prefix_search=base.prefix_search,
            suffix_search=base.suffix_search,
            infix_finditer=base.infix_finditer,
            token_match=base.token_match,
            url_match=base.url_match,
            faster_heuristics=base.faster_heuristics,
        )

    return tokenizer_factory
