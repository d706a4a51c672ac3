"""The registered architecture: token vectors -> MLP -> softmax over the labels."""

from typing import Any, Callable, List, Optional, Tuple

from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model, Relu, Softmax, chain, with_array
from thinc.types import Floats2d

from .pauses import with_pauses
from .tok2vec import with_word_rows


@registry.architectures("spacy_punct.PunctuatorModel.v1")
def build_punctuator_model(
    tok2vec: Model[List[Doc], List[Floats2d]],
    hidden_width: int = 128,
    dropout: float = 0.2,
    nO: Optional[int] = None,
    pauses: Optional[Model[List[Doc], List[Floats2d]]] = None,
    context: Optional[Model[List[Floats2d], List[Floats2d]]] = None,
) -> Model[List[Doc], List[Floats2d]]:
    """Predict, for every token, a distribution over the punctuation classes.

    tok2vec: any token-vector model: `spacy.Tok2VecListener.v1`,
        `spacy-transformers.TransformerListener.v1` or an inline tok2vec.
    hidden_width: width of the ReLU hidden layer; 0 for a linear head.
    dropout: dropout after the hidden layer.
    nO: the number of labels; set by the component when it is initialized.
    pauses: features from word timings appended to the token vectors
        (`spacy_punct.PauseFeatures.v1`); None (the default) reads words only.
    context: a sequence encoder between the token vectors and the head (for
        instance `spacy_punct.BiLSTMEncoder.v1` over a transformer); None: none.

    The head reads the rows of words only: whitespace tokens (`'\\n'`, `'  '`)
    get zero rows, and their neighbours what they would get without them.
    """
    output_layer = Softmax(nO=nO)
    head: Model[Any, Any]
    if hidden_width > 0:
        head = chain(Relu(nO=hidden_width, dropout=dropout), output_layer)
    else:
        head = output_layer
    features = with_pauses(tok2vec, pauses) if pauses is not None else tok2vec
    head = with_array(head)
    if context is not None:
        head = chain(context, head)
    model = with_word_rows(features, with_empty_docs(head))
    model.set_ref("tok2vec", tok2vec)
    model.set_ref("output_layer", output_layer)
    return model


def with_empty_docs(layer: Model[List[Floats2d], List[Floats2d]]) -> Model[List[Floats2d], List[Floats2d]]:
    """Apply `layer` to the docs' rows, giving the (0, 0) arrays that empty
    docs get from a transformer the layer's input width first, so that a batch
    with an empty doc can be flattened or padded."""
    return Model(
        "with_empty_docs",
        _with_empty_docs_forward,
        layers=[layer],
        refs={"layer": layer},
        init=_with_empty_docs_init,
    )


def _input_width(model: Model, Xs: List[Floats2d]) -> int:
    layer = model.get_ref("layer")
    if layer.has_dim("nI"):
        return layer.get_dim("nI")
    return max((X.shape[1] for X in Xs), default=0)


def _with_empty_docs_forward(model: Model, Xs: List[Floats2d], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    width = _input_width(model, Xs)
    shapes = [X.shape for X in Xs]
    Xs = [X if X.shape[0] else model.ops.alloc2f(0, width) for X in Xs]
    Ys, backprop_layer = model.layers[0](Xs, is_train)

    def backprop(dYs: List[Floats2d]) -> List[Floats2d]:
        dXs = backprop_layer(dYs)
        return [dX if shape[0] else model.ops.alloc2f(*shape) for dX, shape in zip(dXs, shapes)]

    return Ys, backprop


def _with_empty_docs_init(model: Model, X: Optional[List[Floats2d]] = None, Y=None) -> None:
    if X is not None:
        width = _input_width(model, X)
        X = [x if x.shape[0] else model.ops.alloc2f(0, width) for x in X]
    model.layers[0].initialize(X=X, Y=Y)
