import subprocess
import sys

import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_punct.cli import app

runner = CliRunner()


def test_help():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("punctuate", "strip"):
        assert command in result.output


def test_punctuate_file_and_stdin(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    source = tmp_path / "in.txt"
    source.write_bytes(b"so how was the trip\r\n\r\nwhere did you stay\rcaf\xe9 ok\n")
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf8").split("\n")
    assert lines[:3] == ["So, how was the trip?", "", "Where did you stay?"]
    assert lines[3].startswith("Caf\ufffd")  # a lone CR ends a line; bad bytes are replaced
    assert len(lines) == 5 and lines[4] == ""
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model")], input="so how was the trip\n")
    assert result.exit_code == 0
    assert result.stdout == "So, how was the trip?\n"


def test_punctuate_needs_a_punctuator(tmp_path):
    spacy.blank("en").to_disk(tmp_path / "blank")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "blank")], input="hello\n")
    assert result.exit_code == 1
    assert "no punctuator" in result.output


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
    assert result.exit_code == 1 and "is not a DocBin" in result.output


def test_console_script_is_installed():
    result = subprocess.run(["spacy-punct", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "punctuate" in result.stdout


def test_entry_points_in_a_fresh_interpreter():
    code = (
        "import sys, spacy\n"
        "nlp = spacy.blank('en')\n"
        "pipe = nlp.add_pipe('punctuator')\n"
        "print(type(pipe).__name__, pipe.labels)\n"
        "from spacy.util import registry\n"
        "for kind, name in [('architectures', 'spacy_punct.PunctuatorModel.v1'), ('readers', 'spacy_punct.PunctCorpus.v1'),"
        " ('scorers', 'spacy_punct.punct_scorer.v1'), ('augmenters', 'spacy_punct.asr_noise.v1')]:\n"
        "    getattr(registry, kind).get(name)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Punctuator ('EMPTY', 'COMMA', 'PERIOD', 'QUESTION')" in result.stdout
