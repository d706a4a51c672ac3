"""The punctuator on a transformer listener, with a tiny local BERT."""

import numpy
import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example

from ..conftest import TEXTS, reader_examples, train


def trf_pipeline(
    model_path,
    window=32,
    stride=24,
    cpu_precision=None,
    context=None,
    span_getter="spacy_punct.word_strided_spans.v1",
    transformer_config=None,
    word_marker=None,
) -> spacy.Language:
    """A transformer and a punctuator listening to it; with `cpu_precision`
    (and `word_marker`), the transformer is spacy_punct's (spacy-transformers'
    otherwise); `context`: the punctuator's sequence encoder;
    `transformer_config`: Hugging Face settings over the saved model's."""
    nlp = spacy.blank("en")
    precision = {} if cpu_precision is None else {"cpu_precision": cpu_precision}
    if word_marker is not None:
        precision["word_marker"] = word_marker
    hf_settings = {} if transformer_config is None else {"transformer_config": transformer_config}
    nlp.add_pipe(
        "transformer",
        config={
            "model": {
                "@architectures": "spacy_punct.TransformerModel.v1"
                if precision
                else "spacy-transformers.TransformerModel.v3",
                **precision,
                **hf_settings,
                "name": str(model_path),
                "tokenizer_config": {"use_fast": True},
                "get_spans": {
                    "@span_getters": span_getter,
                    "window": window,
                    "stride": stride,
                },
            }
        },
    )
    nlp.add_pipe(
        "punctuator",
        config={
            "model": {
                "@architectures": "spacy_punct.PunctuatorModel.v1",
                "hidden_width": 64,
                "dropout": 0.0,
                "context": context,
                "tok2vec": {
                    "@architectures": "spacy-transformers.TransformerListener.v1",
                    "grad_factor": 1.0,
                    "pooling": {"@layers": "reduce_mean.v1"},
                    "upstream": "*",
                },
            }
        },
    )
    return nlp


@pytest.fixture(scope="module")
def trained_trf(tiny_bert, tmp_path_factory):
    nlp = trf_pipeline(tiny_bert)
    path = tmp_path_factory.mktemp("trf") / "tiny.spacy"
    from spacy.tokens import DocBin

    DocBin(docs=[nlp.make_doc(t) for t in TEXTS]).to_disk(path)
    examples = reader_examples(nlp, path)
    losses = train(nlp, examples, n_iter=100)
    return nlp, examples, losses


def test_overfit_tiny_transformer(trained_trf):
    nlp, examples, losses = trained_trf
    scores = nlp.evaluate(examples)
    print("tiny transformer:", losses, {k: scores[k] for k in ("punct_f", "punct_macro_f", "sents_f")})
    assert scores["punct_f"] == 1.0
    assert nlp("so how was the trip it was long but we saw the coast").text == TEXTS[0]


def test_transformer_round_trip(trained_trf, tmp_path):
    nlp, examples, _ = trained_trf
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    texts = [eg.predicted.text for eg in examples]
    assert [d.text for d in loaded.pipe(texts)] == [d.text for d in nlp.pipe(texts)]
    pipe, loaded_pipe = nlp.get_pipe("punctuator"), loaded.get_pipe("punctuator")
    pipe.rewrite = loaded_pipe.rewrite = False
    try:
        a = pipe.predict([nlp.get_pipe("transformer")(nlp.make_doc(texts[0]))])
        b = loaded_pipe.predict([loaded.get_pipe("transformer")(loaded.make_doc(texts[0]))])
        numpy.testing.assert_allclose(a[0], b[0], atol=1e-5)
    finally:
        pipe.rewrite = True


def test_the_config_cuts_the_encoder_to_its_lowest_layers(tiny_bert, tmp_path):
    """As configs/en_small_trf.cfg does (num_hidden_layers in transformer_config):
    the lower layers keep their pretrained weights, and the cut encoder is
    what is saved and loaded."""
    import torch
    from transformers import AutoModel

    from spacy_punct.layers.hf_models import hf_layers

    def encoder(nlp):
        (layer,) = hf_layers(nlp)
        return layer.shims[0]._model

    settings = {"num_hidden_layers": 1, "attention_probs_dropout_prob": 0.0}
    nlp = trf_pipeline(tiny_bert, cpu_precision="float32", transformer_config=settings)
    nlp.initialize()
    cut, full = encoder(nlp), AutoModel.from_pretrained(tiny_bert)
    assert len(full.encoder.layer) == 2 and len(cut.encoder.layer) == 1
    assert cut.config.attention_probs_dropout_prob == 0.0
    torch.testing.assert_close(cut.encoder.layer[0].state_dict(), full.encoder.layer[0].state_dict())
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    assert len(encoder(loaded).encoder.layer) == 1
    text = "so how was the trip it was long but we saw the coast"
    assert loaded(text).text == nlp(text).text


def test_empty_and_whitespace_docs_in_a_batch(trained_trf):
    nlp, _, _ = trained_trf
    texts = ["", "so how was the trip", "   ", "where did you stay"]
    assert [d.text for d in nlp.pipe(texts)] == ["", "So, how was the trip?", "   ", "Where did you stay?"]


def test_line_breaks_inside_a_text_change_no_prediction(tiny_bert):
    """Whitespace tokens align to no word piece, take no place in a window
    (`spacy_punct.word_strided_spans.v1`, windows of 4 words every 3 here), and
    the punctuator's head (a BiLSTM here, as in the CPU transformer recipe)
    reads the words' rows only: a text in lines gets the probabilities of the
    same text in one line."""
    context = {"@architectures": "spacy_punct.BiLSTMEncoder.v1", "width": 32, "depth": 1, "dropout": 0.0}
    nlp = trf_pipeline(tiny_bert, window=4, stride=3, context=context)
    nlp.initialize(lambda: [Example(nlp.make_doc(t.lower()), nlp.make_doc(t)) for t in TEXTS])
    output = nlp.get_pipe("punctuator").model.get_ref("output_layer")
    output.set_param("W", numpy.random.default_rng(0).uniform(-1, 1, output.get_param("W").shape).astype("f"))
    pipe = nlp.get_pipe("punctuator")
    pipe.rewrite, pipe.store_probs = False, True
    plain, spaced = nlp.pipe(["so how was the trip it was long", "so how was the trip\n\nit  was\tlong"])
    words = [t.i for t in spaced if not t.is_space]
    numpy.testing.assert_allclose(spaced._.punct_probs[words], plain._.punct_probs, atol=1e-5)
    assert not numpy.allclose(plain._.punct_probs[0], plain._.punct_probs[1], atol=1e-3)


def test_long_doc_through_strided_windows(trained_trf):
    nlp, _, _ = trained_trf
    pipe = nlp.get_pipe("punctuator")
    pipe.store_probs = True
    try:
        words = ("where did you stay in a small hotel near the harbour " * 300).split()
        doc = nlp(Doc(nlp.vocab, words=words))
    finally:
        pipe.store_probs = False
    kept = [t for t in doc if t._.source_i is not None]
    assert [t.text.lower() for t in kept] == words  # 3,300 words, far more than one window
    probs = doc._.punct_probs[[t.i for t in kept]]
    assert probs.shape == (len(words), 4)
    numpy.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert len(list(doc.sents)) > 1


def test_pause_features_on_a_transformer_listener(tiny_bert, tmp_path):
    from spacy.tokens import DocBin

    from spacy_punct.formats.timed import TimedWord, words_doc

    nlp = trf_pipeline(tiny_bert)
    nlp.remove_pipe("punctuator")
    nlp.add_pipe(
        "punctuator",
        config={
            "model": {
                "@architectures": "spacy_punct.PunctuatorModel.v1",
                "hidden_width": 16,
                "tok2vec": {
                    "@architectures": "spacy-transformers.TransformerListener.v1",
                    "pooling": {"@layers": "reduce_mean.v1"},
                },
                "pauses": {"@layers": "spacy_punct.PauseFeatures.v1", "thresholds": [0.28]},
            }
        },
    )
    DocBin(docs=[nlp.make_doc(t) for t in TEXTS[:2]]).to_disk(tmp_path / "tiny.spacy")
    train(nlp, reader_examples(nlp, tmp_path / "tiny.spacy"), n_iter=2)
    timed = words_doc(nlp, [TimedWord("so", 0.0, 0.2), TimedWord("how", 0.3, 0.5), TimedWord("was", 1.5, 1.7)])
    docs = list(nlp.pipe([timed, nlp.make_doc(""), nlp.make_doc("where did you stay")]))
    assert [t.lower_ for t in docs[0] if t._.source_i is not None] == ["so", "how", "was"]
    assert docs[1].text == "" and len(docs[2]) >= 4
