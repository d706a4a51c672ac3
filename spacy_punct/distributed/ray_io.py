"""Record files on Ray Data: a JSONL source that reads blocks of lines and a
sink that writes them, and a Parquet source that reads blocks of records.
Ray's read and write tasks unpickle these classes; they are pickled by value
(see `spacy_punct.distributed`) and import nothing of this package, so a
task's worker process starts without loading spaCy or torch. Both sources
read in the tasks Ray gives them, with the CPUs asked for (none): Ray Data's
own Parquet reader first lists the files in a task that needs a whole CPU,
which never starts while the actors hold every CPU.
"""

from typing import Any, Iterator, List

import pyarrow
from pyarrow import parquet
from ray.data import BlockBasedFileDatasink
from ray.data.block import BlockAccessor
from ray.data.datasource import FileBasedDatasource

# records per block read: small blocks start the actors early and keep them evenly busy
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


class ParquetSource(FileBasedDatasource):
    """Reads Parquet files as blocks of their records, streamed by row group."""

    _FILE_EXTENSIONS = ["parquet"]

    def _open_input_source(
        self, filesystem: "pyarrow.fs.FileSystem", path: str, **open_args: Any
    ) -> "pyarrow.NativeFile":
        return filesystem.open_input_file(path)  # Parquet's footer needs random access

    def _read_stream(self, f: "pyarrow.NativeFile", path: str) -> Iterator[pyarrow.Table]:
        for batch in parquet.ParquetFile(f).iter_batches(batch_size=LINES_PER_BLOCK):
            yield pyarrow.Table.from_batches([batch])


class JSONLinesSink(BlockBasedFileDatasink):
    """Writes the `line` column of each block as the lines of a .jsonl file."""

    def __init__(self, path: str) -> None:
        super().__init__(path, file_format="jsonl")

    def write_block_to_file(self, block: BlockAccessor, file: "pyarrow.NativeFile") -> None:
        lines = block.to_arrow().column("line").to_pylist()
        file.write("".join(line + "\n" for line in lines).encode("utf8"))
