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
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex, registry


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

    def tokenizer_factory(nlp: Language) -> PunctTokenizer:
        # built as spacy.Tokenizer.v1 builds its own: its special cases are
        # added once (building spaCy's and copying its rules added them twice)
        defaults = nlp.Defaults
        return PunctTokenizer(
            nlp.vocab,
            rules=defaults.tokenizer_exceptions,
            prefix_search=compile_prefix_regex(defaults.prefixes).search if defaults.prefixes else None,
            suffix_search=compile_suffix_regex(defaults.suffixes).search if defaults.suffixes else None,
            infix_finditer=compile_infix_regex(defaults.infixes).finditer if defaults.infixes else None,
            token_match=defaults.token_match,
            url_match=defaults.url_match,
        )

    return tokenizer_factory
