"""Punctuation and case scores. Punctuation: per-class and overall P/R/F1, macro F1, slot error rate,
a confusion matrix (gold class -> predicted class -> words) and
sentence-boundary P/R/F.

Marks are aligned by the word they follow (see `align`): the predicted Doc may
be the input Doc annotated in place or the rewritten Doc, and may be tokenised
differently from the reference: the scores are the same.
"""

import warnings
from typing import Any, Callable, Dict, Iterable, Sequence

import numpy
from spacy.scorer import PRFScore
from spacy.training import Example
from spacy.util import registry

from .align import (
    cased_word_texts,
    doc_classes,
    input_and_reference_marks,
    sentence_initial_words,
    word_texts,
)
from .casing import CASE_LABELS, case_label
from .labels import DEFAULT_LABELS, EMPTY, LabelSet
from .words import word_offsets


def score_punctuation(
    examples: Iterable[Example], labels: Sequence[str] = DEFAULT_LABELS, **kwargs: Any
) -> Dict[str, Any]:
    """Score the predicted `token._.punct` against the reference's."""
    label_set = LabelSet(labels)
    labels = label_set.labels
    final = set(numpy.flatnonzero(label_set.final_mask).tolist())
    per_class = {label: PRFScore() for label in label_set.punctuation}
    sents = PRFScore()
    confusion = {gold: {guess: 0 for guess in labels} for gold in labels}
    substitutions = deletions = insertions = n_gold = 0
    n_examples = n_words = 0
    examples = list(examples)
    problem = _input_had_the_marks(examples, label_set)
    if problem:
        warnings.warn(problem, UnscorableWarning, stacklevel=2)
        return {key: None for key in _KEYS}
    for example in examples:
        gold_text, gold_classes = doc_classes(example.reference, label_set)
        pred_text, pred_classes = doc_classes(example.predicted, label_set)
        unknown = {end for end, index in gold_classes.items() if index < 0}  # context-only words
        if unknown:
            gold_classes = {end: index for end, index in gold_classes.items() if end not in unknown}
            pred_classes = {end: index for end, index in pred_classes.items() if end not in unknown}
        gold = {end: labels[index] for end, index in gold_classes.items()}
        pred = {end: labels[index] for end, index in pred_classes.items()}
        if gold_text != pred_text:
            warnings.warn(
                "The predicted and reference words differ, so their punctuation cannot be compared: "
                f"{pred_text[:60]!r} vs {gold_text[:60]!r}; the example is left out of the scores.",
                UnscorableWarning,
                stacklevel=2,
            )
            continue
        n_examples += 1
        n_words += sum(end is not None for end in word_offsets(example.reference)[1])
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
            {o for o, index in pred_classes.items() if index in final},
            {o for o, index in gold_classes.items() if index in final},
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


class UnscorableWarning(UserWarning):
    """Examples that a scorer cannot score: inside spaCy's loops (nlp.evaluate,
    spacy train) it gives no scores for them rather than raising."""


def _input_had_the_marks(examples: Sequence[Example], label_set: LabelSet) -> str:
    """Why there is nothing to score where the input already had most of the
    natural references' marks (`spacy evaluate` and spaCy's `Corpus` read each
    doc's own text as the input; data for another component, such as NER
    data), else ""."""
    n_input, n_reference = input_and_reference_marks(examples, label_set)
    if n_reference and n_input >= n_reference / 2:
        return (
            f"No punctuation scores: the input already had {n_input} of the reference's {n_reference} marks "
            "(spacy evaluate reads each doc's own text as the input), so there was nothing to restore. Score "
            "bare input: spacy-punct evaluate PIPELINE DATA, PunctCorpus as the reader, or spacy evaluate on "
            "the gold form written by spacy-punct strip DATA GOLD."
        )
    return ""


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


_CASE_KEYS = ("case_p", "case_r", "case_f", "case_initial_f", "case_inner_f", "case_per_type")


def predicted_forms(doc) -> Dict[int, str]:
    """The predicted words as they will be written, keyed like `word_texts`:
    a rewritten doc's own text, else each word's `token._.truecase` where the
    truecaser set it."""
    forms = word_texts(doc)
    if doc._.source_map is not None:
        return forms
    _, ends = word_offsets(doc)
    for token, end in zip(doc, ends):
        if end is not None and token._.truecase is not None:
            forms[end] = token._.truecase
    return forms


def score_case(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """Case scores over the words of cased references (references without a
    capital are left out): per case class P/R/F1, and P/R/F1 over the words
    that are not lower-case (right when written exactly as in the reference),
    overall, sentence-initial and the rest."""
    per_class = {label: PRFScore() for label in CASE_LABELS}
    scores = {part: PRFScore() for part in ("all", "initial", "inner")}
    n_docs = 0
    examples = list(examples)
    problem = _input_had_the_case(examples)
    if problem:
        warnings.warn(problem, UnscorableWarning, stacklevel=2)
        return {key: None for key in _CASE_KEYS}
    for example in examples:
        gold = cased_word_texts(example.reference)
        if not gold:
            continue
        n_docs += 1
        pred = predicted_forms(example.predicted)
        initial = sentence_initial_words(example.reference)
        for end, gold_text in gold.items():
            guess = pred.get(end)
            if guess is None:
                continue
            gold_label, guess_label = case_label(gold_text), case_label(guess)
            if gold_label == guess_label:
                per_class[gold_label].tp += 1
            else:
                per_class[gold_label].fn += 1
                per_class[guess_label].fp += 1
            right = guess == gold_text
            for part in ("all", "initial" if end in initial else "inner"):
                score = scores[part]
                if gold_label != "LOWER":
                    score.tp += right
                    score.fn += not right
                if guess_label != "LOWER" and not right:
                    score.fp += 1
    if not n_docs:
        if examples:
            warnings.warn(
                "No case scores: the references have no capitals (a gold form that spacy-punct strip "
                "lower-cased before it kept the case in token._.gold_case: write it again with "
                "spacy-punct strip DATA GOLD).",
                UnscorableWarning,
                stacklevel=2,
            )
        return {key: None for key in _CASE_KEYS}
    return {
        "case_p": scores["all"].precision,
        "case_r": scores["all"].recall,
        "case_f": scores["all"].fscore,
        "case_initial_f": scores["initial"].fscore,
        "case_inner_f": scores["inner"].fscore,
        "case_per_type": {label: s.to_dict() for label, s in per_class.items()},
    }


def _input_had_the_case(examples: Sequence[Example]) -> str:
    """Why there is no case to score where the input already had most of the
    references' capitals (spacy evaluate reads each doc's own text, cased, as
    the input), else ""."""
    n_reference = n_input = 0
    for example in examples:
        predicted = example.predicted
        if predicted._.source_text is not None:  # rewritten: its input text
            words = predicted._.source_text.split()
        elif any(token._.truecase is not None for token in predicted):  # cased in place: its tokens are the input
            words = [token.text for token in predicted]
        else:  # the words as predicted: no input to look at
            continue
        n_reference += sum(text != text.lower() for text in cased_word_texts(example.reference).values())
        n_input += sum(word != word.lower() for word in words)
    if n_reference and n_input >= n_reference / 2:
        return (
            f"No case scores: the input already had {n_input} capitalised words against the reference's "
            f"{n_reference} (spacy evaluate reads each doc's own text, cased, as the input), so there was no case "
            "to restore. Score lower-case input: spacy-punct evaluate PIPELINE DATA, or spacy evaluate on the "
            "gold form written by spacy-punct strip DATA GOLD."
        )
    return ""


@registry.scorers("spacy_punct.case_scorer.v1")
def make_case_scorer() -> Callable[..., Dict[str, Any]]:
    return score_case
