"""JSONL files on Ray Data: a source that reads blocks of lines, a sink that
writes them. Ray's read and write tasks unpickle these classes; they are
pickled by value (see `spacy_punct.distributed`) and import nothing of this
package, so a task's worker process starts without loading spaCy or torch.
"""
from typing import Iterator, List

import pyarrow
from ray.data import BlockBasedFileDatasink
from ray.data.block import BlockAccessor
from ray.data.datasource import FileBasedDatasource

# lines of JSONL per block read: small blocks start the actors early and keep them evenly busy
LINES_PER_BLOCK = 1024


class JSONLinesSource(FileBasedDatasource):
    """Reads .jsonl files as blocks of their non-blank lines (column `line`),
    streamed: a line ends at "\\n" only (JSON strings may hold U+2028 and
    other characters that `str.splitlines` breaks at); undecodable bytes
    become U+FFFD, as in the single-process command."""

    _FILE_EXTENSIONS = ["jsonl", "json"]
    chunk_bytes = 1 << 20

    def _read_stream(self, f: "pyarrow.NativeFile", path: str) -> Iterator[pyarrow.Table]:
        lines: List[str] = []
        rest = b""
        first = True
        while True:
            chunk = f.read(self.chunk_bytes)
            parts = (rest + chunk).split(b"\n")
            rest = parts.pop() if chunk else b""  # a line not yet ended
            for part in parts:
                if first:
                    part, first = part.removeprefix(b"\xef\xbb\xbf"), False
                if part.strip():
                    lines.append(part.decode("utf8", errors="replace"))
            while len(lines) >= LINES_PER_BLOCK or (not chunk and lines):
                yield pyarrow.table({"line": lines[:LINES_PER_BLOCK]})
                lines = lines[LINES_PER_BLOCK:]
            if not chunk:
                return


class JSONLinesSink(BlockBasedFileDatasink):
    """Writes the `line` column of each block as the lines of a .jsonl file."""

    def __init__(self, path: str) -> None:
        super().__init__(path, file_format="jsonl")

    def write_block_to_file(self, block: BlockAccessor, file: "pyarrow.NativeFile") -> None:
        lines = block.to_arrow().column("line").to_pylist()
        file.write("".join(line + "\n" for line in lines).encode("utf8"))
