"""Punctuating a Ray Dataset of records (`pip install spacy-punct[ray]`).

An actor pool maps the records in batches: each actor loads the pipeline once
(`map_batches` with a callable class; the pipeline is never shipped through
the object store), and Ray restarts an actor that dies and retries its
batches, so no record is lost or written twice. The same code runs on one
machine (`ray.init()`) and on a cluster (`RAY_ADDRESS`). Records keep every
field (an id among them) and gain `punctuated`, `sentences` and `tokens`, as
with `punctuate_records`.
"""
from typing import Any, Dict

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
