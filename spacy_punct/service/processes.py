"""A pipeline's copies in processes of their own, for the service on one
machine (`spacy-punct serve --replicas N`): the service's batcher runs a
batch in each of them side by side. One torch thread in each of two
processes reads small batches faster than two threads in one (an operation
on a few rows waits for its slower thread), and their Python runs side by
side, not in turn for one interpreter. The processes are spawned, not
forked: a fork after torch ran with several threads hangs. Each copy is
reached through a pipe of its own, which the thread that runs a batch
writes and reads itself: no thread between them to wake."""

import multiprocessing
import threading
from multiprocessing.connection import Connection
from typing import Any, List, Sequence, Tuple

from .work import run_items


def _serve(connection: Connection, models: Sequence[str], threads: int) -> None:
    """A replica process: load the pipelines, then answer each batch sent
    ((model, kind, settings, items) -> (True, results) or (False, error))
    until None or the pipe closes."""
    from ..pipelines.loading import load_pipeline

    try:
        pipelines = {name: load_pipeline(name, threads=threads) for name in models}
    except Exception as e:
        connection.send((False, e))
        return
    connection.send((True, None))
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        if message is None:
            return
        model, kind, settings, items = message
        try:
            connection.send((True, run_items(pipelines[model], kind, settings, items)))
        except Exception as e:  # the request's own fault, answered as the batcher expects
            connection.send((False, e))


class ReplicaProcesses:
    """`replicas` processes, each with every pipeline of `models` loaded once
    on `threads` torch threads (ready when this returns); `run(replica, ...)`
    punctuates items in one."""

    def __init__(self, models: Sequence[str], replicas: int, threads: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._replicas: List[Tuple[Any, Connection, threading.Lock]] = []
        try:
            for _ in range(replicas):
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, list(models), threads), daemon=True)
                process.start()
                theirs.close()
                self._replicas.append((process, ours, threading.Lock()))
            for number in range(replicas):  # each loads its pipelines before the service is ready
                self._answer(number)
        except BaseException:
            self.close()
            raise

    def __len__(self) -> int:
        return len(self._replicas)

    def pids(self) -> List[int]:
        return [process.pid for process, _, _ in self._replicas]

    def run(self, replica: int, model: str, kind: str, settings: Any, items: List[Any]) -> List[Any]:
        _, connection, lock = self._replicas[replica]
        with lock:  # one batch at a time on a pipe
            connection.send((model, kind, settings, items))
            return self._answer(replica)

    def _answer(self, replica: int) -> Any:
        try:
            ok, value = self._replicas[replica][1].recv()
        except EOFError:
            raise RuntimeError(f"replica {replica + 1} of the service stopped") from None
        if not ok:
            raise value
        return value

    def close(self) -> None:
        for process, connection, lock in self._replicas:
            with lock:
                try:
                    connection.send(None)
                except OSError:  # it stopped already
                    pass
            process.join(timeout=30)
            connection.close()
        self._replicas = []
