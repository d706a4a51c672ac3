"""Properties of the bundled pipelines over generated lines: a line's output
is the same alone and beside any other lines, in any batch size."""
import random

import pytest

from spacy_punct import load_pipeline, punctuate

from .test_rewrite_properties import TRICKY, WORDS

SYMBOLS = ["™", "&", "→", "🙂", "<unk>", "[UNK]", "--", "½", "ß"]


def _lines(n: int, seed: int):
    rng = random.Random(seed)
    vocabulary = WORDS + ["said", "meeting", "we", "in", "paris", "the"] * 3
    lines = []
    for _ in range(n):
        words = [rng.choice(TRICKY + SYMBOLS) if rng.random() < 0.15 else rng.choice(vocabulary)
                 for _ in range(rng.randint(1, 40))]
        lines.append(" ".join(words))
    return lines


@pytest.mark.parametrize("name", ["en_punct_trf", "en_punct_sm", "hu_punct_trf", "bn_punct_trf"])
def test_a_line_comes_out_the_same_beside_any_partner_lines(name):
    nlp = load_pipeline(name)
    lines = _lines(48, seed=7) + ["in said paris the meeting the we ™"]
    alone = [next(punctuate(nlp, [line])).text for line in lines]
    rng = random.Random(1)
    for batch_size in (2, 7, 64):
        shuffled = list(range(len(lines)))
        rng.shuffle(shuffled)
        together = [doc.text for doc in punctuate(nlp, [lines[i] for i in shuffled], batch_size=batch_size)]
        assert [together[shuffled.index(i)] for i in range(len(lines))] == alone, (name, batch_size)
