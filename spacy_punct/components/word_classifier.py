"""What the punctuator and the truecaser share as classifiers of words
(`spacy_punct.PunctuatorModel.v1` under both): initialization on a sample of
examples, the weighted cross-entropy of their losses with a teacher's
probabilities mixed into the targets, the check that the encoder they
listen to ran, and a component's learning rate as a multiple of the
optimizer's (`ScaledOptimizer`)."""

from itertools import islice
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, cast

import numpy
from spacy.errors import Errors
from spacy.tokens import Doc
from spacy.training import Example
from thinc.api import Config, Model, Ops, Optimizer
from thinc.types import Floats1d, Floats2d

from ..extensions import TEACHER_ATTR, token_values
from ..labels import LabelSet


def default_model(hidden_width: int) -> Config:
    """The default `model` of a word classifier: `spacy_punct.PunctuatorModel.v1`
    with a `hidden_width` ReLU layer on its own small CNN tok2vec."""
    return Config().from_str(
        f"""
[model]
@architectures = "spacy_punct.PunctuatorModel.v1"
hidden_width = {hidden_width}
dropout = 0.2
nO = null

[model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 96
depth = 4
embed_size = 2000
window_size = 1
maxout_pieces = 3
subword_features = true
"""
    )["model"]


def initialize_on_sample(
    model: Model,
    get_examples: Callable[[], Iterable[Example]],
    gold: Callable[[Example], Sequence[int]],
    n_labels: int,
    name: str,
    sample_size: int = 10,
) -> None:
    """Set the output layer's width to `n_labels` and initialize `model` on
    the first `sample_size` examples, with each word's gold class one-hot
    (a class below 0, a word without one, counts as the first)."""
    doc_sample, label_sample = [], []
    for example in islice(get_examples(), sample_size):
        classes = numpy.maximum(numpy.asarray(gold(example), dtype="i"), 0)
        one_hot = numpy.zeros((len(classes), n_labels), dtype="f")
        one_hot[numpy.arange(len(classes)), classes] = 1.0
        doc_sample.append(example.predicted)
        label_sample.append(model.ops.asarray2f(cast(Floats2d, one_hot)))
    if not doc_sample:
        raise ValueError(Errors.E923.format(name=name))
    output_layer = model.get_ref("output_layer")
    if not output_layer.has_dim("nO"):
        output_layer.set_dim("nO", n_labels)
    model.initialize(X=doc_sample, Y=label_sample)


def weighted_cross_entropy(
    ops: Ops, probs: Floats2d, truth: numpy.ndarray, weights: numpy.ndarray
) -> Tuple[float, Floats2d]:
    """The cross-entropy of each row of `probs` against the row of `truth` (a
    distribution over the classes), weighted per row: their sum, and its
    gradient on the softmax's input. Rows of weight 0 count for nothing."""
    weight: Floats1d = ops.asarray1f(cast(Floats1d, weights.astype("f")))
    target = ops.asarray2f(cast(Floats2d, truth.astype("f")))
    loss = float(-(weight * (target * ops.xp.log(probs + 1e-9)).sum(axis=1)).sum()) if len(target) else 0.0
    return loss, cast(Floats2d, (probs - target) * weight.reshape((-1, 1)))


def mean_over_words(losses: List[float], d_scores: List[Floats2d], n_words: int) -> Tuple[float, List[Floats2d]]:
    """A batch's loss and gradients divided by its number of counted words."""
    n_words = max(n_words, 1)
    return sum(losses) / n_words, [d / n_words for d in d_scores]


def check_encoder_ran(model: Model, docs: Sequence[Doc], name: str) -> None:
    """Raise where `model` listens to an encoder (a tok2vec or a
    transformer) that did not run on any of `docs`: a component sourced into
    a pipeline without its encoder reads zero vectors and predicts nothing
    (spaCy's listeners return zeros then, silently)."""
    docs = [doc for doc in docs if len(doc)]
    if not docs:
        return
    for node in model.walk():
        if node.name == "tok2vec-listener":
            ran = any(doc.tensor.size for doc in docs)
        elif node.name == "transformer-listener":
            ran = any(doc.has_extension("trf_data") and doc._.trf_data is not None for doc in docs)
        else:
            continue
        if not ran:
            raise ValueError(
                f"'{name}' listens to an encoder ({getattr(node, 'upstream_name', None)!r}) that did not run: it is not in the "
                "pipeline, or is disabled. Add the encoder with it, or give it its own copy in the source "
                f"pipeline before sourcing it: source_nlp.replace_listeners(<encoder name>, '{name}', ['model.tok2vec'])."
            )
        return


def teacher_targets(doc: Doc, label_set: LabelSet) -> numpy.ndarray:
    """Per token, the teacher's probabilities in the order of `label_set`
    (renormalised over its labels); NaN rows where the token has none."""
    offsets = doc.to_array("IDX").tolist() if len(doc) else []
    targets = numpy.full((len(doc), len(label_set)), numpy.nan, dtype="f")
    for i, value in enumerate(token_values(doc, TEACHER_ATTR, offsets)):
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


class ScaledOptimizer:
    """An optimizer that applies another one's update at a scaled learning rate."""

    def __init__(self, optimizer: Optimizer, scale: float) -> None:
        self.optimizer = optimizer
        self.scale = scale

    def __call__(self, key, weights, gradient, *, lr_scale: float = 1.0):  # type: ignore[no-untyped-def]
        return self.optimizer(key, weights, gradient, lr_scale=lr_scale * self.scale)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.optimizer, name)
