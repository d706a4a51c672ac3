"""`spacy-punct strip`."""

import spacy
from spacy.tokens import DocBin

from spacy_punct.cli import app

from .helpers import runner


def test_strip(corpus_path, tmp_path):
    out = tmp_path / "gold.spacy"
    result = runner.invoke(app, ["strip", str(corpus_path), str(out)])
    assert result.exit_code == 0, result.output
    assert "Wrote 6 docs" in result.output
    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("en").vocab))
    assert docs[0].text.startswith("so how was the trip it was long")
    assert [t._.punct for t in docs[0]][:5] == [",", "", "", "", "?"]
    bad = tmp_path / "bad.spacy"
    bad.write_text("not a docbin")
    result = runner.invoke(app, ["strip", str(bad), str(out)])
    assert result.exit_code == 1 and "is not a DocBin" in result.output and "spacy-punct convert" in result.output


def test_spacy_evaluate_scores_the_truecaser_on_the_stripped_gold(tmp_path):
    """The gold form was lower-cased, so `spacy evaluate` gave the truecaser
    no case score (None), without a word."""
    import warnings

    from spacy_punct import load_pipeline

    nlp = spacy.blank("en")
    texts = [
        "So, how was the trip to Paris? It was long, but we saw the coast.",
        "John met Mary in London on Tuesday. They went home.",
    ]
    data = tmp_path / "data.spacy"
    DocBin(docs=[nlp.make_doc(text) for text in texts]).to_disk(data)
    gold = tmp_path / "gold.spacy"
    assert runner.invoke(app, ["strip", str(data), str(gold)]).exit_code == 0
    docs = list(DocBin().from_disk(gold).get_docs(nlp.vocab))
    assert docs[0].text.startswith("so how was the trip to paris")
    assert [t._.gold_case for t in docs[0]][:7] == ["So", None, None, None, None, None, "Paris"]
    pipeline = load_pipeline("en_punct_sm")
    from spacy.training import Corpus

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores = pipeline.evaluate(list(Corpus(str(gold))(pipeline)))
    assert scores["case_f"] is not None and scores["case_f"] > 0.5, scores["case_f"]
