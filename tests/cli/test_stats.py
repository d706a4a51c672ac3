"""`spacy-punct convert` then `spacy-punct stats`."""

from spacy_punct.cli import app

from .helpers import runner


def test_convert_and_stats(tmp_path):
    source = tmp_path / "words.txt"
    source.write_bytes(b"so\tCOMMA\r\nhow\tO\rwas\tO\nit\tQUESTION\n\tCOMMA\nbad\xff\tPERIOD\n")
    out = tmp_path / "out.spacy"
    result = runner.invoke(app, ["convert", "tokens", str(source), str(out)])
    assert result.exit_code == 0, result.output
    for line in (
        "documents: 1",
        "words: 5",
        "COMMA: 1",
        "QUESTION: 1",
        "PERIOD: 1",
        "undecodable characters replaced by U+FFFD: 1",
        "skipped lines with an empty word: 1",
    ):
        assert line in result.output
    result = runner.invoke(app, ["stats", str(out)])
    assert result.exit_code == 0
    assert result.output.split("\n")[:3] == ["documents: 1", "words: 5", "COMMA: 1"]
