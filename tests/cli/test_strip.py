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
