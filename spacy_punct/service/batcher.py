"""Dynamic batching for a service: requests from many clients punctuated
together by one worker thread per pipeline, behind a bounded queue."""

import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence, Union

BatchRun = Callable[[List["Job"]], List[Any]]


class QueueFull(RuntimeError):
    """The queue holds as many requests as it may: try again later."""


@dataclass
class Job:
    """One request's items and how to punctuate them."""

    items: List[Any]
    options: Any = None
    future: Future = field(default_factory=Future)


class Batcher:
    """Jobs run in batches by `process` (jobs -> one result per job, or an
    exception for the job) on a worker thread, or by each of a sequence of
    them on a worker thread of its own, side by side (a pipeline's copies in
    other processes): a worker takes what waits,
    up to `max_items` items, and then waits up to `max_wait` seconds for
    more only while the batch holds fewer jobs than the one before. Clients
    that each send a request once answered come back together as the batch
    before did, and are run together as soon as they are all in; a lone
    client's request runs at once. At most `max_queue` jobs wait: `submit`
    refuses more at once with `QueueFull`, so memory stays bounded under any
    load. `close` lets the jobs taken finish and refuses new ones."""

    def __init__(
        self,
        process: Union[BatchRun, Sequence[BatchRun]],
        *,
        max_queue: int = 64,
        max_items: int = 64,
        max_wait: float = 0.005,
    ) -> None:
        self.processes = [process] if callable(process) else list(process)
        self.max_items = max_items
        self.max_wait = max_wait
        self._queue: "queue.Queue[Optional[Job]]" = queue.Queue(maxsize=max_queue)
        self._closed = False
        self._workers = [
            threading.Thread(target=self._work, args=(run,), name=f"spacy-punct-batcher-{number}", daemon=True)
            for number, run in enumerate(self.processes)
        ]
        for worker in self._workers:
            worker.start()

    def submit(self, items: List[Any], options: Any = None) -> Future:
        """Queue a job; its future gives its result."""
        if self._closed:
            raise QueueFull("the service is shutting down")
        job = Job(items, options)
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            raise QueueFull(f"{self._queue.maxsize} requests are waiting already") from None
        return job.future

    def close(self) -> None:
        self._closed = True
        for _ in self._workers:
            self._queue.put(None)  # each worker stops at the first it takes
        for worker in self._workers:
            worker.join()

    def _work(self, process: BatchRun) -> None:
        last_jobs = 0
        while True:
            job = self._queue.get()
            if job is None:
                return
            batch = [job]
            n_items = len(job.items)
            deadline = time.monotonic() + self.max_wait
            stop = False
            while n_items < self.max_items:
                try:
                    if len(batch) < last_jobs:
                        following = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                    else:
                        following = self._queue.get_nowait()
                except queue.Empty:
                    break
                if following is None:
                    stop = True
                    break
                batch.append(following)
                n_items += len(following.items)
            last_jobs = len(batch)
            self._run(process, batch)
            if stop:
                return

    def _run(self, process: BatchRun, batch: List[Job]) -> None:
        try:
            results = process(batch)
        except Exception as e:  # a failure of the batch: each job alone, so that only the bad one fails
            if len(batch) == 1:
                batch[0].future.set_exception(e)
                return
            for job in batch:
                self._run(process, [job])
            return
        for job, result in zip(batch, results):
            job.future.set_result(result)
