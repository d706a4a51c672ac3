"""Dynamic batching for a service: requests from many clients punctuated
together by one worker thread per pipeline, behind a bounded queue; long
requests in steps of bounded work, taken in turn with the others, and
requests whose clients left dropped."""

import collections
import queue
import threading
import time
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Generator, List, Optional, Sequence, Tuple, Union

BatchRun = Callable[[List["Job"]], List[Any]]
# a long job's run: None after each step of bounded work, then the job's result
StepsRun = Callable[["Job"], Generator[Optional[Any], None, None]]


class QueueFull(RuntimeError):
    """The queue holds as many requests as it may: try again later."""


@dataclass
class Job:
    """One request's items, how to punctuate them and how many words they
    hold. Cancelling its future drops it: a job is never run, or stops
    at its next step, once its client has gone."""

    items: List[Any]
    options: Any = None
    words: int = 0
    future: Future = field(default_factory=Future)

    @property
    def dropped(self) -> bool:
        return self.future.cancelled()

    def settle(self, result: Any = None, error: Optional[BaseException] = None) -> None:
        """Give the job its result or error, unless it was dropped."""
        try:
            if error is not None:
                self.future.set_exception(error)
            else:
                self.future.set_result(result)
        except InvalidStateError:  # dropped meanwhile
            pass


class Batcher:
    """Jobs run in batches by `process` (jobs -> one result per job, or an
    exception for the job) on a worker thread, or by each of a sequence of
    them on a worker thread of its own, side by side (a pipeline's copies in
    other processes): a worker takes what waits,
    up to `max_items` items, and then waits up to `max_wait` seconds for
    more only while the batch holds fewer jobs than the one before. Clients
    that each send a request once answered come back together as the batch
    before did, and are run together as soon as they are all in; a lone
    client's request runs at once. A job of more than `step_words` words
    runs by `steps` (one per `process`), a step at a time, in turn with the
    other long jobs and between the batches of short ones, so that no client
    waits behind another's megabyte. At most `max_queue` jobs wait: `submit`
    refuses more at once with `QueueFull`, so memory stays bounded under any
    load. `close` lets the batch in progress finish, fails the long jobs
    still running and refuses new ones."""

    def __init__(
        self,
        process: Union[BatchRun, Sequence[BatchRun]],
        steps: Union[None, StepsRun, Sequence[StepsRun]] = None,
        *,
        max_queue: int = 64,
        max_items: int = 64,
        max_wait: float = 0.005,
        step_words: int = 4_000,
    ) -> None:
        self.processes = [process] if callable(process) else list(process)
        step_runs = [steps] * len(self.processes) if steps is None or callable(steps) else list(steps)
        self.max_items = max_items
        self.max_wait = max_wait
        self.step_words = step_words
        self._queue: "queue.Queue[Optional[Job]]" = queue.Queue(maxsize=max_queue)
        self._closed = False
        self._workers = [
            threading.Thread(target=self._work, args=(run, steps_run), name=f"spacy-punct-batcher-{n}", daemon=True)
            for n, (run, steps_run) in enumerate(zip(self.processes, step_runs))
        ]
        for worker in self._workers:
            worker.start()

    def submit(self, items: List[Any], options: Any = None, words: int = 0) -> Future:
        """Queue a job of `words` words; its future gives its result, and
        cancelling it drops the job."""
        if self._closed:
            raise QueueFull("the service is shutting down")
        job = Job(items, options, words)
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

    def _work(self, process: BatchRun, steps: Optional[StepsRun]) -> None:
        last_jobs = 0
        running: Deque[Tuple[Job, Generator[Optional[Any], None, None]]] = collections.deque()
        while True:
            batch: List[Job] = []
            n_items = 0
            deadline = time.monotonic() + self.max_wait
            stop = False
            while n_items < self.max_items:
                try:
                    if not batch and not running:
                        job = self._queue.get()  # nothing to do: wait for work
                    elif len(batch) < last_jobs:
                        job = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                    else:
                        job = self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                if job.dropped:
                    continue
                if steps is not None and job.words > self.step_words:
                    running.append((job, steps(job)))
                    continue
                batch.append(job)
                n_items += len(job.items)
            if batch:
                last_jobs = len(batch)
                self._run(process, batch)
            if stop:
                for job, run in running:
                    run.close()
                    job.settle(error=QueueFull("the service is shutting down"))
                return
            if running:
                self._step(running)

    def _step(self, running: Deque[Tuple[Job, Generator[Optional[Any], None, None]]]) -> None:
        """One step of the first long job; it goes to the back of the line."""
        job, run = running.popleft()
        if job.dropped:
            run.close()
            return
        try:
            result = next(run)
        except Exception as e:
            job.settle(error=e)
            return
        if result is None:
            running.append((job, run))
        else:
            run.close()
            job.settle(result)

    def _run(self, process: BatchRun, batch: List[Job]) -> None:
        batch = [job for job in batch if not job.dropped]
        if not batch:
            return
        try:
            results = process(batch)
        except Exception as e:  # a failure of the batch: each job alone, so that only the bad one fails
            if len(batch) == 1:
                batch[0].settle(error=e)
                return
            for job in batch:
                self._run(process, [job])
            return
        for job, result in zip(batch, results):
            job.settle(result)
