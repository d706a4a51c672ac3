"""Teaching a pipeline the repair mode: its punctuator's repair head learns,
from punctuated text damaged as recognisers damage it (`repair.damaged_text`),
to read the punctuator's probabilities with the marks and case the input
keeps, and to tell the stretches that lost their marks. The punctuator and
its encoder stay as they are: plain punctuation is unchanged."""

import random
import sys
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, cast

import numpy
from spacy.language import Language
from spacy.tokens import Doc
from thinc.api import Adam, Model
from thinc.types import Floats2d

from ..labels import LabelSet
from ..repair import DamagedText, damaged_text, repair_features, repaired_probs, slot_records
from ..word_records import WordRecord, word_records
from ..words import mark_slots, sentence_spans, token_table
from .loading import find_punctuator, predict_probs

# the longest stretch of words the head trains on at once (whole sentences)
CHUNK_WORDS = 200


@dataclass
class RepairExample:
    """One damaged text: the head's input rows, the gold class of each slot
    (-1: no gold), whether it was stripped."""

    features: numpy.ndarray
    gold: numpy.ndarray
    stripped: numpy.ndarray


def chunks(records: Sequence[WordRecord], size: int = CHUNK_WORDS) -> Iterator[List[WordRecord]]:
    """Runs of whole sentences of about `size` words."""
    chunk: List[WordRecord] = []
    for start, end in sentence_spans([record.mark for record in records]):
        if chunk and len(chunk) + end - start > size:
            yield chunk
            chunk = []
        chunk.extend(records[start:end])
    if chunk:
        yield chunk


def damaged_docs(
    nlp: Language,
    docs: Iterable[Doc],
    seed: int,
    *,
    strip_all: float = 0.15,
    lower_all: float = 0.25,
    within: float = 0.0,
) -> Iterator[tuple]:
    """(input doc, damaged text, the chunk's records) for each chunk of each
    doc, damaged with a generator seeded by `seed` (see `repair.damaged_text`)."""
    rng = random.Random(seed)
    for doc in docs:
        for chunk in chunks(word_records(doc)):
            damaged = damaged_text(chunk, rng, strip_all=strip_all, lower_all=lower_all, within=within)
            yield nlp.make_doc(damaged.text), damaged, chunk


def repair_examples(
    nlp: Language,
    docs: Iterable[Doc],
    seed: int = 0,
    *,
    within: float = 0.0,
    batch_size: int = 32,
    progress: Optional[Callable] = None,
) -> List[RepairExample]:
    """The head's training examples from punctuated docs: each chunk damaged,
    read by the pipeline up to its punctuator's probabilities."""
    _, pipe = find_punctuator(nlp)
    label_set: LabelSet = pipe.label_set
    damaged = list(damaged_docs(nlp, docs, seed, within=within))
    examples = []
    inputs = (doc for doc, _, _ in damaged)
    for (doc, probs), (_, text, records) in zip(predict_probs(nlp, inputs, batch_size=batch_size), damaged):
        examples.append(_example(doc, probs, cast(DamagedText, text), records, label_set))
        if progress is not None:
            progress(len(examples), len(damaged))
    return examples


def _example(
    doc: Doc, probs: numpy.ndarray, damaged: DamagedText, records: Sequence[WordRecord], label_set: LabelSet
) -> RepairExample:
    table = token_table(doc)
    slots = mark_slots(doc, table)
    owners = slot_records(table, slots, damaged.ends)
    gold = numpy.array([-1 if k is None else label_set.class_of(records[k].mark) for k in owners], dtype="i")
    stripped = numpy.array([k is not None and damaged.stripped[k] for k in owners], dtype="f")
    return RepairExample(repair_features(table, slots, probs, label_set), gold, stripped)


def train_repair_head(
    head: Model,
    examples: Sequence[RepairExample],
    *,
    epochs: int = 4,
    batch_size: int = 16,
    learn_rate: float = 0.002,
    empty_weight: float = 1.0,
    seed: int = 0,
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> Model:
    """Train `head` on the examples: logistic loss on whether each slot was
    stripped, and cross-entropy on the classes of the stripped slots, those
    without a mark weighted by `empty_weight` (below 1: marks found more
    often, as the punctuator's own `empty_weight` does)."""
    rng = random.Random(seed)
    examples = [example for example in examples if len(example.gold)]
    head.initialize(X=[cast(Floats2d, examples[0].features)] if examples else None)
    optimizer = Adam(learn_rate)
    order = list(range(len(examples)))
    for epoch in range(1, epochs + 1):
        rng.shuffle(order)
        total, n_words = 0.0, 0
        for start in range(0, len(order), batch_size):
            batch = [examples[k] for k in order[start : start + batch_size]]
            scores, backprop = head.begin_update([cast(Floats2d, example.features) for example in batch])
            n = max(1, sum(int((example.gold >= 0).sum()) for example in batch))
            gradients = []
            for example, score in zip(batch, scores):
                loss, d_score = _loss(head.ops.to_numpy(score), example, empty_weight)
                total += loss
                gradients.append(head.ops.asarray2f(cast(Floats2d, d_score / n)))
            n_words += n
            backprop(gradients)
            head.finish_update(optimizer)
        log(f"repair head, epoch {epoch}: loss {total / max(1, n_words):.4f} over {n_words} words")
    return head


def _loss(score: numpy.ndarray, example: RepairExample, empty_weight: float = 1.0) -> tuple:
    n_labels = score.shape[1] - 1
    counted = (example.gold >= 0).astype("f")
    probs = repaired_probs(example.features, score)
    # the classes are learned where the marks were taken away
    marked = counted * example.stripped * numpy.where(example.gold == 0, empty_weight, 1.0)
    truth = numpy.zeros_like(probs)
    truth[numpy.arange(len(probs)), numpy.maximum(example.gold, 0)] = 1.0
    stripped = 1.0 / (1.0 + numpy.exp(-score[:, -1]))
    loss = float(-(marked * numpy.log((probs * truth).sum(axis=1) + 1e-9)).sum())
    loss -= float(
        (
            counted
            * (example.stripped * numpy.log(stripped + 1e-9) + (1 - example.stripped) * numpy.log(1 - stripped + 1e-9))
        ).sum()
    )
    d_score = numpy.zeros_like(score)
    d_score[:, :n_labels] = (probs - truth) * marked[:, None]
    d_score[:, -1] = (stripped - example.stripped) * counted
    return loss, d_score


def fit_repair(
    nlp: Language,
    docs: Iterable[Doc],
    *,
    width: int = 64,
    depth: int = 1,
    epochs: int = 4,
    seed: int = 0,
    within: float = 0.0,
    empty_weight: float = 1.0,
    progress: Optional[Callable] = None,
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> int:
    """Give the pipeline's punctuator a repair head trained on `docs`
    (punctuated, cased text; `within`: see `repair.damaged_text`;
    `empty_weight`: see `train_repair_head`); returns the number of words it
    learned from."""
    _, pipe = find_punctuator(nlp)
    examples = repair_examples(nlp, docs, seed, within=within, progress=progress)
    head = train_repair_head(
        pipe.new_repair_model(width, depth), examples, epochs=epochs, empty_weight=empty_weight, seed=seed, log=log
    )
    pipe.set_repair_model(head, width, depth)
    return sum(int((example.gold >= 0).sum()) for example in examples)
