"""Augmenters for punctuation training examples."""
import random
from typing import Callable, Iterator, List

from spacy.language import Language
from spacy.training import Example
from spacy.util import registry

from .corpus import make_example
from .labels import stronger


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
    sides of the example change alike, so the gold marks stay aligned.
    """
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"level must be in [0, 1], not {level}.")
    if substitute < 0 or delete < 0 or substitute + delete > 1.0:
        raise ValueError("substitute and delete must be >= 0 and sum to at most 1.")

    def augment(nlp: Language, example: Example) -> Iterator[Example]:
        if level == 0.0 or len(example.predicted) != len(example.reference):
            yield example
            return
        seen: List[str] = []
        words: List[str] = []
        marks: List[str] = []
        spaces: List[bool] = []
        for pred, ref in zip(example.predicted, example.reference):
            mark = ref._.punct or ""
            space = bool(pred.whitespace_)
            draw = random.random() if random.random() < level else None
            if draw is None:
                seen.append(pred.text)
                words.append(ref.text)
            elif draw < substitute:
                seen.append(unknown)
                words.append(unknown)
            elif draw < substitute + delete:
                if marks:
                    marks[-1] = stronger(marks[-1], mark)
                    spaces[-1] = spaces[-1] or space
                continue
            else:
                seen.extend([unknown, pred.text])
                words.extend([unknown, ref.text])
                marks.append("")
                spaces.append(True)
            marks.append(mark)
            spaces.append(space)
        yield make_example(nlp.vocab, seen, words, marks, spaces)

    return augment
