"""`spacy-punct split`."""

from spacy_punct.cli import app

from .helpers import runner


def test_split(corpus_path, tmp_path):
    result = runner.invoke(
        app, ["split", str(corpus_path), str(tmp_path / "a.spacy"), str(tmp_path / "b.spacy"), "--dev-fraction", "0.34"]
    )
    assert result.exit_code == 0, result.output
    assert "Wrote 4 docs" in result.output and "Wrote 2 docs" in result.output


def test_the_two_parts_need_two_files_ending_in_spacy(corpus_path, tmp_path):
    same = str(tmp_path / "a.spacy")
    result = runner.invoke(app, ["split", str(corpus_path), same, same])
    assert result.exit_code == 1 and "both be written to" in result.output
    result = runner.invoke(app, ["split", str(corpus_path), str(tmp_path / "a.txt"), str(tmp_path / "b.spacy")])
    assert result.exit_code == 1 and "does not end in .spacy: name it a.spacy" in result.output
    assert not (tmp_path / "a.spacy").exists() and not (tmp_path / "b.spacy").exists()  # nothing was written
