import json

import pytest
from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.formats.input_formats import check_engine, file_format, reads


@pytest.mark.parametrize(
    "name,format",
    [
        ("a.jsonl", "jsonl"),
        ("a.JSONL.gz", "jsonl"),
        ("a.json", "jsonl"),
        ("a.parquet", "parquet"),
        ("a.txt", "text"),
        ("a.txt.gz", "text"),
        ("a", "text"),
    ],
)
def test_a_files_name_says_its_format(name, format):
    assert file_format(name) == format


def test_each_engine_reads_what_the_table_says():
    assert reads("local", "a.jsonl.gz") and not reads("ray", "a.jsonl.gz")
    assert reads("ray", "a.parquet") and not reads("local", "a.parquet")
    assert reads("local", "a.json") and reads("ray", "a.json")
    with pytest.raises(
        ValueError, match=r"the local engine does not read parquet files ending in \.parquet \(--engine ray does\)"
    ):
        check_engine("a.parquet", "local")
    with pytest.raises(ValueError, match=r"\(--engine local does\)"):
        check_engine("a.jsonl.gz", "ray")


def test_the_local_engine_reads_json_records_as_the_ray_engine_does(tmp_path, trained):
    """A .json file of records was read as plain text lines by this process and as records by Ray."""
    trained.to_disk(tmp_path / "model")
    trained_path = tmp_path / "model"
    (tmp_path / "in.json").write_text(json.dumps({"id": 3, "text": "so how was the trip"}) + "\n", encoding="utf8")
    result = CliRunner().invoke(app, ["punctuate", str(trained_path), str(tmp_path / "in.json"), "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["id"] == 3
    (tmp_path / "in.parquet").write_bytes(b"PAR1")
    result = CliRunner().invoke(app, ["punctuate", str(trained_path), str(tmp_path / "in.parquet")])
    assert result.exit_code == 1 and "(--engine ray does)" in result.output
