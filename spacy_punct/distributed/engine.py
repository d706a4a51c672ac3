"""Punctuating a Ray Dataset of records (`pip install spacy-punct[ray]`).

An actor pool maps the records in batches: each actor loads the pipeline once
(`map_batches` with a callable class; the pipeline is never shipped through
the object store), and Ray restarts an actor that dies and retries its
batches, so no record is lost or written twice. The same code runs on one
machine (`ray.init()`) and on a cluster (`RAY_ADDRESS`). Records keep every
field (an id among them) and gain `punctuated`, `sentences` and `tokens`, as
with `punctuate_records`. JSONL files travel as lines (`ray_io`): each
actor parses and writes its records as the single-process command does, so
no value is converted to a column type and back.
"""

import os
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union

import pyarrow
import ray

from ..formats.input_formats import check_engine, file_format
from ..formats.records import record_line
from ..formats.timed import RecordError, parse_json_line
from ..inference.folders import GROUP_FILES, FileDone, folder_files, pipeline_chooser, punctuate_folder
from ..inference.records import punctuate_records
from . import ray_io
from .ray_io import JSONLinesSink, JSONLinesSource, ParquetSource

# the read and write tasks unpickle the source and sink without importing this package
ray.cloudpickle.register_pickle_by_value(ray_io)


# the fields `output_record` adds to a record, as columns
_TOKEN = pyarrow.struct(
    [
        ("text", pyarrow.string()),
        ("start", pyarrow.int64()),
        ("end", pyarrow.int64()),
        ("source", pyarrow.int64()),
        ("source_start", pyarrow.int64()),
        ("punct", pyarrow.string()),
        ("start_time", pyarrow.float64()),
        ("end_time", pyarrow.float64()),
    ]
)
OUTPUT_SCHEMA = pyarrow.schema(
    [
        ("text", pyarrow.string()),
        ("punctuated", pyarrow.string()),
        ("sentences", pyarrow.list_(pyarrow.string())),
        ("tokens", pyarrow.list_(_TOKEN)),
    ]
)


class PunctuateBatch:
    """The callable class of `map_batches`: one pipeline per actor; a batch of
    records in (an Arrow table), their output records out, as columns."""

    batch_format = "pyarrow"

    def __init__(self, model: str, threads: int = 1, batch_size: int = 64) -> None:
        from ..pipelines.loading import load_for_long_run

        self.nlp = load_for_long_run(model, threads=threads)  # an actor loads its pipeline once
        self.batch_size = batch_size

    def __call__(self, batch: pyarrow.Table) -> pyarrow.Table:
        # Arrow's own Python values: integers stay integers, nested values stay nested
        outputs = self.punctuate(batch.to_pylist())
        # one schema for every batch, whatever its records hold (nulls where they lack a value)
        kept = [field for field in batch.schema if field.name not in OUTPUT_SCHEMA.names]
        return pyarrow.Table.from_pylist(outputs, schema=pyarrow.schema(kept + list(OUTPUT_SCHEMA)))

    def punctuate(self, records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The output records of a batch of records, in order."""
        return list(punctuate_records(self.nlp, records, batch_size=self.batch_size))


class PunctuateLines(PunctuateBatch):
    """JSONL in and out: a batch of lines (column `line`, as `JSONLinesSource`
    reads them) in, the output records' lines out (column `line`), each
    record read and written as the single-process command reads and writes
    it, its values untouched by any conversion to columns."""

    def __call__(self, batch: pyarrow.Table) -> Dict[str, List[str]]:
        records = [parse_json_line(line, "line") for line in batch.column("line").to_pylist()]
        return {"line": [record_line(output) for output in self.punctuate(records)]}


def punctuate_dataset(
    dataset: "Any",
    model: str,
    *,
    workers: int = 2,
    batch_size: int = 256,
    threads: int = 1,
    num_gpus: float = 0,
    actor_class: type = PunctuateBatch,
) -> "Any":
    """A lazy Dataset of the punctuated records of `dataset` (a text column, or
    timed `words`), mapped by `workers` actors, `batch_size` records at a time.
    `num_gpus`: per actor, for transformer recipes. Ray Data restarts an actor
    that dies and retries its batches (its defaults for actor pools)."""
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (workers, batch_size)):
        raise TypeError(f"workers and batch_size must be whole numbers, not {workers!r} and {batch_size!r}.")
    if workers < 1 or batch_size < 1:
        raise ValueError(f"workers and batch_size must be at least 1, not {workers} and {batch_size}.")
    return dataset.map_batches(
        actor_class,
        fn_constructor_kwargs={"model": str(model), "threads": threads, "batch_size": min(batch_size, 64)},
        batch_format=getattr(actor_class, "batch_format"),
        batch_size=batch_size,
        compute=ray.data.ActorPoolStrategy(size=workers),
        num_gpus=num_gpus,
        num_cpus=threads,
    )


class PunctuateFolderFiles:
    """The callable class of `punctuate_folder_on_ray`'s `map_batches`: an
    actor's pipelines, loaded once, and a batch of a folder's files (their
    paths within it) punctuated into the target folder under their names,
    as `punctuate_folder` does; what became of each file out, as columns."""

    def __init__(
        self, model: str, by_language: bool, changes: Dict[str, Any], threads: int, source: str, target: str,
        options: Dict[str, Any],
    ) -> None:  # fmt: skip
        self.choose = pipeline_chooser(model, by_language, changes, threads)
        self.source, self.target, self.options = Path(source), Path(target), options

    def __call__(self, batch: pyarrow.Table) -> Dict[str, List[Any]]:
        files = [Path(path) for path in batch.column("path").to_pylist()]
        done = list(punctuate_folder(self.choose, self.source, self.target, files=files, **self.options))
        columns: Dict[str, List[Any]] = {"path": [str(file.path) for file in done]}
        for name in ("words", "error", "language", "marks"):
            columns[name] = [getattr(file, name) for file in done]
        return columns


def punctuate_folder_on_ray(
    model: str,
    source: Union[str, Path],
    target: Union[str, Path],
    *,
    workers: int = 2,
    threads: int = 1,
    by_language: bool = False,
    changes: Optional[Dict[str, Any]] = None,
    address: Optional[str] = None,
    **options: Any,
) -> Iterator[FileDone]:
    """`punctuate_folder` on Ray: the folder's files (`folder_files`) shared
    by `workers` actors, each with its own copy of the pipeline `model` on
    `threads` threads, a group of files at a time (each file written under
    its name in `target`, a folder all the actors see); what became of each
    file in order of name, as it is done. `by_language`, `changes`: as for
    `punctuate_folder_in_processes`; `options`: `punctuate_folder`'s.
    Joins Ray at `address` (else `RAY_ADDRESS`), or starts a local one."""
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}.")
    source, target = Path(source).resolve(), Path(target).resolve()
    names = folder_files(source)
    if not names:
        return
    if not ray.is_initialized():
        init_ray(address)
    setup = (str(model), by_language, changes or {}, threads, str(source), str(target), options)
    execution = ray.data.DataContext.get_current().execution_options
    ordered, execution.preserve_order = execution.preserve_order, True  # in order of name; the caller's setting after
    try:
        done = ray.data.from_items([{"path": str(name)} for name in names]).map_batches(
            PunctuateFolderFiles,
            fn_constructor_args=setup,
            batch_format="pyarrow",
            batch_size=max(1, min(GROUP_FILES, -(-len(names) // (4 * workers)))),  # a few batches an actor
            compute=ray.data.ActorPoolStrategy(size=workers),
            num_cpus=threads,
        )
        for row in done.iter_rows():
            yield FileDone(Path(row["path"]), row["words"], row["error"], row["language"], row["marks"])
    finally:
        execution.preserve_order = ordered


# reading and writing files take no CPU of their own in Ray's accounting, so
# that they still run while the actors hold every CPU
IO_CPUS = 0


def read_records(path: Union[str, Path]) -> "Any":
    """A lazy Dataset of the records of a Parquet file or a folder of them,
    read by tasks that take no CPU in Ray's accounting: unlike
    `ray.data.read_parquet`, whose listing task waits for a whole CPU, it
    runs while the actors of `punctuate_dataset` hold every CPU (two workers
    on two cores). JSONL files go through `punctuate_files`, which keeps
    their values as written."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"{path} does not exist.")
    if input_format(path) != "parquet":
        raise ValueError(f"{path}: read_records reads Parquet; punctuate_files reads JSONL files as lines.")
    return ray.data.read_datasource(ParquetSource(str(path)), num_cpus=IO_CPUS)


def punctuate_files(
    model: str,
    input: Union[str, Path],
    output: Union[str, Path],
    *,
    workers: int = 2,
    batch_size: int = 256,
    threads: int = 1,
    num_gpus: float = 0,
    address: Optional[str] = None,
) -> int:
    """Punctuate JSONL or Parquet records (a file, or a folder of files of one
    format) into a folder of files of the same format, streamed: nothing is
    held whole. JSONL records are read and written as by the single-process
    command, line for line.
    Joins Ray at `address` (else `RAY_ADDRESS`), or starts a local one.
    Returns the number of records written."""
    input, output = Path(input), Path(output)
    format = input_format(input)
    if not ray.is_initialized():
        init_ray(address)
    options: Dict[str, Any] = {"workers": workers, "batch_size": batch_size, "threads": threads, "num_gpus": num_gpus}
    try:
        if format == "jsonl":
            lines = ray.data.read_datasource(JSONLinesSource(str(input)), num_cpus=IO_CPUS)
            lines = punctuate_dataset(lines, model, actor_class=PunctuateLines, **options)
            lines.write_datasink(JSONLinesSink(str(output)), ray_remote_args={"num_cpus": IO_CPUS})
        else:
            records = ray.data.read_datasource(ParquetSource(str(input)), num_cpus=IO_CPUS)
            punctuated = punctuate_dataset(records, model, **options)
            punctuated.write_parquet(str(output), ray_remote_args={"num_cpus": IO_CPUS})
    except ray.exceptions.RayError as e:
        # Ray passes on a worker's error as text: a bad record is told as such
        found = re.search(r"RecordError: (.+)", str(e))
        if found is None:
            raise
        raise RecordError(f"{input}: {found.group(1).strip()} The records done so far are in {output}.") from None
    return _count_rows(output, format)


# Ray ends idle worker processes beyond one per CPU within a second; the
# actors hold one per CPU, so without room for a few more every read and
# write task would start (and import Ray in) a new process
IDLE_IO_WORKERS = 4


def init_ray(address: Optional[str] = None, num_cpus: Optional[int] = None) -> None:
    """Join the Ray cluster at `address` (else `RAY_ADDRESS`), or start a local
    Ray (with `num_cpus`, default all) that keeps a few idle workers for the
    read and write tasks."""
    if address or os.environ.get("RAY_ADDRESS"):
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        return
    cpus = num_cpus or os.cpu_count() or 1
    ray.init(
        num_cpus=cpus,
        include_dashboard=False,
        log_to_driver=False,
        _system_config={"num_workers_soft_limit": cpus + IDLE_IO_WORKERS},
    )


def input_format(path: Path) -> str:
    """ "jsonl" or "parquet": the format of a file or of a folder's files, as
    `input_formats` reads their names, which the Ray engine must read."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    formats = {file_format(p) for p in files}
    if not files or len(formats) != 1:
        raise ValueError(f"{path}: expected .jsonl, .json or .parquet files of one format.")
    for file in files:
        check_engine(file, "ray")
    return formats.pop()


def _count_rows(folder: Path, format: str) -> int:
    """The number of records written to an output folder."""
    from pyarrow import parquet

    count = 0
    for file in sorted(p for p in folder.rglob("*") if p.is_file()):
        if format == "jsonl" and file.suffix == ".jsonl":
            with file.open(encoding="utf8") as lines:
                count += sum(1 for line in lines if line.strip())
        elif format == "parquet" and file.suffix == ".parquet":
            count += parquet.ParquetFile(file).metadata.num_rows
    return count
