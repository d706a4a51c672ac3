"""Punctuating a Ray Dataset of records (`pip install spacy-punct[ray]`).

An actor pool maps the records in batches: each actor loads the pipeline once
(`map_batches` with a callable class; the pipeline is never shipped through
the object store), and Ray restarts an actor that dies and retries its
batches, so no record is lost or written twice. The same code runs on one
machine (`ray.init()`) and on a cluster (`RAY_ADDRESS`). Records keep every
field (an id among them) and gain `punctuated`, `sentences` and `tokens`, as
with `punctuate_records`.
"""
from pathlib import Path
from typing import Any, Dict, Optional, Union

from .inference import punctuate_records
from .threads import set_threads


class PunctuateBatch:
    """The callable class of `map_batches`: one pipeline per actor."""

    def __init__(self, model: str, threads: int = 1, batch_size: int = 64) -> None:
        from .inference import load_pipeline

        set_threads(threads)
        self.nlp = load_pipeline(model)
        self.batch_size = batch_size

    def __call__(self, batch: "Any") -> "Any":
        import pandas

        records = [_plain(record) for record in batch.to_dict("records")]
        return pandas.DataFrame(list(punctuate_records(self.nlp, records, batch_size=self.batch_size)))


def _plain(record: Dict[str, Any]) -> Dict[str, Any]:
    """A record read by Ray as plain Python values (numpy arrays to lists)."""
    return {key: value.tolist() if hasattr(value, "tolist") else value for key, value in record.items()}


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
    `num_gpus`: per actor, for transformer recipes."""
    if workers < 1 or batch_size < 1:
        raise ValueError(f"workers and batch_size must be at least 1, not {workers} and {batch_size}.")
    return dataset.map_batches(
        actor_class,
        fn_constructor_kwargs={"model": str(model), "threads": threads, "batch_size": min(batch_size, 64)},
        batch_format="pandas",
        batch_size=batch_size,
        concurrency=workers,
        num_gpus=num_gpus,
        num_cpus=threads,
        max_restarts=-1,
        max_task_retries=-1,
    )


INPUT_FORMATS = {".jsonl": "json", ".json": "json", ".parquet": "parquet"}
# reading and writing files take no CPU of their own in Ray's accounting, so
# that they still run while the actors hold every CPU
_IO_TASKS = {"num_cpus": 0}


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
    held whole. Joins Ray at `address` (else `RAY_ADDRESS`), or starts a local
    one. Returns the number of records written."""
    import ray

    input, output = Path(input), Path(output)
    format = input_format(input)
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    if format == "json":
        dataset = ray.data.read_json(str(input), lines=True, ray_remote_args=_IO_TASKS)
    else:
        dataset = ray.data.read_parquet(str(input), ray_remote_args=_IO_TASKS)
    result = punctuate_dataset(
        dataset, model, workers=workers, batch_size=batch_size, threads=threads, num_gpus=num_gpus
    )
    if format == "json":
        result.write_json(str(output), force_ascii=False, ray_remote_args=_IO_TASKS)
    else:
        result.write_parquet(str(output), ray_remote_args=_IO_TASKS)
    return _count_rows(output, format)


def input_format(path: Path) -> str:
    """"json" or "parquet": the format of a file or of a folder's files."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    formats = {INPUT_FORMATS.get(p.suffix.lower()) for p in files}
    if not files or None in formats or len(formats) != 1:
        raise ValueError(f"{path}: expected .jsonl, .json or .parquet files of one format.")
    return formats.pop()


def _count_rows(folder: Path, format: str) -> int:
    """The number of records written to an output folder."""
    import pyarrow.parquet as parquet

    count = 0
    for file in sorted(p for p in folder.rglob("*") if p.is_file()):
        if format == "json" and file.suffix == ".json":
            with file.open(encoding="utf8") as lines:
                count += sum(1 for line in lines if line.strip())
        elif format == "parquet" and file.suffix == ".parquet":
            count += parquet.ParquetFile(file).metadata.num_rows
    return count
