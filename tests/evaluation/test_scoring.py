"""Scoring a pipeline on a DocBin."""

import pytest

from spacy_punct.evaluation import evaluate
from spacy_punct.training.corpus import PunctCorpus


def _texts_read(nlp, monkeypatch):
    """The texts the punctuator will predict on, as a list filled as it reads."""
    seen = []
    punctuator = nlp.get_pipe("punctuator")
    predict = punctuator.predict
    monkeypatch.setattr(punctuator, "predict", lambda docs: seen.extend(doc.text for doc in docs) or predict(docs))
    return seen


def test_evaluate(trained, corpus_path):
    done = []
    result = evaluate(trained, corpus_path, progress=done.append)
    assert result["punct_f"] == 1.0 and result["words"] == 70 and result["words_per_second"] > 0
    assert len(done) == 6 and sum(done) == 70  # one call per document, its words
    scores = trained.evaluate(list(PunctCorpus(corpus_path)(trained)))
    assert {key: result[key] for key in ("punct_f", "punct_per_type", "sents_f")} == {
        key: scores[key] for key in ("punct_f", "punct_per_type", "sents_f")
    }  # as spaCy's Language.evaluate scores it
    noisy = evaluate(trained, corpus_path, asr_noise=0.3, seed=1)
    assert noisy == {
        **evaluate(trained, corpus_path, asr_noise=0.3, seed=1),
        "words_per_second": noisy["words_per_second"],
    }
    with pytest.raises(ValueError, match="asr_noise"):
        evaluate(trained, corpus_path, asr_noise=2.0)
    with pytest.raises(ValueError, match="asr_noise"):
        evaluate(trained, corpus_path, asr_noise_words=True)
    with pytest.raises(ValueError, match="input_case"):
        evaluate(trained, corpus_path, input_case="shouting")


def test_evaluate_with_spoken_numbers(trained, tmp_path, monkeypatch):
    from spacy.tokens import DocBin

    path = tmp_path / "numbers.spacy"
    DocBin(docs=[trained.make_doc("In 1995, we were 3rd. It cost $5.")]).to_disk(path)
    seen = _texts_read(trained, monkeypatch)
    assert evaluate(trained, path, spoken_numbers=True)["words"] == 11
    assert seen == ["in nineteen ninety five we were third it cost five dollars"]
    trained.lang = "hu"
    with pytest.raises(ValueError, match="English numbers"):
        evaluate(trained, path, spoken_numbers=True)


def test_evaluate_reads_the_input_in_the_case_asked(trained, corpus_path, monkeypatch):
    seen = _texts_read(trained, monkeypatch)
    for case in ("lower", "upper", "title", "written"):
        seen.clear()
        result = evaluate(trained, corpus_path, input_case=case)
        assert result["words"] == 70
        first = seen[0].split()[:3]
        assert (
            first
            == {
                "lower": ["so", "how", "was"],
                "upper": ["SO", "HOW", "WAS"],
                "title": ["So", "How", "Was"],
                "written": ["So", "how", "was"],
            }[case]
        )


def test_evaluate_with_the_writer_s_quotes_kept(trained, tmp_path, monkeypatch):
    from spacy.tokens import DocBin

    path = tmp_path / "quotes.spacy"
    DocBin(docs=[trained.make_doc('She said: "Hello, you." (Then) she left - fast.')]).to_disk(path)
    seen = _texts_read(trained, monkeypatch)
    result = evaluate(trained, path, keep_quotes=True)
    # the marks a prediction replaces are gone, their spaces kept; quotes, brackets and dashes stay
    assert seen == ['she said "hello you" (then) she left - fast']
    assert result["keep_quotes"] and result["words"] == 8
    with pytest.raises(ValueError, match="keep_quotes"):
        evaluate(trained, path, keep_quotes=True, asr_noise=0.1)
    with pytest.raises(ValueError, match="input_marks"):
        evaluate(trained, path, keep_quotes=True, input_marks=True)


@pytest.mark.parametrize("option", ["gold_marks", "input_marks"])
def test_scoring_case_in_a_language_without_case_is_refused(corpus_path, option):
    import spacy

    with pytest.raises(ValueError, match=f"^{option} scores the case of the words, and Bangla has none"):
        evaluate(spacy.blank("bn"), corpus_path, **{option: True})
