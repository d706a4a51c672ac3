"""Distillation: a teacher pipeline's class probabilities as soft training
targets for a student (a transformer teaching the CPU recipe).

`teacher_docs` writes the teacher's probabilities on the words of training
docs (`token._.teacher_probs`, a dict label -> probability); the reader
carries them to both sides of each example like any custom token attribute,
and the punctuator mixes them into its targets (`distill_weight`,
`word_classifier.mix_teacher_probs`).
"""

from typing import Iterable, Iterator, Sequence, Union

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from ..extensions import TEACHER_ATTR, set_token_values
from ..word_records import word_records
from ..words import token_table
from .loading import find_punctuator, predict_probs


def teacher_docs(
    teacher: Union[Language, Sequence[Language]], docs: Iterable[Doc], *, lowercase: bool = True, batch_size: int = 8
) -> Iterator[Doc]:
    """Each doc with the teacher's class probabilities on its words; several
    teachers (an ensemble, with the same labels) give their mean. Each teacher
    reads each whole doc as the reader presents words to a model: bare words,
    lower-cased with `lowercase`."""
    teachers = [teacher] if isinstance(teacher, Language) else list(teacher)
    if not teachers:
        raise ValueError("teacher_docs needs at least one teacher.")
    labels = find_punctuator(teachers[0])[1].labels
    for other in teachers[1:]:
        if find_punctuator(other)[1].labels != labels:
            raise ValueError(f"the teachers' labels differ: {labels} and {find_punctuator(other)[1].labels}.")

    for batch in minibatch(docs, size=batch_size):
        words = [[(r.seen, r.space) for r in word_records(doc, lowercase)] for doc in batch]
        runs = []
        for nlp in teachers:
            bare = [Doc(nlp.vocab, words=[w for w, _ in ws], spaces=[s for _, s in ws]) for ws in words]
            runs.append([probs for _, probs in predict_probs(nlp, bare, batch_size=batch_size)])
        for doc, doc_probs in zip(batch, zip(*runs)):
            probs = sum(doc_probs) / len(doc_probs)
            table = token_table(doc)
            offsets = [
                idx
                for idx, is_space, is_punct in zip(table.idx, table.is_space, table.punct)
                if not (is_space or is_punct)
            ]
            values = [{label: round(float(p), 4) for label, p in zip(labels, row)} for row in probs.tolist()]
            set_token_values(doc, TEACHER_ATTR, offsets, values)
            yield doc
