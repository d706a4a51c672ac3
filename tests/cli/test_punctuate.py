"""`spacy-punct punctuate`: outputs that must never lose the input or the lines written."""
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_punct.cli import app

runner = CliRunner()


@pytest.fixture
def model(trained, tmp_path) -> str:
    trained.to_disk(tmp_path / "model")
    return str(tmp_path / "model")


def _input(tmp_path: Path) -> Path:
    source = tmp_path / "in.txt"
    source.write_text("so how was the trip\n" * 300, encoding="utf8")
    return source


def test_an_output_hard_linked_to_the_input_is_refused(model, tmp_path):
    source = _input(tmp_path)
    before = source.read_bytes()
    os.link(source, tmp_path / "out.txt")
    result = runner.invoke(app, ["punctuate", model, str(source), "-o", str(tmp_path / "out.txt")])
    assert result.exit_code == 1
    assert "is the input" in result.output and "Traceback" not in result.output
    assert source.read_bytes() == before


def test_an_output_linked_symbolically_to_the_input_is_refused(model, tmp_path):
    source = _input(tmp_path)
    (tmp_path / "link.txt").symlink_to(source)
    result = runner.invoke(app, ["punctuate", model, str(source), "-o", str(tmp_path / "link.txt")])
    assert result.exit_code == 1 and "is the input" in result.output
    assert source.read_text(encoding="utf8").count("\n") == 300


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_one_line(model, tmp_path):
    result = runner.invoke(app, ["punctuate", model, str(_input(tmp_path)), "-o", "/dev/full"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: cannot write /dev/full: No space left on device. The output written before it is kept."]


def test_a_gzip_file_cut_in_its_first_block_is_named(model, tmp_path):
    import gzip

    path = tmp_path / "in.txt.gz"
    path.write_bytes(gzip.compress(b"so how was the trip\n" * 10, mtime=0)[:20])
    result = runner.invoke(app, ["punctuate", model, str(path)])
    assert result.exit_code == 1
    assert "breaks off before its first line" in result.output and "Aborted" not in result.output
