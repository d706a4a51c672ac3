import numpy
import pytest
import spacy
from thinc.api import Config, Model, chain

from spacy_punct.layers.classifier import build_punctuator_model
from spacy_punct.layers.tok2vec import word_rows, words_doc

TOK2VEC = Config().from_str(
    """
[tok2vec]
@architectures = "spacy_punct.Tok2Vec.v1"

[tok2vec.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = 16
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [100, 50, 50, 50]
include_static_vectors = false

[tok2vec.encode]
@architectures = "spacy_punct.BiLSTMEncoder.v1"
width = 16
depth = 1
dropout = 0.0
"""
)
# whitespace tokens (a zero-width space among them) and marks between the words of PLAIN
SPACED = 'so,  how was "the trip"\nit was\t long ; \n\n but (we) \u200b saw the coast . '

PLAIN = "so how was the trip it was long but we saw the coast"


def _tok2vec():
    return spacy.util.registry.resolve(TOK2VEC)["tok2vec"]


def _randomize_output(model):
    """The softmax starts at zero weights (every prediction uniform): give it
    random ones, so that predictions differ with their inputs."""
    output = model.get_ref("output_layer")
    shape = output.get_param("W").shape
    output.set_param("W", numpy.random.default_rng(0).uniform(-1, 1, shape).astype("f"))


def test_word_rows_and_words_doc():
    nlp = spacy.blank("en")
    doc = nlp.make_doc('a  "b"\nc, \t (d) ?! ')
    rows = word_rows(doc)
    assert [doc[i].text for i in rows] == ["a", "b", "c", "d"]
    words = words_doc(doc, rows)
    assert [t.text for t in words] == ["a", "b", "c", "d"]
    assert word_rows(nlp.make_doc("a b c")) is None
    assert word_rows(nlp.make_doc("")) is None
    assert list(word_rows(nlp.make_doc("  "))) == []
    assert list(word_rows(nlp.make_doc(" ... "))) == []
    # format characters alone (zero-width space, byte-order mark, word joiner) are whitespace
    assert list(word_rows(nlp.make_doc("a \u200b b \ufeff\u2060 c"))) == [0, 2, 4]
    assert word_rows(nlp.make_doc("a b\u200bc")) is None  # within a word, part of it
    # a recogniser's tags are no words; marks read, a bracket written onto a word is read too
    tagged = nlp.make_doc("[Music] a <unk> b")
    assert [t.text for t in words_doc(tagged, word_rows(tagged))] == ["a", "b"]
    glued = nlp.make_doc("x[a] {b}")
    assert [glued[i].text for i in word_rows(glued, marks=True)] == ["x[a", "]"]
    # tokens with marks inside them, symbols, and dashes, slashes and
    # apostrophes standing alone (the training text has them as words) are words
    assert word_rows(nlp.make_doc("e.g. 3.5 $ 5 c:/users 😀 win-win -- / students '")) is None


def test_tok2vec_reads_words_only():
    nlp = spacy.blank("en")
    model = _tok2vec()
    docs = [nlp.make_doc(SPACED), nlp.make_doc(PLAIN), nlp.make_doc(""), nlp.make_doc("   ")]
    model.initialize(X=docs)
    spaced, plain, empty, blank = model.predict(docs)
    rows = word_rows(docs[0])
    assert spaced.shape == (len(docs[0]), 16) and empty.shape[0] == 0 and blank.shape == (1, 16)
    numpy.testing.assert_allclose(spaced[rows], plain, rtol=1e-5, atol=1e-6)
    is_space = numpy.ones(len(docs[0]), dtype=bool)
    is_space[rows] = False
    assert not spaced[is_space].any()
    # gradients come back through the words' rows only
    Ys, backprop = model.begin_update(docs[:2])
    backprop([numpy.ones_like(Y) for Y in Ys])


def test_tok2vec_reading_marks_reads_them_and_still_leaves_whitespace_out():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("so how was it ? it was  long ,\nbut fine")
    assert [doc[i].text for i in word_rows(doc, marks=True)] == [t.text for t in doc if not t.is_space]
    config = Config().from_str(TOK2VEC.to_str())
    config["tok2vec"]["read_marks"] = True
    model = spacy.util.registry.resolve(config)["tok2vec"]
    docs = [doc, nlp.make_doc("so how was it it was long but fine")]
    model.initialize(X=docs)
    marked, plain = model.predict(docs)
    rows = word_rows(doc)  # the words alone
    assert marked[numpy.array([t.is_space for t in doc])].sum() == 0
    assert marked[[i for i, t in enumerate(doc) if t.text in ("?", ",")]].any()
    # the marks reach the words' vectors through the encoder: the same words read otherwise
    assert not numpy.allclose(marked[rows], plain, atol=1e-6)


def test_tok2vec_takes_the_weights_of_spacy_tok2vec():
    nlp = spacy.blank("en")
    docs = [nlp.make_doc(PLAIN), nlp.make_doc("we saw it")]
    config = Config().from_str(TOK2VEC.to_str())
    config["tok2vec"]["@architectures"] = "spacy.Tok2Vec.v2"
    spacy_model = spacy.util.registry.resolve(config)["tok2vec"]
    spacy_model.initialize(X=docs)
    model = _tok2vec().from_bytes(spacy_model.to_bytes())
    for ours, theirs in zip(model.predict(docs), spacy_model.predict(docs)):
        numpy.testing.assert_array_equal(ours, theirs)


def _bilstm(width):
    config = {"c": {"@architectures": "spacy_punct.BiLSTMEncoder.v1", "width": width, "depth": 1, "dropout": 0.0}}
    return spacy.util.registry.resolve(config)["c"]


def _spaced_and_plain(features, context):
    """A punctuator model's predictions for SPACED and PLAIN (its softmax
    random), the model, and the docs."""
    nlp = spacy.blank("en")
    model = build_punctuator_model(features, hidden_width=8, dropout=0.0, nO=4, context=context)
    docs = [nlp.make_doc(SPACED), nlp.make_doc(PLAIN)]
    model.initialize(X=docs)
    _randomize_output(model)
    spaced, plain = model.predict(docs)
    return spaced[word_rows(docs[0])], plain, model, docs


@pytest.mark.parametrize("context", [False, True])
def test_punctuator_head_reads_word_rows_only(context):
    """A punctuator model over `spacy_punct.Tok2Vec.v1`, with or without a
    head that reads its neighbours, predicts for the words what it predicts
    without the whitespace tokens."""
    spaced, plain, model, docs = _spaced_and_plain(_tok2vec(), _bilstm(16) if context else None)
    numpy.testing.assert_allclose(spaced, plain, rtol=1e-5, atol=1e-6)
    Ys, backprop = model.begin_update(docs)
    backprop([numpy.ones_like(Y) for Y in Ys])


def _toy_forward(model, docs, is_train):
    rows = [[[len(t.text), float(t.is_space), 1.0] for t in doc] for doc in docs]
    return [numpy.asarray(r, dtype="f").reshape(-1, 3) for r in rows], lambda d_rows: []


def test_the_head_alone_sees_no_whitespace_token():
    """Features that give whitespace tokens vectors of their own (as spaCy's
    tok2vec does): the head's predictions for the words are those of the text
    without them."""
    features = Model("toy", _toy_forward, dims={"nO": 3})
    spaced, plain, model, docs = _spaced_and_plain(features, _bilstm(3))
    numpy.testing.assert_allclose(spaced, plain, rtol=1e-5, atol=1e-6)
    # the same head over every row, as before: the whitespace tokens change the words' predictions
    spaced_all, plain_all = chain(features, model.layers[1]).predict(docs)
    assert not numpy.allclose(spaced_all[word_rows(docs[0])], plain_all, atol=1e-4)
