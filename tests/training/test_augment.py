import random

import pytest

from spacy_punct.training.augment import create_asr_noise_augmenter
from spacy_punct.training.corpus import PunctCorpus


def test_asr_noise_changes_words_and_keeps_alignment(nlp, corpus_path):
    random.seed(0)
    augment = create_asr_noise_augmenter(level=0.5, substitute=0.4, delete=0.3)
    examples = list(PunctCorpus(corpus_path, max_length=0)(nlp))
    noisy = [out for eg in examples for out in augment(nlp, eg)]
    assert len(noisy) == len(examples)
    texts = " ".join(eg.predicted.text for eg in noisy)
    assert "[UNK]" in texts
    assert texts != " ".join(eg.predicted.text for eg in examples)
    for eg in noisy:
        assert eg.alignment.x2y.lengths.tolist() == [1] * len(eg.predicted)
        assert eg.predicted.text.lower().split() == eg.reference.text.lower().split()
    # deleted words hand their mark on: no sentence end is lost except at a doc start
    n_final = sum(t._.punct in ".?" for eg in examples for t in eg.reference)
    assert sum(t._.punct in ".?" for eg in noisy for t in eg.reference) >= n_final - len(examples)


def test_asr_noise_level_zero_is_identity(nlp, corpus_path):
    augment = create_asr_noise_augmenter(level=0.0)
    eg = next(iter(PunctCorpus(corpus_path, max_length=0)(nlp)))
    assert list(augment(nlp, eg)) == [eg]


def test_asr_noise_rejects_bad_rates():
    with pytest.raises(ValueError):
        create_asr_noise_augmenter(level=1.5)
    with pytest.raises(ValueError):
        create_asr_noise_augmenter(substitute=0.7, delete=0.7)
