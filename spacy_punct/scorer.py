"""Punctuation scores: per-class and overall P/R/F1, macro F1, slot error rate,
a confusion matrix (gold class -> predicted class -> words) and
sentence-boundary P/R/F.

A mark is identified by the position, in the lower-cased words without
whitespace or punctuation, of the word it follows. The predicted Doc may
therefore be the input Doc annotated in place or the rewritten Doc, and may be
tokenised differently from the reference: the scores are the same.
"""
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.scorer import PRFScore
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from .labels import DEFAULT_LABELS, EMPTY, SENTENCE_FINAL, label_for_mark, punct_flags


def word_offsets(doc: Doc) -> Tuple[str, List[Optional[int]]]:
    """The doc's words, lower-cased and joined, and per token the end offset of
    its word in that string (None for whitespace and punctuation tokens)."""
    chars: List[str] = []
    ends: List[Optional[int]] = []
    length = 0
    for token, is_punct in zip(doc, punct_flags(doc)):
        if token.is_space or is_punct:
            ends.append(None)
            continue
        chars.append(token.lower_)
        length += len(token.lower_)
        ends.append(length)
    return "".join(chars), ends


def doc_marks(doc: Doc, labels: Sequence[str]) -> Tuple[str, Dict[int, str]]:
    """The doc's joined words and the class after each word, keyed by the
    word's end offset (EMPTY left out)."""
    text, ends = word_offsets(doc)
    marks: Dict[int, str] = {}
    for token, end in zip(doc, ends):
        if end is not None:
            label = label_for_mark(token._.punct or "", labels)
            if label != EMPTY:
                marks[end] = label
    return text, marks


def score_punctuation(
    examples: Iterable[Example], labels: Sequence[str] = DEFAULT_LABELS, **kwargs: Any
) -> Dict[str, Any]:
    """Score the predicted `token._.punct` against the reference's."""
    classes = [label for label in labels if label != EMPTY]
    per_class = {label: PRFScore() for label in classes}
    sents = PRFScore()
    confusion = {gold: {guess: 0 for guess in labels} for gold in labels}
    substitutions = deletions = insertions = n_gold = 0
    n_examples = n_words = 0
    for example in examples:
        n_examples += 1
        n_words += sum(end is not None for end in word_offsets(example.reference)[1])
        gold_text, gold = doc_marks(example.reference, labels)
        pred_text, pred = doc_marks(example.predicted, labels)
        if gold_text != pred_text:
            raise ValueError(
                "The predicted and reference words differ, so their punctuation "
                f"cannot be compared: {pred_text[:60]!r} vs {gold_text[:60]!r}."
            )
        n_gold += len(gold)
        for offset in gold.keys() | pred.keys():
            confusion[gold.get(offset, EMPTY)][pred.get(offset, EMPTY)] += 1
        for offset, label in gold.items():
            guess = pred.get(offset)
            if guess == label:
                per_class[label].tp += 1
            else:
                per_class[label].fn += 1
                if guess is None:
                    deletions += 1
                else:
                    substitutions += 1
                    per_class[guess].fp += 1
        for offset, guess in pred.items():
            if offset not in gold:
                insertions += 1
                per_class[guess].fp += 1
        sents.score_set(
            {o for o, label in pred.items() if label in SENTENCE_FINAL},
            {o for o, label in gold.items() if label in SENTENCE_FINAL},
        )
    if n_examples == 0:
        return {key: None for key in _KEYS}
    micro = PRFScore()
    for score in per_class.values():
        micro += score
    confusion[EMPTY][EMPTY] = n_words - sum(sum(row.values()) for row in confusion.values())
    return {
        "punct_p": micro.precision,
        "punct_r": micro.recall,
        "punct_f": micro.fscore,
        "punct_macro_f": _macro_f(per_class.values()),
        "punct_ser": (substitutions + deletions + insertions) / n_gold if n_gold else 0.0,
        "punct_per_type": {
            label: {"p": s.precision, "r": s.recall, "f": s.fscore, "support": s.tp + s.fn}
            for label, s in per_class.items()
        },
        "punct_confusion": confusion,
        "sents_p": sents.precision,
        "sents_r": sents.recall,
        "sents_f": sents.fscore,
    }


def _macro_f(scores: Iterable[PRFScore]) -> float:
    """Mean F1 over the classes that occur in the reference or the predictions."""
    present = [s.fscore for s in scores if s.tp + s.fn + s.fp > 0]
    return sum(present) / len(present) if present else 0.0


_KEYS = (
    "punct_p",
    "punct_r",
    "punct_f",
    "punct_macro_f",
    "punct_ser",
    "punct_per_type",
    "punct_confusion",
    "sents_p",
    "sents_r",
    "sents_f",
)


@registry.scorers("spacy_punct.punct_scorer.v1")
def make_punct_scorer() -> Callable[..., Dict[str, Any]]:
    return score_punctuation
