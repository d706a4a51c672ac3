import pytest
import spacy

from ..conftest import TEXTS, TOK2VEC_CONFIG, reader_examples

TAGGER_LISTENER = {
    "model": {
        "@architectures": "spacy.Tagger.v2",
        "tok2vec": {"@architectures": "spacy.Tok2VecListener.v1", "width": 96},
    }
}


def test_rewriter_lets_a_listener_run_after_the_punctuator(trained, corpus_path):
    text = "so how was the trip it was long but we saw the coast"
    expected = trained(text).text
    trained.get_pipe("punctuator").rewrite = False
    tagger = trained.add_pipe("tagger", config=TAGGER_LISTENER)
    tagger.add_label("X")
    trained.add_pipe("punct_rewriter")
    tagger.initialize(lambda: reader_examples(trained, corpus_path), nlp=trained)
    doc = trained(text)
    assert doc.text == expected == TEXTS[0]
    assert [s.text for s in doc.sents] == ["So, how was the trip?", "It was long, but we saw the coast."]
    # the tagger read the encoder's vectors of the input; its tags are carried over
    assert [t.tag_ for t in doc if t._.source_i is not None] == ["X"] * 13
    assert [d.text for d in trained.pipe(["so how was the trip", "where did you stay"])] == [
        "So, how was the trip?",
        "Where did you stay?",
    ]


def test_listener_after_the_rewriter_is_refused(trained, corpus_path):
    trained.get_pipe("punctuator").rewrite = False
    trained.add_pipe("punct_rewriter")
    trained.add_pipe("tagger", config=TAGGER_LISTENER).add_label("X")
    with pytest.raises(ValueError, match="listen to 'tok2vec'"):
        trained("so how was it")
    with pytest.raises(ValueError, match="listen to 'tok2vec'"):
        trained.get_pipe("punct_rewriter").initialize(nlp=trained)


def test_rewriter_round_trips_with_the_pipeline(trained, tmp_path):
    import spacy

    trained.get_pipe("punctuator").rewrite = False
    trained.add_pipe("punct_rewriter")
    trained.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    assert loaded.pipe_names == ["tok2vec", "punctuator", "punct_rewriter"]
    assert loaded("so how was the trip").text == "So, how was the trip?"


def test_component_with_its_own_tok2vec_after_a_rewriting_punctuator(trained, corpus_path):
    tagger = trained.add_pipe(
        "tagger", config={"model": {"@architectures": "spacy.Tagger.v2", "tok2vec": TOK2VEC_CONFIG["model"]}}
    )
    tagger.add_label("X")
    tagger.initialize(lambda: reader_examples(trained, corpus_path))
    doc = trained("so how was the trip")
    assert doc.text == "So, how was the trip?" and all(t.tag_ == "X" for t in doc)


def test_the_factories_say_that_they_retokenize():
    """The rewrite inserts the marks as tokens; the metadata said it did not."""
    nlp = spacy.blank("en")
    for factory in ("punctuator", "punct_rewriter"):
        meta = nlp.get_factory_meta(factory)
        assert meta.retokenizes, factory
        assert "doc._.punctuated" in meta.assigns and "token._.source_i" in meta.assigns
