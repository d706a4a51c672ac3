"""An embedding that reads every doc as the training reader writes it: its
words lower-cased, in a doc made from those words.

The CPU recipes train on lower-cased words (`lowercase = true` in the reader),
and a tok2vec's prefix, suffix and shape features see case: input written in
capitals (`SO HOW WAS THE TRIP`, as some recognisers write) or with them
(`So How`, cased text) would reach the model as features it never saw. The
model reads a doc made from the lower-cased words instead, which also gives
every token the norm it had in training, not one set by the tokenizer's
exceptions (`n't` -> `not`). The input doc, and the case the rewrite keeps
from it, are untouched.
"""

from typing import Callable, List, Tuple

from spacy.attrs import LOWER, ORTH, SPACY
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model, chain
from thinc.types import Floats2d

from ..casing import is_placeholder


@registry.architectures("spacy_punct.LowercaseEmbed.v1")
def build_lowercase_embed(embed: Model[List[Doc], List[Floats2d]]) -> Model[List[Doc], List[Floats2d]]:
    """`embed` (for instance `spacy.MultiHashEmbed.v2`) reading each doc's
    words lower-cased: the same vectors whatever the case of the input."""
    return chain(Model("lowercase_docs", _lowercase_forward), embed)


def _lowercase_forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Doc], Callable]:
    return [lowercase_doc(doc) for doc in docs], lambda d_docs: []


def lowercase_doc(doc: Doc) -> Doc:
    """A doc of the same tokens and spaces, every word lower-cased but
    placeholders such as the noise augmenter's `[UNK]`, which are not words."""
    rows = doc.to_array([ORTH, LOWER, SPACY]).tolist() if len(doc) else []
    strings = doc.vocab.strings
    words = [strings[orth if orth != lower and is_placeholder(strings[orth]) else lower] for orth, lower, _ in rows]
    return Doc(doc.vocab, words=words, spaces=[bool(row[2]) for row in rows])
