"""Distillation: a teacher pipeline's class probabilities as soft training
targets for a student (a transformer teaching the CPU recipe).

`teacher_docs` writes the teacher's probabilities on the words of training
docs (`token._.teacher_probs`, a dict label -> probability); the reader
carries them to both sides of each example like any custom token attribute,
and the punctuator mixes them into its targets (`distill_weight`).
"""
from typing import Dict, Iterable, Iterator, Optional

import numpy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from ..align import token_table
from ..extensions import set_token_values, token_values
from ..labels import LabelSet
from .corpus import word_records

ATTR = "teacher_probs"


def teacher_docs(teacher: Language, docs: Iterable[Doc], *, lowercase: bool = True,
                 batch_size: int = 8) -> Iterator[Doc]:
    """Each doc with the teacher's class probabilities on its words. The
    teacher reads each whole doc as the reader presents words to a model:
    bare words, lower-cased with `lowercase`."""
    from ..inference import find_punctuator, predict_probs  # inference imports the punctuator, which imports this

    _, pipe = find_punctuator(teacher)
    labels = pipe.labels

    def bare(doc: Doc) -> Doc:
        records = word_records(doc, lowercase)
        return Doc(teacher.vocab, words=[r.seen for r in records], spaces=[r.space for r in records])

    for batch in minibatch(docs, size=batch_size):
        for doc, (_, probs) in zip(batch, predict_probs(teacher, [bare(doc) for doc in batch], batch_size=batch_size)):
            table = token_table(doc)
            offsets = [idx for idx, is_space, is_punct in zip(table.idx, table.is_space, table.punct)
                       if not (is_space or is_punct)]
            values = [{label: round(float(p), 4) for label, p in zip(labels, row)} for row in probs.tolist()]
            set_token_values(doc, ATTR, offsets, values)
            yield doc


def teacher_targets(doc: Doc, label_set: LabelSet) -> numpy.ndarray:
    """Per token, the teacher's probabilities in the order of `label_set`
    (renormalised over its labels); NaN rows where the token has none."""
    offsets = doc.to_array("IDX").tolist() if len(doc) else []
    targets = numpy.full((len(doc), len(label_set)), numpy.nan, dtype="f")
    for i, value in enumerate(token_values(doc, ATTR, offsets)):
        row = _row(value, label_set)
        if row is not None:
            targets[i] = row
    return targets


def _row(value: Optional[Dict[str, float]], label_set: LabelSet) -> Optional[numpy.ndarray]:
    if not value:
        return None
    row = numpy.array([value.get(label, 0.0) for label in label_set.labels], dtype="f")
    total = row.sum()
    return row / total if total > 0 else None


def mix_teacher_probs(truth: numpy.ndarray, doc: Doc, label_set: LabelSet, weight: float) -> None:
    """Mix the teacher's probabilities into one-hot targets, in place:
    (1 - weight) * gold + weight * teacher where the doc's token has them."""
    targets = teacher_targets(doc, label_set)
    rows = ~numpy.isnan(targets[:, 0])
    truth[rows] = (1.0 - weight) * truth[rows] + weight * targets[rows]
