"""The repair head: reads, at every mark slot of a half-punctuated text, the
punctuator's probabilities with the mark and case the input has there
(`repair.repair_features`), through a small BiLSTM, and gives the classes'
scores and whether the slot lies in a stretch that lost its marks."""

from typing import List

from spacy.util import registry
from thinc.api import Linear, Model, Relu, chain, with_array
from thinc.types import Floats2d

from .bilstm import build_bilstm_encoder


@registry.architectures("spacy_punct.RepairHead.v1")
def build_repair_head(
    n_features: int, n_labels: int, width: int = 64, depth: int = 1
) -> Model[List[Floats2d], List[Floats2d]]:
    """Rows of `n_features` per slot -> `n_labels` class scores and one
    stripped score per slot (logits: the caller takes the softmax of the
    first and the sigmoid of the last)."""
    return chain(
        with_array(Relu(nO=width, nI=n_features)),
        build_bilstm_encoder(width, depth, 0.0),
        with_array(Linear(nO=n_labels + 1, nI=width)),
    )
