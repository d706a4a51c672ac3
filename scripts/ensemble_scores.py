"""Micro F1 of pipelines' punctuation on a .spacy set, alone and as
ensembles (the mean of their class probabilities per word, then the most
probable class): whether several pipelines together would teach more than
each (`spacy-punct distill --ensemble`). Each pipeline reads the bare,
lower-cased words as a student's reader shows them, with its windows as
configured; every subset of the pipelines is scored.

    python scripts/ensemble_scores.py DATA PIPELINE PIPELINE [PIPELINE ...] [--threads N]
"""

import argparse
import itertools
from typing import Dict, List, Sequence, Tuple

import numpy
from spacy.tokens import Doc

from spacy_punct.labels import written_label
from spacy_punct.pipelines import find_punctuator, load_pipeline, predict_probs
from spacy_punct.word_records import read_docbins, word_records

EMPTY = "EMPTY"


def gold_and_probs(
    data: str, names: Sequence[str], threads: int = 1
) -> Tuple[List[str], Dict[str, numpy.ndarray], List[str]]:
    """The gold class of each word of `data`, each pipeline's class
    probabilities (words, classes) and the classes, which the pipelines must share."""
    gold: List[str] = []
    probs: Dict[str, numpy.ndarray] = {}
    labels: List[str] = []
    for name in names:
        nlp = load_pipeline(name, threads=threads)
        these = list(find_punctuator(nlp)[1].labels)
        if labels and these != labels:
            raise ValueError(f"{name} has the classes {these}, the first pipeline {labels}.")
        labels = these
        bare, words = [], []
        for doc in read_docbins(data, nlp.vocab):
            records = word_records(doc, lowercase=True)
            words.extend(records)
            bare.append(Doc(nlp.vocab, words=[r.seen for r in records], spaces=[r.space for r in records]))
        if not gold:
            gold = [(written_label(r.mark) or EMPTY) if r.mark else EMPTY for r in words]
        probs[name] = numpy.concatenate([p for _, p in predict_probs(nlp, bare, batch_size=8)])
    return gold, probs, labels


def micro_f1(probs: numpy.ndarray, gold: Sequence[str], labels: Sequence[str]) -> float:
    """Micro F1 (0-100) of the most probable classes over the classes but EMPTY."""
    predicted = numpy.array(labels)[probs.argmax(axis=1)]
    truth = numpy.array(gold)
    hits = int(((predicted == truth) & (truth != EMPTY)).sum())
    guesses = int((predicted != EMPTY).sum())
    marks = int((truth != EMPTY).sum())
    return 200.0 * hits / (guesses + marks) if guesses + marks else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="a .spacy file or folder of punctuated text")
    parser.add_argument("pipelines", nargs="+", help="pipeline names or paths with punctuators of the same classes")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args()
    try:
        gold, probs, labels = gold_and_probs(args.data, args.pipelines, args.threads)
    except (OSError, ValueError) as err:
        raise SystemExit(f"Error: {err}") from None
    for size in range(1, len(args.pipelines) + 1):
        for subset in itertools.combinations(args.pipelines, size):
            mean = sum(probs[name] for name in subset) / size
            print(f"{micro_f1(mean, gold, labels):6.2f}  {' + '.join(subset)}")


if __name__ == "__main__":
    main()
