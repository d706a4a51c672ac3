import numpy

from spacy_punct.layers.repair_head import build_repair_head


def test_the_head_gives_class_scores_and_a_stripped_score_per_slot():
    head = build_repair_head(n_features=11, n_labels=4, width=8)
    docs = [numpy.random.rand(5, 11).astype("f"), numpy.random.rand(2, 11).astype("f")]
    head.initialize(X=docs)
    scores = head.predict(docs)
    assert [s.shape for s in scores] == [(5, 5), (2, 5)]
    # each doc's scores are its own: not changed by its batch
    alone = head.predict(docs[1:])
    assert numpy.allclose(alone[0], scores[1], atol=1e-6)
