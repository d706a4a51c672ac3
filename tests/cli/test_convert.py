"""`spacy-punct convert`."""

from spacy_punct.cli import app

from .helpers import runner


def test_convert_errors(tmp_path):
    source = tmp_path / "words.txt"
    source.write_text("not a token file at all\n")
    result = runner.invoke(app, ["convert", "tokens", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 1 and "expected 'word<TAB>LABEL'" in result.output
    result = runner.invoke(app, ["convert", "pdf", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 1 and "unknown format" in result.output
    result = runner.invoke(app, ["convert", "punctuator2", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 1 and "not punctuator2's format" in result.output
    assert not (tmp_path / "o.spacy").exists()
    result = runner.invoke(app, ["convert", "text", str(source), str(tmp_path / "o.txt")])
    assert result.exit_code == 1 and "does not end in .spacy" in result.output
    assert not (tmp_path / "o.txt").exists()
    source.write_text("so ,COMMA how was it ?QUESTIONMARK\n")
    result = runner.invoke(app, ["convert", "punctuator2", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 0 and "QUESTION: 1" in result.output, result.output


def test_converting_text_without_marks_warns(tmp_path):
    source = tmp_path / "bare.txt"
    source.write_text("so how was the trip it was long\nwhere did you stay\n")
    result = runner.invoke(app, ["convert", "text", str(source), str(tmp_path / "bare.spacy")])
    assert result.exit_code == 0, result.output
    assert "no word is followed by a mark" in result.output
    source.write_text("So, how was the trip? It was long.\n")
    result = runner.invoke(app, ["convert", "text", str(source), str(tmp_path / "marked.spacy")])
    assert result.exit_code == 0 and "warning" not in result.output


def test_an_unknown_language_is_a_one_line_error_for_every_command_that_takes_one(tmp_path):
    source = tmp_path / "lines.txt"
    source.write_text("So, how was it?\n")
    assert runner.invoke(app, ["convert", "lines", str(source), str(tmp_path / "o.spacy")]).exit_code == 0
    message = "Error: --lang zz: not a language spaCy knows (a code such as en, hu or bn)."
    for args in (
        ["convert", "lines", str(source), str(tmp_path / "new" / "p.spacy")],
        ["stats", str(tmp_path / "o.spacy")],
        ["strip", str(tmp_path / "o.spacy"), str(tmp_path / "new" / "s.spacy")],
        ["split", str(tmp_path / "o.spacy"), str(tmp_path / "new" / "t.spacy"), str(tmp_path / "new" / "d.spacy")],
    ):
        result = runner.invoke(app, [*args, "--lang", "zz"])
        assert result.exit_code == 1 and result.output.strip() == message, (args, result.output)
    assert not (tmp_path / "new").exists()
