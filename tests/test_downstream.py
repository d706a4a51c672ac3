"""spaCy components and matchers beside the punctuator: rulers before it (the
rewrite carries their entities over), matchers and rulers with token patterns
after it, on the punctuated doc."""

import pytest
import spacy
from spacy.matcher import Matcher, PhraseMatcher

from .conftest import TEXTS, listener_pipeline

TEXT = "so how was the trip it was long but we saw the coast"
PATTERNS = [{"label": "LOC", "pattern": "the coast"}, {"label": "EVENT", "pattern": [{"LOWER": "trip"}]}]


def _ents(doc):
    return [(ent.text, ent.label_) for ent in doc.ents]


def test_a_ruler_before_the_punctuator_keeps_its_entities_through_the_rewrite(trained, trained_bytes, tmp_path):
    ruler = trained.add_pipe("entity_ruler", before="punctuator", config={"phrase_matcher_attr": "LOWER"})
    ruler.add_patterns(PATTERNS)
    doc = trained(TEXT)
    assert doc.text == TEXTS[0]
    assert _ents(doc) == [("trip", "EVENT"), ("the coast", "LOC")]
    trained.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    assert _ents(loaded(TEXT)) == _ents(doc)


def test_a_ruler_after_the_punctuator_matches_token_patterns_on_the_punctuated_doc(trained):
    trained.add_pipe("entity_ruler").add_patterns([{"label": "LOC", "pattern": [{"LOWER": "coast"}, {"ORTH": "."}]}])
    doc = trained(TEXT)
    assert doc.text == TEXTS[0] and _ents(doc) == [("coast.", "LOC")]


def test_matchers_run_on_the_punctuated_doc(trained):
    doc = trained(TEXT)
    phrases = PhraseMatcher(trained.vocab, attr="LOWER")
    phrases.add("LOC", [trained.make_doc("the coast")])
    assert [doc[start:end].text for _, start, end in phrases(doc)] == ["the coast"]
    tokens = Matcher(trained.vocab)
    tokens.add("QUESTION", [[{"IS_SENT_START": True}, {"OP": "*"}, {"ORTH": "?"}]])
    assert [doc[start:end].text for _, start, end in tokens(doc)] == ["So, how was the trip?"]


def test_a_component_with_its_own_encoder_runs_after_the_punctuator_on_the_punctuated_doc(trained):
    seen = []

    @spacy.Language.component("record_tokens")
    def record_tokens(doc):
        seen.append([token.text for token in doc])
        return doc

    trained.add_pipe("record_tokens")
    assert trained(TEXT).text == TEXTS[0]
    assert seen == [[token.text for token in listener_pipeline().make_doc(TEXTS[0])]]


@pytest.mark.parametrize("factory", ["entity_ruler", "span_ruler"])
def test_a_ruler_after_the_punctuator_with_phrase_patterns_fails_at_once(trained, factory):
    ruler = trained.add_pipe(factory)
    ruler.add_patterns([{"label": "LOC", "pattern": [{"LOWER": "coast"}]}])
    assert trained(TEXT).text == TEXTS[0]  # token patterns are fine
    # the span ruler fails in add_patterns already; the entity ruler adds a
    # phrase pattern only after running it through the pipeline
    with pytest.raises(
        ValueError, match=f"'{factory}' runs after 'punctuator' and has phrase patterns.*before 'punctuator'"
    ):
        ruler.add_patterns([{"label": "LOC", "pattern": "the coast"}])
        trained(TEXT)


def test_a_pipeline_saved_with_phrase_patterns_after_the_punctuator_fails_with_the_way_out(trained, tmp_path):
    ruler = trained.add_pipe("span_ruler")
    with trained.select_pipes(enable=[]):
        ruler.add_patterns([{"label": "LOC", "pattern": "the coast"}])
    trained.to_disk(tmp_path / "model")
    with pytest.raises(ValueError, match="'span_ruler' runs after 'punctuator'"):
        spacy.load(tmp_path / "model")(TEXT)
