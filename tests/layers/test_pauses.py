import random

import numpy
import pytest
import spacy
from spacy.tokens import DocBin
from thinc.api import Adam

from spacy_punct.formats.timed import TimedWord, words_doc
from spacy_punct.layers.pauses import build_pause_features, pause_after
from spacy_punct.training.corpus import PunctCorpus

from ..conftest import LISTENER_CONFIG, TOK2VEC_CONFIG, train


def test_pause_after_and_buckets():
    nlp = spacy.blank("en")
    doc = words_doc(nlp, [TimedWord("we", 0.0, 0.2), TimedWord("didn't", 0.25, 0.6), TimedWord("go", 1.5, 1.8)])
    pauses = pause_after(doc)
    assert pauses[:3] == pytest.approx([0.05, 0.0, 0.9]) and numpy.isnan(pauses[3])
    layer = build_pause_features([0.1, 0.28])
    layer.initialize()
    (features,) = layer.predict([doc])
    # columns: unknown, < 0.1, [0.1, 0.28), >= 0.28
    assert features.argmax(axis=1).tolist() == [1, 1, 3, 0]
    (untimed,) = layer.predict([nlp.make_doc("no timings here")])
    assert untimed.argmax(axis=1).tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="increasing"):
        build_pause_features([0.5, 0.2])


def _synthetic_timed_docs(nlp, n_docs, seed):
    """Words drawn at random, so that only the pauses tell where sentences
    end: a sentence end is followed by 0.6-1.0 s of silence, other words by
    0-0.15 s. (No timed corpus is at hand; this data is synthetic.)"""
    rng = random.Random(seed)
    vocab = ["la", "da"]
    docs = []
    for _ in range(n_docs):
        words, time = [], 0.0
        for _ in range(rng.randint(3, 5)):
            sentence = [rng.choice(vocab) for _ in range(rng.randint(2, 5))]
            for i, word in enumerate(sentence):
                last = i == len(sentence) - 1
                words.append(TimedWord(word + ("." if last else ""), time, time + 0.3))
                time += 0.3 + (rng.uniform(0.6, 1.0) if last else rng.uniform(0.0, 0.15))
        docs.append(words_doc(nlp, words))
    return docs


def _pipeline(pauses: bool):
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec", config=TOK2VEC_CONFIG)
    config = {"model": dict(LISTENER_CONFIG["model"])}
    if pauses:
        config["model"]["pauses"] = {"@layers": "spacy_punct.PauseFeatures.v1", "thresholds": [0.28]}
    nlp.add_pipe("punctuator", config=config)
    return nlp


def test_pauses_teach_sentence_ends_that_words_cannot(tmp_path):
    blank = spacy.blank("en")
    for name, seed in (("train", 0), ("test", 1)):
        DocBin(docs=_synthetic_timed_docs(blank, 40, seed), store_user_data=True).to_disk(tmp_path / f"{name}.spacy")
    scores = {}
    for pauses in (False, True):
        nlp = _pipeline(pauses)
        examples = list(PunctCorpus(tmp_path / "train.spacy", max_length=0)(nlp))
        assert examples[0].predicted[0]._.start_time == 0.0  # the reader keeps the timings
        spacy.util.fix_random_seed(0)
        nlp.initialize(lambda examples=examples: examples)
        optimizer = Adam(0.01)  # few steps: a one-hot feature needs a large rate to count
        for _ in range(80):
            nlp.update(examples, sgd=optimizer, drop=0.0)
        test = list(PunctCorpus(tmp_path / "test.spacy", max_length=0)(nlp))
        scores[pauses] = nlp.evaluate(test)["punct_f"]
    assert scores[True] > 0.95 and scores[False] < 0.8, scores


def test_pipeline_with_pauses_round_trips(tmp_path):
    blank = spacy.blank("en")
    docs = _synthetic_timed_docs(blank, 4, 0)
    DocBin(docs=docs, store_user_data=True).to_disk(tmp_path / "d.spacy")
    nlp = _pipeline(True)
    train(nlp, list(PunctCorpus(tmp_path / "d.spacy", max_length=0)(nlp)), n_iter=2)
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    words = [TimedWord("so", 0, 0.2), TimedWord("we", 1.0, 1.2)]
    doc_a, doc_b = (pipeline.get_pipe("tok2vec")(words_doc(pipeline, words)) for pipeline in (nlp, loaded))
    probs_a = nlp.get_pipe("punctuator").predict([doc_a])[0]
    probs_b = loaded.get_pipe("punctuator").predict([doc_b])[0]
    numpy.testing.assert_allclose(probs_a, probs_b, rtol=1e-5)
