"""Augmenters for punctuation training examples."""
import random
from dataclasses import replace
from typing import Callable, Iterator, List

from spacy.language import Language
from spacy.training import Example
from spacy.util import registry

from ..labels import stronger
from .corpus import WordRecord, example_records, make_example


@registry.augmenters("spacy_punct.asr_noise.v1")
def create_asr_noise_augmenter(
    level: float = 0.1,
    substitute: float = 0.4,
    delete: float = 0.4,
    unknown: str = "[UNK]",
) -> Callable[[Language, Example], Iterator[Example]]:
    """Simulate speech-recognition errors (Alam et al. 2020).

    Each word is altered with probability `level`: replaced by `unknown` with
    probability `substitute`, deleted with probability `delete` (its mark moves
    to the word before), else an `unknown` word is inserted before it. Both
    sides of the example change alike, so the gold marks stay aligned; a
    replaced word keeps its timings, an inserted one has none.
    """
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"level must be in [0, 1], not {level}.")
    if substitute < 0 or delete < 0 or substitute + delete > 1.0:
        raise ValueError("substitute and delete must be >= 0 and sum to at most 1.")

    def augment(nlp: Language, example: Example) -> Iterator[Example]:
        if level == 0.0 or len(example.predicted) != len(example.reference):
            yield example
            return
        noisy: List[WordRecord] = []
        for record in example_records(example):
            draw = random.random() if random.random() < level else None
            if draw is None:
                noisy.append(record)
            elif draw < substitute:
                noisy.append(replace(record, text=unknown, seen=unknown))
            elif draw < substitute + delete:
                if noisy:
                    last = noisy[-1]
                    noisy[-1] = replace(last, mark=stronger(last.mark, record.mark), space=last.space or record.space)
            else:
                noisy.append(WordRecord(unknown, unknown, True, ""))
                noisy.append(record)
        yield make_example(nlp.vocab, noisy)

    return augment
