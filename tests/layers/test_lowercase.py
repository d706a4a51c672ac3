import numpy
import spacy
from spacy.tokens import Doc
from thinc.api import Config

from spacy_punct.layers.lowercase import build_lowercase_embed, lowercase_doc

EMBED = Config().from_str(
    """
[embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = 16
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [100, 50, 50, 50]
include_static_vectors = false
"""
)


def _embed():
    return spacy.util.registry.resolve(EMBED)["embed"]


def test_the_same_vectors_whatever_the_case_of_the_input():
    nlp = spacy.blank("en")
    model = build_lowercase_embed(_embed())
    docs = [nlp.make_doc(text) for text in ("so how was the trip", "SO HOW WAS THE TRIP", "So How Was The trip")]
    model.initialize(X=docs)
    lower, upper, title = model.predict(docs)
    numpy.testing.assert_array_equal(lower, upper)
    numpy.testing.assert_array_equal(lower, title)
    # without the lower-case view, capitals change the prefix, suffix and shape features
    plain = _embed()
    plain.initialize(X=docs)
    assert not numpy.array_equal(*plain.predict(docs[:2]))


def test_a_doc_made_from_words_as_in_training():
    nlp = spacy.blank("en")
    doc = nlp("We DON'T know, do n't we?")
    lowered = lowercase_doc(doc)
    assert [t.text for t in lowered] == [t.text.lower() for t in doc]
    assert [t.whitespace_ for t in lowered] == [t.whitespace_ for t in doc]
    # the tokenizer's exceptions set norms that a doc made from words, as the reader's, does not have
    tokenized = nlp("don't")
    assert tokenized[1].norm_ == "not" and lowercase_doc(tokenized)[1].norm_ == "n't"
    assert len(lowercase_doc(nlp(""))) == 0
    # a placeholder stands for a word and stays as the model learned it
    placeholder = Doc(nlp.vocab, words=["We", "[UNK]", "IT"])
    assert [t.text for t in lowercase_doc(placeholder)] == ["we", "[UNK]", "it"]


def test_the_gradient_reaches_the_embedding_tables():
    nlp = spacy.blank("en")
    model = build_lowercase_embed(_embed())
    docs = [nlp.make_doc("So how was it"), nlp.make_doc("")]
    model.initialize(X=docs)
    Ys, backprop = model.begin_update(docs)
    assert [Y.shape for Y in Ys] == [(4, 16), (0, 16)]
    backprop([numpy.ones_like(Y) for Y in Ys])
    grads = [node.get_grad(name) for node in model.walk() for name in node.param_names if node.has_grad(name)]
    assert grads and any(numpy.abs(grad).sum() > 0 for grad in grads)
