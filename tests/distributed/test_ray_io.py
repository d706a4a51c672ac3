"""JSONL files on Ray Data: lines read in blocks and written back (skipped without the `ray` extra)."""

import json

import pytest

pyarrow = pytest.importorskip("pyarrow")
pytest.importorskip("ray")

from ray.data.block import BlockAccessor  # noqa: E402

from spacy_punct import ray_io  # noqa: E402
from spacy_punct.distributed.ray_io import JSONLinesSink, JSONLinesSource  # noqa: E402

RECORDS = [
    {"id": 1, "text": "so how was the trip"},
    {"id": 2, "text": "a line\u2028separator and a next-line\u0085 inside"},
    {"id": 3, "text": "größer als 2 €", "meta": {"turns": [1, 2.5]}},
]


def _read(tmp_path, data: bytes, chunk_bytes: int, lines_per_block: int, monkeypatch):
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(ray_io, "LINES_PER_BLOCK", lines_per_block)
    source = JSONLinesSource(str(path))
    source.chunk_bytes = chunk_bytes
    return [table.column("line").to_pylist() for table in source._read_stream(pyarrow.BufferReader(data), str(path))]


@pytest.mark.parametrize("chunk_bytes", [1, 7, 1 << 20])
def test_lines_end_at_newlines_only_whatever_the_chunks(tmp_path, monkeypatch, chunk_bytes):
    text = "\ufeff" + "\n\n".join(json.dumps(r, ensure_ascii=False) for r in RECORDS) + "\r\n  \n"
    blocks = _read(tmp_path, text.encode("utf8"), chunk_bytes, 2, monkeypatch)
    assert [len(block) for block in blocks] == [2, 1]
    assert [json.loads(line) for block in blocks for line in block] == RECORDS


def test_undecodable_bytes_are_replaced(tmp_path, monkeypatch):
    blocks = _read(tmp_path, b'{"text": "caf\xe9"}', 4, 10, monkeypatch)
    assert blocks == [['{"text": "caf\ufffd"}']]


def test_an_empty_file_has_no_blocks(tmp_path, monkeypatch):
    assert _read(tmp_path, b"", 4, 10, monkeypatch) == []


def test_the_sink_writes_each_line_once(tmp_path):
    lines = [json.dumps(r, ensure_ascii=False) for r in RECORDS]
    out = pyarrow.BufferOutputStream()
    JSONLinesSink(str(tmp_path)).write_block_to_file(BlockAccessor.for_block(pyarrow.table({"line": lines})), out)
    assert out.getvalue().to_pybytes().decode("utf8").split("\n") == lines + [""]
