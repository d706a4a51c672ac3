import pytest
from spacy.training import Example

from spacy_punct.align import doc_classes, gold_classes
from spacy_punct.labels import DEFAULT_LABELS, LabelSet

from .conftest import gold

LABELS = LabelSet(DEFAULT_LABELS)


def test_gold_classes_per_predicted_token(nlp):
    reference = gold(nlp.vocab, ["So", "how", "was", "it"], [",", "", "", "?"])
    predicted = nlp("so how was it")
    assert gold_classes(Example(predicted, reference), LABELS) == [1, 0, 0, 3]
    predicted = nlp("so , how was it ?")
    assert gold_classes(Example(predicted, reference), LABELS) == [1, -1, 0, 0, 3, -1]
    with pytest.raises(ValueError, match="different words"):
        gold_classes(Example(nlp("so how is it"), reference), LABELS)


def test_doc_classes(nlp):
    doc = nlp("a b c")
    for token, mark in zip(doc, [",", "!", ""]):
        token._.punct = mark
    assert doc_classes(doc, LABELS) == ("abc", {1: 1, 2: 2})


def test_a_natural_punctuated_reference_gives_its_marks(nlp):
    """spaCy's natural data form, Example(make_doc(bare), make_doc(punctuated)),
    trained on gold that was all EMPTY."""
    from spacy.training import Example

    from spacy_punct.align import gold_classes
    from spacy_punct.labels import LabelSet

    labels = LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])
    example = Example(
        nlp.make_doc("so how was the trip it was long"), nlp.make_doc("So, how was the trip? It was long.")
    )
    assert gold_classes(example, labels) == [1, 0, 0, 0, 3, 0, 0, 2]
