"""The service's batcher: requests together, a bounded queue, each failure its own."""

import threading
import time

import pytest

from spacy_punct.service.batcher import Batcher, QueueFull


def test_waiting_requests_run_in_one_batch_and_get_their_own_results():
    batches = []

    def process(jobs):
        batches.append([job.items for job in jobs])
        return [[item * 2 for item in job.items] for job in jobs]

    batcher = Batcher(process, max_items=10, max_wait=0.2)
    futures = [batcher.submit([i, i + 1]) for i in range(3)]
    assert [future.result(timeout=5) for future in futures] == [[0, 2], [2, 4], [4, 6]]
    assert batches == [[[0, 1], [1, 2], [2, 3]]]
    batcher.close()


def test_a_full_queue_refuses_at_once_and_a_bad_job_fails_alone():
    release = threading.Event()

    def process(jobs):
        release.wait(5)
        if any(job.items == ["bad"] for job in jobs):
            raise ValueError("bad item")
        return [job.items for job in jobs]

    batcher = Batcher(process, max_queue=2, max_items=1, max_wait=0.0)
    first = batcher.submit(["a"])
    time.sleep(0.1)  # the worker holds the first job
    waiting = [batcher.submit(["bad"]), batcher.submit(["c"])]
    start = time.monotonic()
    with pytest.raises(QueueFull):
        batcher.submit(["d"])
    assert time.monotonic() - start < 0.1
    release.set()
    assert first.result(timeout=5) == ["a"]
    with pytest.raises(ValueError, match="bad item"):
        waiting[0].result(timeout=5)
    assert waiting[1].result(timeout=5) == ["c"]
    batcher.close()
    with pytest.raises(QueueFull):
        batcher.submit(["e"])
