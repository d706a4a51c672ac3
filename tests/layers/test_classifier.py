import numpy
from spacy.util import registry
from thinc.api import Linear, Model, with_array

from spacy_punct.layers.bilstm import build_bilstm_encoder
from spacy_punct.layers.classifier import build_punctuator_model, with_empty_docs


def _fake_tok2vec(width: int) -> Model:
    # an empty doc gets a (0, 0) array, as from a transformer
    def forward(model, docs, is_train):
        return [model.ops.alloc2f(len(doc), width if len(doc) else 0) + 1.0 for doc in docs], lambda d: []

    return Model("fake_tok2vec", forward, dims={"nO": width})


def test_architecture_is_registered():
    assert registry.architectures.get("spacy_punct.PunctuatorModel.v1") is build_punctuator_model


def test_output_shape_and_refs(nlp):
    model = build_punctuator_model(_fake_tok2vec(8), hidden_width=16, dropout=0.1, nO=4)
    docs = [nlp("so how was it"), nlp(""), nlp("fine")]
    model.initialize(X=docs)
    probs = model.predict(docs)
    assert [p.shape for p in probs] == [(4, 4), (0, 4), (1, 4)]
    numpy.testing.assert_allclose(probs[0].sum(axis=1), 1.0, rtol=1e-5)
    assert model.get_ref("tok2vec").name == "fake_tok2vec"
    assert model.get_ref("output_layer").get_dim("nO") == 4


def test_linear_head(nlp):
    model = build_punctuator_model(_fake_tok2vec(8), hidden_width=0, nO=3)
    model.initialize(X=[nlp("a b")])
    assert model.predict([nlp("a b")])[0].shape == (2, 3)


def test_with_empty_docs_gives_zero_width_arrays_the_input_width():
    layer = with_array(Linear(nO=2, nI=5))
    model = with_empty_docs(layer)
    model.initialize()
    Xs = [numpy.ones((3, 5), dtype="f"), numpy.zeros((0, 0), dtype="f")]
    Ys, backprop = model(Xs, is_train=True)
    assert [y.shape for y in Ys] == [(3, 2), (0, 2)]
    dXs = backprop([numpy.ones((3, 2), dtype="f"), numpy.zeros((0, 2), dtype="f")])
    assert [d.shape for d in dXs] == [(3, 5), (0, 0)]


def test_a_context_encoder_between_vectors_and_head(nlp):
    model = build_punctuator_model(_fake_tok2vec(8), hidden_width=16, nO=4, context=build_bilstm_encoder(8, 1, 0.0))
    docs = [nlp("so how was it"), nlp(""), nlp("fine")]
    model.initialize(X=docs)
    assert [p.shape for p in model.predict(docs)] == [(4, 4), (0, 4), (1, 4)]
    Ys, backprop = model(docs, is_train=True)
    backprop([model.ops.alloc2f(*y.shape) for y in Ys])
