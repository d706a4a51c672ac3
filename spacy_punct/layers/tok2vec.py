"""Models that read a doc's words only: whitespace tokens, and punctuation
that no model reads in training, never reach them.

spaCy keeps whitespace beyond a single space as tokens of its own (`'  '`,
`'\\n'`, `'\\t'`). The training reader writes bare words, so a model reading
such a token meets something it never saw, between words it should read
together: `the word  double` gave `double` a capital, and a document of
several lines lost the marks at its line ends. Marks in the input (quotes,
brackets, a comma to be kept or replaced) are as foreign to it (dashes,
slashes and apostrophes are not: the training text has them as words where
a treebank tags them so). With these layers every whitespace token and
every such mark gets a zero row, and every word the vectors and predictions
it would get without them. A tok2vec trained on text that keeps some of its
marks (the repair mode's input, `spacy_punct.repair_input.v1`) can read them
instead (`read_marks`): only whitespace is then left out.
"""

from typing import Callable, List, Optional, Tuple, cast

import numpy
from spacy.attrs import IS_ASCII, IS_PUNCT, IS_SPACE, ORTH, SPACY
from spacy.strings import get_string_id
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model
from thinc.types import Floats2d, Ints1d

from ..labels import is_unread_mark
from ..words import is_invisible, tag_tokens

_TAG_OPENERS = numpy.array([get_string_id(opener) for opener in "[<{"], dtype="uint64")


def word_rows(doc: Doc, marks: bool = False) -> Optional[numpy.ndarray]:
    """The indices of the doc's words: tokens that are neither whitespace nor
    punctuation the models never read in training (`labels.is_unread_mark`),
    or with `marks` every token but whitespace; None when every token is
    one (the common case, which needs no copying)."""
    hidden = not_word_tokens(doc, marks)
    if hidden is None:
        return None
    return numpy.flatnonzero(~hidden)


def not_word_tokens(doc: Doc, marks: bool = False) -> Optional[numpy.ndarray]:
    """Per token, whether it is whitespace (format characters alone, such as
    a zero-width space, and a recogniser's tags such as `[laughter]`
    included: `words.is_invisible`, `words.tag_tokens`) or, unless `marks`,
    unread punctuation; None when no token is."""
    if not len(doc):
        return None
    columns = doc.to_array([IS_SPACE, IS_PUNCT, ORTH, IS_ASCII, SPACY])
    hidden = columns[:, 0] != 0
    strings = doc.vocab.strings
    if numpy.isin(columns[:, 2], _TAG_OPENERS).any():
        texts = [strings[int(orth)] for orth in columns[:, 2]]
        hidden[tag_tokens(texts, (columns[:, 4] != 0).tolist(), hidden.tolist())] = True
    if not marks:  # spaCy's flag first: such a mark is made of punctuation characters
        for i in numpy.flatnonzero(columns[:, 1]).tolist():
            hidden[i] = hidden[i] or is_unread_mark(strings[int(columns[i, 2])])
    for i in numpy.flatnonzero(columns[:, 3] == 0).tolist():  # and format characters are not ASCII
        hidden[i] = hidden[i] or is_invisible(strings[int(columns[i, 2])])
    return hidden if hidden.any() else None


def words_doc(doc: Doc, rows: numpy.ndarray) -> Doc:
    """A doc of the given tokens of `doc`, each followed by a space where it
    was."""
    table = doc.to_array([ORTH, SPACY])[rows]
    strings = doc.vocab.strings
    return Doc(doc.vocab, words=[strings[int(orth)] for orth in table[:, 0]], spaces=[bool(s) for s in table[:, 1]])


@registry.architectures("spacy_punct.Tok2Vec.v1")
def build_tok2vec(
    embed: Model[List[Doc], List[Floats2d]],
    encode: Model[List[Floats2d], List[Floats2d]],
    read_marks: bool = False,
) -> Model[List[Doc], List[Floats2d]]:
    """spaCy's `spacy.Tok2Vec.v2` (`embed`, then `encode`), reading each doc's
    words only, as in training: whitespace tokens and the marks no training
    text shows get zero vectors. With `read_marks`, the marks are read too
    (a recipe whose training input keeps marks: the repair mode's). Its
    weights are those of a `spacy.Tok2Vec.v2`, which it can replace in a
    trained pipeline's config."""
    model: Model[List[Doc], List[Floats2d]] = Model(
        "tok2vec_words",
        _tok2vec_forward,
        layers=[embed, encode],
        init=_tok2vec_init,
        dims={"nI": None, "nO": encode.get_dim("nO") if encode.has_dim("nO") else None},
        attrs={"read_marks": read_marks},
    )
    model.set_ref("embed", embed)
    model.set_ref("encode", encode)
    return model


def _tok2vec_forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    embed, encode = model.layers
    rows = [word_rows(doc, model.attrs["read_marks"]) for doc in docs]
    vectors, backprop_embed = embed(_words_docs(docs, rows), is_train)
    outputs, backprop_encode = encode(vectors, is_train)
    lengths = [len(doc) for doc in docs]

    def backprop(d_outputs: List[Floats2d]) -> List[Doc]:
        return backprop_embed(backprop_encode(gather_rows(model, d_outputs, rows)))

    return scatter_rows(model, outputs, rows, lengths), backprop


def _tok2vec_init(model: Model, X: Optional[List[Doc]] = None, Y=None) -> None:
    embed, encode = model.layers
    if X is None:
        embed.initialize()
        encode.initialize()
    else:
        X = _words_docs(X, [word_rows(doc, model.attrs["read_marks"]) for doc in X])
        embed.initialize(X=X)
        encode.initialize(X=embed.predict(X))
    if encode.has_dim("nO"):
        model.set_dim("nO", encode.get_dim("nO"))


def _words_docs(docs: List[Doc], rows: List[Optional[numpy.ndarray]]) -> List[Doc]:
    return [doc if r is None else words_doc(doc, r) for doc, r in zip(docs, rows)]


def with_word_rows(
    features: Model[List[Doc], List[Floats2d]], head: Model[List[Floats2d], List[Floats2d]]
) -> Model[List[Doc], List[Floats2d]]:
    """`features` over the docs, then `head` (which may read a row's
    neighbours, as a BiLSTM does) over the rows of their words only;
    whitespace tokens get zero rows. Without whitespace tokens, `chain(features,
    head)`."""
    return Model(
        "with_word_rows",
        _with_word_rows_forward,
        layers=[features, head],
        init=_with_word_rows_init,
        dims={"nI": None, "nO": None},
    )


def _with_word_rows_forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    features, head = model.layers
    rows = [word_rows(doc) for doc in docs]
    lengths = [len(doc) for doc in docs]
    Xs, backprop_features = features(docs, is_train)
    Ys, backprop_head = head(gather_rows(model, Xs, rows), is_train)

    def backprop(dYs: List[Floats2d]) -> List[Floats2d]:
        dXs = backprop_head(gather_rows(model, dYs, rows))
        return backprop_features(scatter_rows(model, dXs, rows, lengths))

    return scatter_rows(model, Ys, rows, lengths), backprop


def _with_word_rows_init(model: Model, X: Optional[List[Doc]] = None, Y=None) -> None:
    features, head = model.layers
    features.initialize(X=X)
    if X is None:
        head.initialize()
    else:
        rows = [word_rows(doc) for doc in X]
        head_Y = Y if head.has_dim("nO") is None else None
        head.initialize(X=gather_rows(model, features.predict(X), rows), Y=head_Y)
    for dim, layer in (("nI", features), ("nO", head)):
        if layer.has_dim(dim):
            model.set_dim(dim, layer.get_dim(dim))


def gather_rows(model: Model, arrays: List[Floats2d], rows: List[Optional[numpy.ndarray]]) -> List[Floats2d]:
    """Each array's given rows (all of it where the rows are None)."""
    return [X if r is None else X[_indices(model, r)] for X, r in zip(arrays, rows)]


def scatter_rows(
    model: Model, arrays: List[Floats2d], rows: List[Optional[numpy.ndarray]], lengths: List[int]
) -> List[Floats2d]:
    """The inverse of `gather_rows`: arrays of the docs' lengths, zero but at
    the given rows."""
    out = []
    for X, r, length in zip(arrays, rows, lengths):
        if r is None:
            out.append(X)
            continue
        full = model.ops.xp.zeros((length, X.shape[1]), dtype=X.dtype)
        if len(r):
            full[_indices(model, r)] = X
        out.append(full)
    return out


def _indices(model: Model, rows: numpy.ndarray) -> Ints1d:
    return model.ops.asarray1i(cast(Ints1d, rows))
