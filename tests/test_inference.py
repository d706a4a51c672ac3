import json

import numpy
import pytest
import spacy

from spacy_punct import texts as text_module
from spacy_punct.evaluation import evaluate
from spacy_punct.pipelines import PipelineError, load_pipeline, predict_probs
from spacy_punct.records import output_record, punctuate_records
from spacy_punct.texts import punctuate, punctuate_pieces
from spacy_punct.timed import RecordError
from spacy_punct.training.corpus import PunctCorpus

from .conftest import TEXTS

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


def test_load_pipeline_raises_clear_errors(trained, tmp_path):
    with pytest.raises(PipelineError, match="Cannot load pipeline"):
        load_pipeline(tmp_path / "missing")
    spacy.blank("en").to_disk(tmp_path / "blank")
    with pytest.raises(PipelineError, match="no punctuator"):
        load_pipeline(tmp_path / "blank")
    trained.to_disk(tmp_path / "model")
    nlp = load_pipeline(tmp_path / "model", config={"components": {"punctuator": {"keep_existing": True}}})
    assert nlp.get_pipe("punctuator").keep_existing


def test_punctuate_texts_in_order_whatever_the_batch(trained):
    expected = [trained(text).text for text in BARE]
    for batch_size in (1, 4, 64):
        assert [doc.text for doc in punctuate(trained, iter(BARE), batch_size=batch_size)] == expected
    with pytest.raises(ValueError, match="batch_size"):
        list(punctuate(trained, BARE, batch_size=0))


def test_one_text_or_record_alone_is_refused_at_the_call(trained):
    # iterated, a string would be texts of one character each
    with pytest.raises(TypeError, match=r"\[text\]"):
        punctuate(trained, BARE[0])
    with pytest.raises(TypeError, match=r"\[record\]"):
        punctuate_records(trained, {"text": BARE[0]})
    assert [doc.text for doc in punctuate(trained, [BARE[0]])] == [trained(BARE[0]).text]


def test_punctuate_rewrites_when_the_pipeline_annotates_in_place(trained):
    trained.get_pipe("punctuator").rewrite = False
    assert [doc.text for doc in punctuate(trained, BARE[:1])] == [TEXTS[0]]
    assert not trained.get_pipe("punctuator").rewrite


def test_records_keep_their_fields_and_timings(trained):
    records = [
        {"id": "a", "text": BARE[0], "speaker": 2},
        {"id": 7, "words": [{"word": "where", "start": 0.0, "end": 0.3}, {"word": "did", "start": 0.3, "end": 0.5},
                            {"word": "you", "start": 0.5, "end": 0.6}, {"word": "stay", "start": 0.7, "end": 1.2}]},
        {"words": ["so", "how", "was", "the", "trip"]},
    ]
    out = list(punctuate_records(trained, records, batch_size=2))
    assert [r.get("id") for r in out] == ["a", 7, None]
    assert out[0]["speaker"] == 2 and out[0]["punctuated"] == TEXTS[0]
    assert out[1]["punctuated"] == "Where did you stay?" and out[1]["text"] == "where did you stay"
    timed = [(t["text"], t.get("start_time"), t.get("end_time")) for t in out[1]["tokens"]]
    assert timed == [("Where", 0.0, 0.3), ("did", 0.3, 0.5), ("you", 0.5, 0.6), ("stay", 0.7, 1.2), ("?", None, None)]
    assert "start_time" not in out[2]["tokens"][0]
    json.dumps(out)


def test_a_record_keeps_its_words_and_its_text(trained):
    """A timed record lost its `words` (and each word's `conf`); a record with
    both `text` and `words` had its text overwritten."""
    words = [{"word": "where", "start": 0.0, "end": 0.3, "conf": 0.9}, {"word": "did", "start": 0.3, "end": 0.5, "conf": 0.8}]
    record = {"id": 1, "words": words, "text": "Where did?"}
    (out,) = punctuate_records(trained, [record])
    assert out["words"] == words and out["text"] == "Where did?"
    assert out["source_text"] == "where did"
    assert record == {"id": 1, "words": words, "text": "Where did?"}  # the input is not changed
    (out,) = punctuate_records(trained, [{"words": words}])
    assert out["words"] == words and out["text"] == "where did" and "source_text" not in out


@pytest.mark.parametrize(
    "record,message",
    [
        ("just a string", "expected an object"),
        ({"txt": "typo"}, "expected a string 'text'"),
        ({"words": "so how"}, "'words' must be a list"),
        ({"words": [{"word": "", "start": 0, "end": 1}]}, "missing or empty"),
        ({"words": [{"word": "so", "start": "zero", "end": 1}]}, "must be numbers"),
        ({"words": [{"word": "so", "start": 2, "end": 1}]}, "start <= end"),
        ({"words": [{"word": "so", "start": 2, "end": 3}, {"word": "how", "start": 1, "end": 3}]}, "before the word"),
        ({"words": ["so", {"word": "how", "start": 1, "end": 3}]}, "for every word or for none"),
    ],
)
def test_bad_records_name_the_record(trained, record, message):
    with pytest.raises(RecordError, match=message) as error:
        list(punctuate_records(trained, [{"text": "ok"}, record]))
    assert "record 2" in str(error.value)


def test_output_record_of_whitespace_has_no_sentences(trained):
    record = output_record(trained("   "), {"text": "   "})
    assert record["sentences"] == [] and record["punctuated"] == "   "


def test_predict_probs_leaves_the_pipeline_alone(trained):
    pipe = trained.get_pipe("punctuator")
    docs = [trained.make_doc(text) for text in BARE[:2]]
    results = list(predict_probs(trained, docs))
    assert [doc for doc, _ in results] == docs
    assert all(probs.shape == (len(doc), 4) for doc, probs in results)
    assert numpy.allclose(results[0][1].sum(axis=1), 1.0, atol=1e-4)
    assert pipe.rewrite and not pipe.store_probs and docs[0][0]._.punct is None


def test_long_texts_are_punctuated_in_pieces(trained, monkeypatch):
    words = (" ".join(BARE) + " ") * 40
    pieces = list(punctuate_pieces(trained, words, piece_tokens=100, context_tokens=20))
    assert len(pieces) > 5
    joined = "".join(piece.text for piece in pieces)
    assert joined.lower().replace(",", "").replace(".", "").replace("?", "") == words
    assert joined.startswith(TEXTS[0] + " " + TEXTS[1])
    # a text over the length limit goes the same way, as one doc mapped to the input
    monkeypatch.setattr(text_module, "LONG_TEXT_CHARS", 1000)
    monkeypatch.setattr(text_module, "PIECE_TOKENS", 100)
    monkeypatch.setattr(text_module, "CONTEXT_TOKENS", 20)
    doc = next(punctuate(trained, [words]))
    assert doc.text == joined and doc._.source_text == words
    for token in doc:
        if token._.source_idx is not None:
            assert words[token._.source_idx : token._.source_idx + len(token.text)] == token.text.lower()


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
    assert noisy == {**evaluate(trained, corpus_path, asr_noise=0.3, seed=1), "words_per_second": noisy["words_per_second"]}
    with pytest.raises(ValueError, match="asr_noise"):
        evaluate(trained, corpus_path, asr_noise=2.0)
    with pytest.raises(ValueError, match="asr_noise"):
        evaluate(trained, corpus_path, asr_noise_words=True)
    with pytest.raises(ValueError, match="input_case"):
        evaluate(trained, corpus_path, input_case="shouting")


def test_evaluate_reads_the_input_in_the_case_asked(trained, corpus_path, monkeypatch):
    seen = []
    punctuator = trained.get_pipe("punctuator")
    predict = punctuator.predict
    monkeypatch.setattr(punctuator, "predict", lambda docs: seen.extend(doc.text for doc in docs) or predict(docs))
    for case in ("lower", "upper", "title", "written"):
        seen.clear()
        result = evaluate(trained, corpus_path, input_case=case)
        assert result["words"] == 70
        first = seen[0].split()[:3]
        assert first == {"lower": ["so", "how", "was"], "upper": ["SO", "HOW", "WAS"],
                         "title": ["So", "How", "Was"], "written": ["So", "how", "was"]}[case]
