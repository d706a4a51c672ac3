import pytest
from spacy.tokens import Doc
from spacy.training import Example

from spacy_punct.rewrite import rewrite_doc
from spacy_punct.scorer import UnscorableWarning, score_punctuation

from .conftest import gold


def _example(nlp, words, gold_marks, pred):
    reference = gold(nlp.vocab, words, gold_marks)
    predicted = Doc(nlp.vocab, words=[w.lower() for w in words])
    for token, mark in zip(predicted, pred):
        token._.punct = mark
    return Example(predicted, reference)


def test_scores_by_hand(nlp):
    words = ["a", "b", "c", "d", "e", "f"]
    gold = [",", "", ".", "", "?", "."]
    pred = [",", ",", "?", "", "", "."]
    scores = score_punctuation([_example(nlp, words, gold, pred)])
    # COMMA tp1 fp1; PERIOD tp1 fn1; QUESTION fp1 fn1
    assert scores["punct_per_type"]["COMMA"] == {"p": 0.5, "r": 1.0, "f": pytest.approx(2 / 3), "support": 1}
    assert scores["punct_per_type"]["PERIOD"]["r"] == 0.5
    assert scores["punct_per_type"]["QUESTION"]["f"] == 0.0
    assert scores["punct_p"] == pytest.approx(2 / 4)
    assert scores["punct_r"] == pytest.approx(2 / 4)
    assert scores["punct_macro_f"] == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)
    confusion = scores["punct_confusion"]
    assert confusion["EMPTY"] == {"EMPTY": 1, "COMMA": 1, "PERIOD": 0, "QUESTION": 0}
    assert confusion["PERIOD"] == {"EMPTY": 0, "COMMA": 0, "PERIOD": 1, "QUESTION": 1}
    assert confusion["QUESTION"]["EMPTY"] == 1 and confusion["COMMA"]["COMMA"] == 1
    assert sum(sum(row.values()) for row in confusion.values()) == len(words)
    # one substitution (. -> ?), one deletion (?), one insertion (,) over 4 gold marks
    assert scores["punct_ser"] == pytest.approx(3 / 4)
    # boundaries after c, e, f (gold) vs c, f (pred)
    assert scores["sents_p"] == 1.0
    assert scores["sents_r"] == pytest.approx(2 / 3)


def test_rewritten_prediction_scores_the_same(nlp):
    words = ["so", "how", "was", "it", "fine"]
    gold = [",", "", "", "?", "."]
    pred = ["", "", "", "?", ","]
    eg = _example(nlp, words, gold, pred)
    plain = score_punctuation([eg])
    rewritten = Example(rewrite_doc(eg.predicted), eg.reference)
    assert rewritten.predicted.text == "So how was it? Fine, "
    assert score_punctuation([rewritten]) == plain


def test_label_set_decides_classes(nlp):
    eg = _example(nlp, ["a", "b"], ["!", "."], ["!", "!"])
    assert score_punctuation([eg])["punct_per_type"]["PERIOD"]["p"] == 1.0
    labels = ["EMPTY", "PERIOD", "EXCLAMATION"]
    assert score_punctuation([eg], labels=labels)["punct_per_type"]["EXCLAMATION"]["p"] == 0.5


def test_mismatched_words_are_left_out_with_a_warning(nlp):
    reference = gold(nlp.vocab, ["a", "b"], ["", "."])
    predicted = Doc(nlp.vocab, words=["a", "c"])
    with pytest.warns(UnscorableWarning, match="differ"):
        assert score_punctuation([Example(predicted, reference)])["punct_f"] is None
    good = _example(nlp, ["a", "b"], ["", "."], ["", "."])
    with pytest.warns(UnscorableWarning):
        assert score_punctuation([Example(predicted, reference), good])["punct_f"] == 1.0


def test_a_punctuator_and_ner_pipeline_is_scored_on_ner_data(trained):
    """nlp.evaluate on NER data (natural punctuated input, entities) raised in the punctuation scorer."""
    import spacy
    from spacy.tokens import Span

    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "spacy_punct.Tokenizer.v1"}}})
    nlp.add_pipe("tok2vec", source=trained)
    nlp.add_pipe("punctuator", source=trained)
    # the input's marks kept (case only), so that spaCy can align the NER predictions with the reference
    nlp.get_pipe("punctuator").settings = nlp.get_pipe("punctuator").settings.replace(add_marks=False)
    nlp.add_pipe("ner")
    doc = nlp.make_doc("Anna went to Paris. She liked it.")
    doc.ents = [Span(doc, 0, 1, label="PERSON"), Span(doc, 3, 4, label="GPE")]
    examples = [Example(nlp.make_doc(doc.text), doc)]
    nlp.get_pipe("ner").initialize(lambda: examples, nlp=nlp)
    with pytest.warns(UnscorableWarning):
        scores = nlp.evaluate(examples)
    assert scores["punct_f"] is None and "ents_f" in scores


def test_scorer_null_is_honoured(trained):
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("punctuator", source=trained)
    nlp.get_pipe("punctuator").scorer = None
    reference = gold(nlp.vocab, ["a", "b"], ["", "."])
    assert nlp.get_pipe("punctuator").score([Example(nlp.make_doc("a b"), reference)]) == {}
    config = {"scorer": None}
    blank = spacy.blank("en")
    pipe = blank.add_pipe("punctuator", config=config)
    assert pipe.score([]) == {}
    case = blank.add_pipe("truecaser", config={"scorer": None})
    assert case.score([]) == {}


def test_macro_f_leaves_out_absent_classes(nlp):
    eg = _example(nlp, ["a", "b", "c"], [",", "", "."], [",", "", ""])
    scores = score_punctuation([eg])
    assert scores["punct_per_type"]["QUESTION"]["support"] == 0
    assert scores["punct_macro_f"] == pytest.approx((1.0 + 0.0) / 2)
    eg = _example(nlp, ["a", "b"], ["", "."], ["?", "."])
    assert score_punctuation([eg])["punct_macro_f"] == pytest.approx((0.0 + 1.0) / 2)


def test_no_examples():
    assert score_punctuation([])["punct_f"] is None
