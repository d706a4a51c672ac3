import random

import numpy
import spacy
import torch

from spacy_punct.layers.bilstm import PackedBiLSTM, build_bilstm_encoder


def test_each_sequence_is_encoded_as_if_alone():
    model = build_bilstm_encoder(16, 2, 0.0)
    rng = numpy.random.default_rng(0)
    Xs = [rng.normal(size=(n, 16)).astype("f") for n in (5, 12, 1, 7)]
    model.initialize(X=Xs)
    for X, Y in zip(Xs, model.predict(Xs)):
        assert Y.shape == (len(X), 16)
        numpy.testing.assert_allclose(model.predict([X])[0], Y, atol=1e-6)


def test_empty_sequences_beside_others():
    model = build_bilstm_encoder(8, 1, 0.0)
    rng = numpy.random.default_rng(0)
    Xs = [rng.normal(size=(n, 8)).astype("f") for n in (0, 4, 0)]
    model.initialize(X=Xs)
    Ys = model.predict(Xs)
    assert [Y.shape for Y in Ys] == [(0, 8), (4, 8), (0, 8)]
    numpy.testing.assert_allclose(model.predict([Xs[1]])[0], Ys[1], atol=1e-6)
    assert [Y.shape for Y in model.predict([Xs[0], Xs[2]])] == [(0, 8), (0, 8)]


def test_the_padded_cpu_run_gives_the_packed_outputs_and_gradients():
    torch.manual_seed(0)
    encoder = PackedBiLSTM(torch.nn.LSTM(12, 6, 3, bidirectional=True))
    lengths = torch.tensor([9, 0, 1, 4, 9, 2])
    valid = (torch.arange(9).unsqueeze(1) < lengths).unsqueeze(2)
    X = torch.randn(9, 6, 12) * valid
    dY = torch.randn(9, 6, 12)
    runs = []
    for run in (encoder._packed_forward, encoder):  # no dropout: train mode is the same function
        encoder.zero_grad()
        Xr = X.clone().requires_grad_(True)
        Y = run(Xr, lengths)
        (Y * dY * valid).sum().backward()
        runs.append((Y.detach(), Xr.grad, {name: p.grad.clone() for name, p in encoder.named_parameters()}))
    (packed, dX_packed, dW_packed), (padded, dX_padded, dW_padded) = runs
    assert padded.shape == packed.shape == (9, 6, 12)
    torch.testing.assert_close(padded * valid, packed * valid, atol=1e-6, rtol=1e-5)
    assert not (padded * ~valid).any()
    torch.testing.assert_close(dX_padded, dX_packed, atol=1e-5, rtol=1e-4)
    assert set(dW_padded) == set(dW_packed) == {"lstm." + name for name, _ in encoder.lstm.named_parameters()}
    for name in dW_packed:
        torch.testing.assert_close(dW_padded[name], dW_packed[name], atol=1e-5, rtol=1e-4)
    with torch.no_grad():
        torch.testing.assert_close(encoder.eval()(X, lengths), padded)
    assert set(encoder.state_dict()) == {"lstm." + name for name in encoder.lstm.state_dict()}


def test_inference_reads_the_docs_of_each_length_without_padding(monkeypatch):
    torch.manual_seed(0)
    encoder = PackedBiLSTM(torch.nn.LSTM(12, 6, 2, bidirectional=True)).eval()
    lengths = torch.tensor([7, 3, 0, 7, 1, 3])
    valid = (torch.arange(7).unsqueeze(1) < lengths).unsqueeze(2)
    X = torch.randn(7, 6, 12) * valid
    read = []
    run_one_way = encoder._run_one_way
    monkeypatch.setattr(encoder, "_run_one_way", lambda H, *args: read.append(H.shape[:2]) or run_one_way(H, *args))
    with torch.no_grad():
        Y = encoder(X, lengths)
        packed = encoder._packed_forward(X, lengths)
    torch.testing.assert_close(Y, packed * valid, atol=1e-6, rtol=1e-5)
    assert not (Y * ~valid).any()
    # one group per length, two layers of two directions each: no padding read
    assert sorted(set(read)) == [(1, 1), (3, 2), (7, 2)] and len(read) == 12


def test_dropout_between_layers_in_training_only():
    torch.manual_seed(0)
    encoder = PackedBiLSTM(torch.nn.LSTM(8, 4, 2, bidirectional=True, dropout=0.5))
    X, lengths = torch.randn(5, 3, 8), torch.tensor([5, 3, 5])
    with torch.no_grad():
        assert not torch.equal(encoder.train()(X, lengths), encoder(X, lengths))
        torch.testing.assert_close(encoder.eval()(X, lengths), encoder(X, lengths))


def test_gradients_reach_inputs_and_weights():
    model = build_bilstm_encoder(8, 1, 0.0)
    Xs = [numpy.ones((3, 8), dtype="f"), numpy.ones((5, 8), dtype="f")]
    model.initialize(X=Xs)
    Ys, backprop = model.begin_update(Xs)
    dXs = backprop([numpy.ones_like(Y) for Y in Ys])
    assert [dX.shape for dX in dXs] == [(3, 8), (5, 8)] and all(numpy.abs(dX).sum() > 0 for dX in dXs)


def test_depth_zero_is_the_identity():
    model = build_bilstm_encoder(8, 0, 0.0)
    X = [numpy.ones((3, 8), dtype="f")]
    assert numpy.array_equal(model.predict(X)[0], X[0])


def _bilstm_pipeline(encoder: str):
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "tok2vec",
        config={
            "model": {
                "@architectures": "spacy.Tok2Vec.v2",
                "embed": {
                    "@architectures": "spacy.MultiHashEmbed.v2",
                    "width": 32,
                    "attrs": ["NORM", "SHAPE"],
                    "rows": [500, 50],
                    "include_static_vectors": False,
                },
                "encode": {"@architectures": encoder, "width": 32, "depth": 2, "dropout": 0.0},
            }
        },
    )
    pipe = nlp.add_pipe(
        "punctuator",
        config={
            "store_probs": True,
            "rewrite": False,
            "model": {
                "@architectures": "spacy_punct.PunctuatorModel.v1",
                "hidden_width": 16,
                "dropout": 0.0,
                "tok2vec": {"@architectures": "spacy.Tok2VecListener.v1", "width": 32, "upstream": "*"},
            },
        },
    )
    spacy.util.fix_random_seed(0)
    nlp.initialize(lambda: [spacy.training.Example.from_dict(nlp.make_doc("a b"), {})])
    pipe.model.get_ref("output_layer").set_param("W", numpy.random.default_rng(0).normal(size=(4, 16)).astype("f"))
    return nlp


def _max_batch_difference(nlp, texts, seed):
    alone = [nlp(text)._.punct_probs for text in texts]
    rng = random.Random(seed)
    worst = 0.0
    for _ in range(3):
        order = list(range(len(texts)))
        rng.shuffle(order)
        batched = list(nlp.pipe([texts[i] for i in order], batch_size=rng.randint(2, len(texts))))
        for i, doc in zip(order, batched):
            worst = max(worst, float(numpy.abs(doc._.punct_probs - alone[i]).max()))
    return worst


BATCH_TEXTS = [
    " ".join(["so how was the trip it was long but we saw the coast"] * n)[: 7 * n + 3] for n in range(1, 13)
]


def test_output_does_not_depend_on_the_batch():
    """Every text gets the same probabilities alone and in any batch (1e-5)."""
    assert _max_batch_difference(_bilstm_pipeline("spacy_punct.BiLSTMEncoder.v1"), BATCH_TEXTS, seed=0) < 1e-5


def test_spacy_bilstm_encoder_reads_the_padding():
    """Why the recipes use spacy_punct.BiLSTMEncoder.v1: with spaCy's encoder
    the backward LSTM of a short doc reads its batch's padding."""
    assert _max_batch_difference(_bilstm_pipeline("spacy.TorchBiLSTMEncoder.v1"), BATCH_TEXTS, seed=0) > 1e-3
