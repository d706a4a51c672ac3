import pytest
import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.convert import ContaminationGuard, ConversionError, ConversionStats
from spacy_punct.convert.guard import NgramIndex, normal_words

TEST_DOC = (
    "I'm a savant, or more precisely, a high-functioning autistic savant. It's a rare condition, "
    "and rarer still when accompanied, as in my case, by self-awareness and a mastery of language."
)
OTHER = (
    "So how was the trip? It was long, but we saw the coast, and the weather held for most of the week "
    "while we walked from one small village to the next one along the shore."
)


def test_normal_words_ignore_case_apostrophes_and_split_clitics():
    assert normal_words("It's DON'T, do n't") == ["its", "dont", "do", "nt"]
    assert normal_words("it 's") != normal_words("it's")  # the 8-grams of either spelling: `its` vs `it s`
    index = NgramIndex()
    index.add("I don't know what you mean by that at all, my friend.")
    assert index.share("i dont know what you mean by that at all my friend") == 1.0


def test_guard_drops_a_planted_copy_and_says_so():
    nlp = spacy.blank("en")
    guard = ContaminationGuard({"test2011": [TEST_DOC]})
    stats = ConversionStats()
    docs = [nlp.make_doc(OTHER), nlp.make_doc(OTHER + " " + TEST_DOC)]
    for doc in docs:
        stats.count(doc)
    kept = list(guard.filter(docs, stats))
    assert [doc.text for doc in kept] == [OTHER]
    assert stats.documents == 1 and stats.words == len(nlp.make_doc(OTHER)) - OTHER.count(",") - 2
    assert "test2011" in stats.summary() and "of its 8-grams" in stats.summary()


def test_guard_keeps_text_with_a_common_phrase():
    guard = ContaminationGuard({"test": [TEST_DOC]}, max_share=0.05)
    assert guard.check(OTHER + " They came by self-awareness and a mastery of language.") is None


def test_guard_refuses_a_share_out_of_range():
    with pytest.raises(ConversionError):
        ContaminationGuard({}, max_share=1.0)


def test_convert_command_guards_against_test_sets(tmp_path):
    nlp = spacy.blank("en")
    test_set = tmp_path / "test2011.spacy"
    DocBin(docs=[nlp.make_doc(TEST_DOC)]).to_disk(test_set)
    source = tmp_path / "talks"
    source.mkdir()
    (source / "a.txt").write_text(OTHER, encoding="utf8")
    (source / "b.txt").write_text(OTHER.replace("trip", "journey") + " " + TEST_DOC, encoding="utf8")
    out = tmp_path / "train.spacy"
    result = CliRunner().invoke(app, ["convert", "text", str(source), str(out), "--guard", str(test_set)])
    assert result.exit_code == 0, result.output
    assert "documents: 1" in result.output and "test2011.spacy" in result.output
    assert len(DocBin().from_disk(out)) == 1
    not_a_docbin = tmp_path / "x.spacy"
    not_a_docbin.write_text("no", encoding="utf8")
    result = CliRunner().invoke(
        app, ["convert", "text", str(source), str(tmp_path / "t2.spacy"), "--guard", str(not_a_docbin)]
    )
    assert result.exit_code == 1 and "not a DocBin" in result.output
