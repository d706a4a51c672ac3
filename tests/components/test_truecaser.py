import json

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from spacy_punct.align import gold_case_classes, sentence_initial_words
from spacy_punct.casing import CASE_LABELS, apply_case, case_label
from spacy_punct.components.truecaser import written_forms
from spacy_punct.rewrite import rewrite_doc
from spacy_punct.scorer import score_case
from spacy_punct.training.corpus import PunctCorpus

from ..conftest import LISTENER_CONFIG, TOK2VEC_CONFIG, train

CASED = [
    "We met John Smith from NASA in Paris.",
    "Did John see the iPhone at McDonald's?",
    "Mary O'Brien works for the BBC in London.",
    "Jean-Luc and Mary went to Paris with NASA.",
    "The BBC and NASA met in London, I think.",
    "Did Mary O'Brien buy an iPhone?",
]
FEW_CAPITALS = "we met john in paris"


def cased_pipeline(min_form_count=1):
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec", config=TOK2VEC_CONFIG)
    nlp.add_pipe("truecaser", config={**LISTENER_CONFIG, "min_form_count": min_form_count})
    nlp.add_pipe("punctuator", config=LISTENER_CONFIG)
    return nlp


@pytest.fixture(scope="module")
def cased_bytes(tmp_path_factory):
    nlp = cased_pipeline()
    path = tmp_path_factory.mktemp("cased") / "cased.spacy"
    DocBin(docs=[nlp.make_doc(t) for t in CASED]).to_disk(path)
    train(nlp, list(PunctCorpus(path, max_length=0)(nlp)), n_iter=80)
    return nlp.to_bytes()


@pytest.fixture
def cased(cased_bytes):
    return cased_pipeline().from_bytes(cased_bytes)


def _bare(text):
    return text.lower().replace(",", "").replace(".", "").replace("?", "")


def test_case_labels():
    assert [case_label(w) for w in ["coast", "Paris", "I", "NASA", "McDonald", "iPhone", "O'Brien", "5km", ","]] == [
        "LOWER",
        "TITLE",
        "TITLE",
        "UPPER",
        "MIXED",
        "MIXED",
        "MIXED",
        "LOWER",
        "LOWER",
    ]
    forms = {"mcdonald": "McDonald", "dh": "DH"}
    assert apply_case("mcdonald", "MIXED", forms) == "McDonald"
    assert apply_case("macgyver", "MIXED", forms) == "Macgyver"
    assert apply_case("nasa", "UPPER", forms) == "NASA"
    # a kept form decides which capitals a word predicted not lower-case gets
    assert apply_case("dh", "TITLE", forms) == "DH"
    assert apply_case("mcdonald", "UPPER", forms) == "McDonald"
    assert apply_case("dh", "LOWER", forms) == "dh"
    # of two kept forms, the abbreviation's in the class predicted: `Mr` beside an all-capitals `MR`
    titles = {"mr": "MR", "mr.": "Mr.", "sat": "SAT", "sat.": "Sat."}
    assert apply_case("mr", "TITLE", titles) == "Mr" and apply_case("sat", "UPPER", titles) == "SAT"
    for caseless in ("5km", "3pm", "www.nasa.gov", "john@nasa.gov", "src/main.py"):
        assert apply_case(caseless, "UPPER", forms) == caseless
    # a word with digits is cased only where the training data kept a form for it
    assert apply_case("l2", "TITLE", {"l2": "L2"}) == "L2"
    assert apply_case("l2", "TITLE", forms) == "l2"
    # an unseen name with an apostrophe: a capital after it for UPPER or MIXED
    assert apply_case("o'brien", "MIXED", forms) == "O'Brien"
    assert apply_case("d\u2019angelo", "UPPER", forms) == "D\u2019Angelo"
    assert apply_case("l'homme", "TITLE", forms) == "L'homme"
    assert apply_case("o'brien", "UPPER", {"o'brien": "O'BRIEN"}) == "O'BRIEN"
    # an unseen name after Mc predicted MIXED: a capital after it; acronyms stay
    assert apply_case("mcallister", "MIXED", forms) == "McAllister"
    assert apply_case("mcallister", "TITLE", forms) == "Mcallister"
    assert apply_case("mcat", "UPPER", forms) == "MCAT"
    assert apply_case("mcs", "MIXED", forms) == "Mcs"


def test_overfit_names_and_acronyms(cased):
    for text in CASED:
        assert cased(_bare(text)).text == text
    assert cased.get_pipe("truecaser").forms["iphone"] == "iPhone"


def test_written_forms_skip_sentence_starts_and_rare_forms(nlp):
    references = [
        nlp.make_doc("The DH lab met. Then DH and Dh met the BBC."),
        nlp.make_doc("Smith works at the BBC. Mary Smith said so, and smith agreed."),
        nlp.make_doc("we met john"),  # uncased: nothing to learn
        nlp.make_doc("Learners of an L2 read L2 texts on www.Example.com and www.Example.com daily."),
    ]
    for doc in references:
        for token in doc:
            token._.punct = ""
    # sentence starts (The, Then, Smith, Mary) are capitalised by the rule, not kept
    # codes with digits are kept (L2), addresses never
    assert written_forms(references, min_count=2) == {"bbc": "BBC", "dh": "DH", "l2": "L2"}
    assert written_forms(references, min_count=1) == {"bbc": "BBC", "dh": "DH", "l2": "L2", "smith": "Smith"}


def test_forms_come_from_the_whole_forms_corpus(tmp_path):
    # spaCy initializes from a sample of a streamed corpus; the forms corpus is read whole
    path = tmp_path / "cased.spacy"
    nlp = cased_pipeline()
    DocBin(docs=[nlp.make_doc(t) for t in CASED]).to_disk(path)
    first = list(PunctCorpus(path, max_length=0)(nlp))[:1]  # "We met John Smith from NASA in Paris."
    nlp.initialize(lambda: first)
    assert "bbc" not in nlp.get_pipe("truecaser").forms
    nlp = cased_pipeline()
    nlp.config["initialize"]["components"]["truecaser"] = {"forms_corpus": str(path)}
    nlp.initialize(lambda: first)
    forms = nlp.get_pipe("truecaser").forms
    assert forms["bbc"] == "BBC" and forms["iphone"] == "iPhone" and forms["mcdonald"] == "McDonald"


def test_serialization_keeps_forms(cased, tmp_path):
    cased.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    assert loaded.get_pipe("truecaser").forms == cased.get_pipe("truecaser").forms
    assert [loaded(_bare(t)).text for t in CASED] == CASED


def test_rewrite_applies_truecase_around_inserted_marks():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("we met o'brien and jean - luc from nasa at 5pm see www.nasa.gov or mail me@nasa.gov")
    forms = {
        "o'brien": "O'Brien",
        "jean": "Jean",
        "luc": "Luc",
        "nasa": "NASA",
        "5pm": "5PM",
        "www.nasa.gov": "WWW.NASA.GOV",
    }
    for token in doc:
        token._.truecase = forms.get(token.text)
        token._.punct = ""
    nasa = [t.text for t in doc].index("nasa")
    doc[-1]._.punct = doc[nasa]._.punct = "."  # "nasa." written next to the acronym
    for token in doc:
        token.is_sent_start = token.i in (0, nasa + 1)
    text = rewrite_doc(doc).text
    assert text.startswith("We met O'Brien and Jean - Luc from NASA. At 5pm see www.nasa.gov or mail me@nasa.gov.")
    upper_input = nlp.make_doc("the BBC said")
    for token, form in zip(upper_input, ["the", "bbc", "said"]):
        token._.truecase = form
        token._.punct = ""
    assert rewrite_doc(upper_input).text == "The BBC said"  # capitals in the input stay


def test_a_text_in_capitals_takes_the_truecasers_forms():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("WE MET JOHN FROM NASA AT 5PM ON WWW.NASA.GOV")
    forms = {
        "WE": "we",
        "MET": "met",
        "JOHN": "John",
        "FROM": "from",
        "NASA": "NASA",
        "AT": "at",
        "5PM": "5pm",
        "ON": "on",
    }
    for token in doc:
        token._.truecase = forms.get(token.text)
        token._.punct = ""
    doc[-1]._.punct = "."
    assert rewrite_doc(doc).text == "We met John from NASA at 5pm on WWW.NASA.GOV."
    # without a truecaser's forms, the capitals stay
    bare = nlp.make_doc("WE MET JOHN")
    for token in bare:
        token._.punct = ""
    assert rewrite_doc(bare).text == "WE MET JOHN"


def test_the_truecaser_cases_words_with_digits_in_a_text_in_capitals(cased):
    truecaser = cased.get_pipe("truecaser")
    docs = [cased.make_doc("THEY MET AT 5PM"), cased.make_doc("they met at 5PM")]
    for _, component in cased.pipeline[: cased.pipe_names.index("truecaser")]:  # its encoder
        docs = [component(doc) for doc in docs]
    truecaser.set_annotations(docs, truecaser.predict(docs))
    assert docs[0][-1]._.truecase == "5pm"
    assert docs[1][-1]._.truecase is None  # elsewhere a word with digits keeps its case


def test_gold_case_classes_skip_uncased_references(nlp):
    cased_eg = Example(nlp.make_doc("we met john smith"), nlp.make_doc("We met John SMITH"))
    assert gold_case_classes(cased_eg, CASE_LABELS) == [1, 0, 1, 2]
    uncased = Example(nlp.make_doc("we met john"), nlp.make_doc("we met john"))
    assert gold_case_classes(uncased, CASE_LABELS) == [-1, -1, -1]


def test_sentence_initial_words_can_be_left_to_the_rule(nlp):
    eg = Example(nlp.make_doc("it rained then john left"), nlp.make_doc("It rained. Then John left."))
    assert gold_case_classes(eg, CASE_LABELS) == [1, 0, 1, 1, 0]
    assert gold_case_classes(eg, CASE_LABELS, sentence_initial=False) == [-1, 0, -1, 1, 0]


def test_noise_placeholders_carry_no_case(nlp):
    # the noise augmenter's [UNK] must not turn an uncased corpus into a cased one
    words = ["so", "[UNK]", "it", "was", "long"]
    uncased = Example(Doc(nlp.vocab, words=words), Doc(nlp.vocab, words=words))
    assert gold_case_classes(uncased, CASE_LABELS) == [-1] * 5
    assert score_case([uncased])["case_f"] is None
    cased_words = ["So", "[UNK]", "it", "was", "NASA"]
    cased = Example(Doc(nlp.vocab, words=words), Doc(nlp.vocab, words=cased_words))
    assert gold_case_classes(cased, CASE_LABELS) == [1, -1, 0, 0, 2]


def test_case_scores(nlp):
    reference = nlp.make_doc("We met John in Paris. Then NASA called.")
    predicted = nlp.make_doc("We met john in Paris. Then Nasa called.")
    scores = score_case([Example(predicted, reference)])
    # non-lower gold words: We, John, Paris, Then, NASA; right: We, Paris, Then
    assert scores["case_r"] == pytest.approx(3 / 5)
    assert scores["case_p"] == pytest.approx(3 / 4)  # predicted non-lower: We Paris Then Nasa
    assert scores["case_initial_f"] == 1.0  # We, Then
    assert scores["case_inner_f"] == pytest.approx(2 * (1 / 2 * 1 / 3) / (1 / 2 + 1 / 3))
    assert scores["case_per_type"]["UPPER"]["r"] == 0.0
    assert sentence_initial_words(reference) == {2, 20}  # the ends of "we" and "then" in "wemetjohninparisthen"
    emoji = nlp.make_doc("I'm fine. 🙂 Thanks.")
    assert sentence_initial_words(emoji) == {1, 14}  # "i" and "thanks" in "i'mfine🙂thanks", not the emoji
    assert score_case([Example(nlp.make_doc(FEW_CAPITALS), nlp.make_doc(FEW_CAPITALS))])["case_f"] is None


def test_truecaser_on_a_transformer_listener(tiny_bert, tmp_path):
    from ..layers.test_transformer import trf_pipeline

    nlp = trf_pipeline(tiny_bert)
    nlp.add_pipe(
        "truecaser",
        before="punctuator",
        config={
            "model": {
                "@architectures": "spacy_punct.PunctuatorModel.v1",
                "hidden_width": 16,
                "tok2vec": {
                    "@architectures": "spacy-transformers.TransformerListener.v1",
                    "pooling": {"@layers": "reduce_mean.v1"},
                },
            }
        },
    )
    DocBin(docs=[nlp.make_doc(t) for t in CASED[:3]]).to_disk(tmp_path / "c.spacy")
    train(nlp, list(PunctCorpus(tmp_path / "c.spacy", max_length=0)(nlp)), n_iter=3)
    docs = list(nlp.pipe([_bare(CASED[0]), ""]))
    assert [t.lower_ for t in docs[0] if t._.source_i is not None] == _bare(CASED[0]).split()
    assert docs[1].text == ""
    scores = nlp.evaluate(list(PunctCorpus(tmp_path / "c.spacy", max_length=0)(nlp)))
    assert 0.0 <= scores["case_f"] <= 1.0


def test_case_head_off_is_the_old_pipeline(trained):
    assert "truecaser" not in trained.pipe_names
    text = trained("we met john smith from nasa in paris").text
    assert text.replace(",", "").replace(".", "") == "We met john smith from nasa in paris"


def test_evaluate_reports_case_scores(cased, tmp_path):
    from typer.testing import CliRunner

    from spacy_punct.cli import app

    cased.to_disk(tmp_path / "model")
    DocBin(docs=[cased.make_doc(t) for t in CASED]).to_disk(tmp_path / "cased.spacy")
    result = CliRunner().invoke(app, ["evaluate", str(tmp_path / "model"), str(tmp_path / "cased.spacy")])
    assert result.exit_code == 0, result.output
    assert "| **not lower-case** | 100.0 | 100.0 | 100.0 |" in result.output
    assert "sentence-initial 100.0 · other words (names, acronyms) 100.0" in result.output


def test_evaluate_with_gold_marks_scores_the_truecaser_alone(cased, tmp_path):
    """With the gold marks in place of the punctuator's decisions, a
    punctuator that writes no mark costs the truecaser nothing: the output is
    the reference text, marks and sentence starts included."""
    from typer.testing import CliRunner

    from spacy_punct.cli import app
    from spacy_punct.evaluation import evaluate, with_gold_marks

    DocBin(docs=[cased.make_doc(" ".join(CASED))]).to_disk(tmp_path / "cased.spacy")
    pipe = cased.get_pipe("punctuator")
    pipe.settings = pipe.settings.replace(margins={label: 1.0 for label in ("COMMA", "PERIOD", "QUESTION")})  # no mark
    assert evaluate(cased, tmp_path / "cased.spacy")["punct_f"] == 0.0
    (marked,) = with_gold_marks(cased, list(PunctCorpus(tmp_path / "cased.spacy", max_length=0)(cased)))
    # the label set has no class for the hyphen of "Jean-Luc", which the reader reads as a mark
    expected = [text.replace("-", " ") for text in CASED]
    assert [s.text for s in marked.predicted.sents] == expected
    oracle = evaluate(cased, tmp_path / "cased.spacy", gold_marks=True)
    assert oracle["punct_f"] == 1.0 and oracle["sents_f"] == 1.0 and oracle["case_f"] == 1.0 and oracle["gold_marks"]
    cased.to_disk(tmp_path / "model")
    args = [
        "evaluate",
        str(tmp_path / "model"),
        str(tmp_path / "cased.spacy"),
        "-o",
        str(tmp_path / "m"),
        "--gold-marks",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and "with gold-marks\nThe test set's marks" in result.output, result.output
    assert json.loads((tmp_path / "m" / "cased.gold-marks.json").read_text())["case_f"] == 1.0


def test_evaluate_on_punctuated_input_scores_the_truecaser_on_it(cased, tmp_path):
    """With the input's own marks and none added, a punctuator that would
    write no mark costs nothing: the output is the reference text."""
    from typer.testing import CliRunner

    from spacy_punct.cli import app
    from spacy_punct.evaluation import evaluate, punctuated_examples

    DocBin(docs=[cased.make_doc(" ".join(CASED))]).to_disk(tmp_path / "cased.spacy")
    pipe = cased.get_pipe("punctuator")
    pipe.settings = pipe.settings.replace(margins={label: 1.0 for label in ("COMMA", "PERIOD", "QUESTION")})  # no mark
    (example,) = punctuated_examples(cased, tmp_path / "cased.spacy")
    assert example.predicted.text == " ".join(CASED).lower()
    scores = evaluate(cased, tmp_path / "cased.spacy", input_marks=True)
    assert scores["case_f"] == 1.0 and scores["sents_f"] == 1.0 and scores["input_marks"]
    assert pipe.settings.add_marks  # the component's settings are left as they were
    with pytest.raises(ValueError, match="input_marks"):
        evaluate(cased, tmp_path / "cased.spacy", input_marks=True, asr_noise=0.1)
    cased.to_disk(tmp_path / "model")
    args = [
        "evaluate",
        str(tmp_path / "model"),
        str(tmp_path / "cased.spacy"),
        "-o",
        str(tmp_path / "m"),
        "--input-marks",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and "with input-marks\nThe input has" in result.output, result.output
    assert json.loads((tmp_path / "m" / "cased.input-marks.json").read_text())["case_f"] == 1.0


def test_cased_input_gets_no_case_scores_and_lower_case_input_does(cased):
    """spacy evaluate feeds the cased gold form as the input: the case was there already."""
    from spacy_punct.scorer import UnscorableWarning
    from spacy_punct.word_records import strip_docs

    references = [cased.make_doc(text) for text in CASED]
    gold = list(strip_docs(references, lowercase=False))  # what spacy-punct strip --keep-case writes
    with pytest.warns(UnscorableWarning, match="already had .* capitalised words"):
        scores = score_case([Example(cased(doc.text), ref) for doc, ref in zip(gold, references)])
    assert scores["case_f"] is None
    bare = [Example(cased(_bare(text)), ref) for text, ref in zip(CASED, references)]
    assert score_case(bare)["case_f"] > 0.5
