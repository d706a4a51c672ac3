"""`spacy-punct split`."""
from spacy_punct.cli import app

from .helpers import runner


def test_split(corpus_path, tmp_path):
    result = runner.invoke(app, ["split", str(corpus_path), str(tmp_path / "a.spacy"), str(tmp_path / "b.spacy"), "--dev-fraction", "0.34"])
    assert result.exit_code == 0, result.output
    assert "Wrote 4 docs" in result.output and "Wrote 2 docs" in result.output
