"""Properties of the bundled pipelines over generated lines: a line's output
is the same alone and beside any other lines, in any batch size."""
import random
import threading

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


@pytest.mark.parametrize("name", ["en_punct_trf", "en_punct_sm", "hu_punct_trf"])
def test_one_pipeline_from_four_threads_gives_the_output_of_one_thread(name):
    """Each thread punctuates every line in its own random batches, beside
    random partner lines, while the other three do the same."""
    nlp = load_pipeline(name)
    lines = _lines(60, seed=11)
    alone = [doc.text for doc in punctuate(nlp, lines, batch_size=8)]
    outputs: dict = {}

    def work(seed: int) -> None:
        rng = random.Random(seed)
        order = list(range(len(lines)))
        rng.shuffle(order)
        while order:
            size = rng.randint(1, 9)
            batch, order = order[:size], order[size:]
            for i, doc in zip(batch, punctuate(nlp, [lines[i] for i in batch], batch_size=len(batch))):
                outputs.setdefault(i, []).append(doc.text)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    differ = [i for i in range(len(lines)) if outputs.get(i) != [alone[i]] * 4]
    assert not differ, (name, len(differ), lines[differ[0]], outputs.get(differ[0]), alone[differ[0]])
