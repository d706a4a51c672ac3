"""A pipeline's copies in processes of their own, for the service on one
machine (`spacy-punct serve --replicas N`): the service's batcher runs a
batch in each of them side by side. One torch thread in each of two
processes reads small batches faster than two threads in one (an operation
on a few rows waits for its slower thread), and their Python runs side by
side, not in turn for one interpreter. The processes are spawned, not
forked: a fork after torch ran with several threads hangs."""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Dict, List, Sequence

from spacy.language import Language

from .work import run_items

_PIPELINES: Dict[str, Language] = {}  # in a replica process: the pipelines it serves


def _load(models: Sequence[str], threads: int) -> None:
    from ..pipelines.loading import load_pipeline

    for name in models:
        _PIPELINES[name] = load_pipeline(name, threads=threads)


def _ready() -> bool:
    return True


def _run(model: str, kind: str, settings: Any, items: List[Any]) -> List[Any]:
    return run_items(_PIPELINES[model], kind, settings, items)


class ReplicaProcesses:
    """`replicas` processes, each with every pipeline of `models` loaded once
    on `threads` torch threads; `run(replica, ...)` punctuates items in one."""

    def __init__(self, models: Sequence[str], replicas: int, threads: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._pools = [
            ProcessPoolExecutor(1, mp_context=context, initializer=_load, initargs=(list(models), threads))
            for _ in range(replicas)
        ]
        for pool in self._pools:  # each loads its pipelines before the service is ready
            pool.submit(_ready).result()

    def __len__(self) -> int:
        return len(self._pools)

    def run(self, replica: int, model: str, kind: str, settings: Any, items: List[Any]) -> List[Any]:
        return self._pools[replica].submit(_run, model, kind, settings, items).result()

    def close(self) -> None:
        for pool in self._pools:
            pool.shutdown(wait=True)
