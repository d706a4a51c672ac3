import pickle

import pytest
import spacy
from spacy.training import Example

from spacy_punct.components.tokenizer import PunctTokenizer, create_tokenizer

from ..conftest import TEXTS

TOKENIZER = {"nlp": {"tokenizer": {"@tokenizers": "spacy_punct.Tokenizer.v1"}}}


def _bare(text):
    return text.lower().replace(",", "").replace("?", "").replace(".", "")


# references that the trained pipeline does not reproduce (it learnt TEXTS)
REFERENCES = [text.replace("?", ",", 1) for text in TEXTS]


def test_it_tokenizes_as_spacy_and_saves_and_pickles_as_itself():
    nlp = spacy.blank("en", config=TOKENIZER)
    assert isinstance(nlp.tokenizer, PunctTokenizer)
    texts = TEXTS + ["e.g. U.S. don't high-functioning https://x.org/a?b=1 :-)"]
    expected = [[t.text for t in spacy.blank("en")(text)] for text in texts]
    assert [[t.text for t in nlp(text)] for text in texts] == expected
    loaded = spacy.blank("en", config=TOKENIZER).from_bytes(nlp.to_bytes())
    assert [[t.text for t in loaded(text)] for text in texts] == expected
    assert isinstance(pickle.loads(pickle.dumps(nlp.tokenizer)), PunctTokenizer)


@pytest.mark.parametrize("lang,text", [("hu", "Ez pl. a 2. kör, nem? Igen: 3-án."), ("bn", "আমি ভালো আছি। তুমি?")])
def test_it_tokenizes_each_language_as_spacy(lang, text):
    assert [t.text for t in spacy.blank(lang, config=TOKENIZER)(text)] == [t.text for t in spacy.blank(lang)(text)]


def test_nlp_evaluate_scores_examples_of_natural_punctuated_text(trained):
    examples = [Example(trained.make_doc(_bare(text)), trained.make_doc(text)) for text in REFERENCES]
    trained.tokenizer = create_tokenizer()(trained)
    scores = trained.evaluate(examples)
    assert scores["token_acc"] == 1.0  # over the two texts without "?", which come out as their references
    assert 0.5 < scores["punct_f"] < 1.0 and scores["sents_f"] > 0.5


def test_nlp_evaluate_with_spacy_tokenizer_fails_to_align_natural_text(trained):
    # why the pipelines name spacy_punct.Tokenizer.v1
    examples = [Example(trained.make_doc(_bare(text)), trained.make_doc(text)) for text in REFERENCES]
    with pytest.raises(ValueError, match="E949"):
        trained.evaluate(examples)


def test_punctuated_input_gets_no_scores_and_the_way_to_score_bare_input(trained):
    # what spacy evaluate gives: each doc's own text as the input; inside spaCy's loops a
    # scorer gives no scores for what it cannot score, and never raises
    from spacy_punct.scorer import UnscorableWarning

    examples = [Example(trained.make_doc(text), trained.make_doc(text)) for text in TEXTS]
    trained.tokenizer = create_tokenizer()(trained)
    with pytest.warns(UnscorableWarning, match="input already had .* nothing to restore.*spacy-punct strip"):
        scores = trained.evaluate(examples)
    assert scores["punct_f"] is None and scores["sents_f"] is None
