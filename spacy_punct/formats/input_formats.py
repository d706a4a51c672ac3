"""One table of input formats for every engine: what a file's name says it
holds, and which engine reads which. `text`: one document per line (plain or
gzip); `jsonl`: a JSON record per line (`.jsonl`, `.json`, and `.jsonl.gz`
for this process); `parquet`: records in columns, read on Ray."""

from pathlib import Path
from typing import Dict, FrozenSet, Optional, Union

# the name's ending -> the records a file holds (any other ending: plain text)
RECORD_ENDINGS: Dict[str, str] = {".jsonl": "jsonl", ".json": "jsonl", ".jsonl.gz": "jsonl", ".parquet": "parquet"}
# the formats each engine of `spacy-punct punctuate` reads
ENGINE_FORMATS: Dict[str, FrozenSet[str]] = {
    "local": frozenset({"text", "jsonl"}),
    "ray": frozenset({"jsonl", "parquet"}),
}
# endings an engine cannot open though the format is its own (Ray reads JSONL files as they are)
UNREAD_ENDINGS: Dict[str, FrozenSet[str]] = {"local": frozenset(), "ray": frozenset({".jsonl.gz"})}


def ending(path: Union[str, Path]) -> str:
    """A file name's ending as the table knows it (`.jsonl.gz` whole)."""
    name = Path(path).name.lower()
    return next((end for end in RECORD_ENDINGS if name.endswith(end) and "." in end[1:]), Path(name).suffix)


def file_format(path: Union[str, Path]) -> str:
    """The format a file's name says it holds: text, jsonl or parquet."""
    return RECORD_ENDINGS.get(ending(path), "text")


def reads(engine: str, path: Union[str, Path], format: Optional[str] = None) -> bool:
    """Whether `engine` reads the file at `path` (as `format`, or as its name says)."""
    return (format or file_format(path)) in ENGINE_FORMATS[engine] and ending(path) not in UNREAD_ENDINGS[engine]


def check_engine(path: Union[str, Path], engine: str, format: Optional[str] = None) -> str:
    """The format of `path` (or `format`, given), which `engine` must read;
    a ValueError names the engine that does where it cannot."""
    format = format or file_format(path)
    if not reads(engine, path, format):
        others = [name for name in ENGINE_FORMATS if name != engine and reads(name, path, format)]
        hint = f" (--engine {others[0]} does)" if others else ""
        raise ValueError(
            f"{Path(path).name}: the {engine} engine does not read {format} files "
            f"ending in {ending(path) or 'no suffix'}{hint}."
        )
    return format
