"""Distillation: a teacher pipeline's class probabilities as soft training
targets for a student (a transformer teaching the CPU recipe).

`teacher_docs` writes the teacher's probabilities on the words of training
docs (`token._.teacher_probs`, a dict label -> probability); the reader
carries them to both sides of each example like any custom token attribute,
and the punctuator mixes them into its targets (`distill_weight`,
`word_classifier.mix_teacher_probs`).
"""
from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from ..align import token_table
from ..extensions import TEACHER_ATTR, set_token_values
from ..pipelines import find_punctuator, predict_probs
from ..word_records import word_records


def teacher_docs(teacher: Language, docs: Iterable[Doc], *, lowercase: bool = True,
                 batch_size: int = 8) -> Iterator[Doc]:
    """Each doc with the teacher's class probabilities on its words. The
    teacher reads each whole doc as the reader presents words to a model:
    bare words, lower-cased with `lowercase`."""
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
            set_token_values(doc, TEACHER_ATTR, offsets, values)
            yield doc
