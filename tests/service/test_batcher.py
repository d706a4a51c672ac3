"""The service's batcher: requests together, a bounded queue, each failure its own."""

import threading
import time

import pytest

from spacy_punct.service.batcher import Batcher, QueueFull


def _recording(release=None):
    batches = []

    def process(jobs):
        if release is not None:
            release.wait(5)
        batches.append([job.items for job in jobs])
        return [[item * 2 for item in job.items] for job in jobs]

    return batches, process


def test_waiting_requests_run_in_one_batch_and_get_their_own_results():
    release = threading.Event()
    batches, process = _recording(release)
    batcher = Batcher(process, max_items=10, max_wait=0.2)
    held = batcher.submit([9])
    time.sleep(0.1)  # the worker holds the first job while three more come
    futures = [batcher.submit([i, i + 1]) for i in range(3)]
    release.set()
    assert held.result(timeout=5) == [18]
    assert [future.result(timeout=5) for future in futures] == [[0, 2], [2, 4], [4, 6]]
    assert batches == [[[9]], [[0, 1], [1, 2], [2, 3]]]
    batcher.close()


def test_a_batch_waits_for_as_many_requests_as_the_one_before_and_a_lone_one_runs_at_once():
    batches, process = _recording()
    batcher = Batcher(process, max_items=10, max_wait=10.0)
    start = time.monotonic()
    assert batcher.submit([1]).result(timeout=5) == [2]
    assert time.monotonic() - start < 1  # no batch before it: no wait
    start = time.monotonic()
    assert batcher.submit([2]).result(timeout=5) == [4]
    assert time.monotonic() - start < 1  # one client, one request a batch: no wait
    batcher.close()
    release = threading.Event()
    batches, held_process = _recording(release)
    batcher = Batcher(held_process, max_items=10, max_wait=10.0)
    first = [batcher.submit([0])]
    time.sleep(0.1)
    first += [batcher.submit([i]) for i in (1, 2)]
    release.set()
    [future.result(timeout=5) for future in first]  # batches of one, then two: the last held two
    again = [batcher.submit([3])]
    time.sleep(0.2)  # the batch waits for a second request, as the one before held two
    again.append(batcher.submit([4]))
    assert [future.result(timeout=5) for future in again] == [[6], [8]]
    assert batches == [[[0]], [[1], [2]], [[3], [4]]]
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


def test_each_run_of_several_takes_batches_side_by_side_and_close_stops_them_all():
    both_running = threading.Barrier(2, timeout=5)  # broken unless two batches run at once
    ran = []

    def run(name):
        def process(jobs):
            both_running.wait()
            ran.append(name)
            return [job.items for job in jobs]

        return process

    batcher = Batcher([run("a"), run("b")], max_items=1, max_wait=0.0)
    futures = [batcher.submit([i]) for i in range(2)]
    assert [future.result(timeout=10) for future in futures] == [[0], [1]]
    assert sorted(ran) == ["a", "b"]
    batcher.close()
    assert not any(worker.is_alive() for worker in batcher._workers)


def _long_steps(log, step_seconds=0.05):
    """A long job's run: a step per item, logged."""

    def steps(job):
        for item in job.items:
            time.sleep(step_seconds)
            log.append(("step", item))
            yield None
        yield [item * 2 for item in job.items]

    return steps


def test_a_long_job_runs_in_steps_and_short_ones_go_between_them():
    log = []
    batches, process = _recording()
    batcher = Batcher(process, _long_steps(log), max_items=10, max_wait=0.0, step_words=100)
    long = batcher.submit(list(range(40)), words=10_000)
    time.sleep(0.3)  # a few steps in
    start = time.monotonic()
    short = batcher.submit([5], words=1)
    assert short.result(timeout=5) == [10]
    waited = time.monotonic() - start
    assert not long.done() and waited < 0.5  # a step at most, not the long job's two seconds
    assert long.result(timeout=10) == [item * 2 for item in range(40)]
    assert len([entry for entry in log if entry[0] == "step"]) == 40
    batcher.close()


def test_a_dropped_job_is_not_run_and_a_long_one_stops_at_its_next_step():
    log = []
    release = threading.Event()
    batches, process = _recording(release)
    batcher = Batcher(process, _long_steps(log), max_items=1, max_wait=0.0, step_words=100)
    held = batcher.submit([1])  # the worker waits on this one
    time.sleep(0.1)
    queued = batcher.submit([2])
    assert queued.cancel()  # its client left while it waited
    release.set()
    assert held.result(timeout=5) == [2]
    long = batcher.submit(list(range(100)), words=10_000)
    time.sleep(0.3)
    long.cancel()
    steps = len(log)
    time.sleep(0.3)
    assert 0 < steps and len(log) <= steps + 1  # stopped at its next step
    assert batches == [[[1]]]  # the dropped job never ran
    later = batcher.submit([3])
    assert later.result(timeout=5) == [6]
    batcher.close()


def test_close_fails_a_long_job_still_running():
    log = []
    _, process = _recording()
    batcher = Batcher(process, _long_steps(log), max_wait=0.0, step_words=100)
    long = batcher.submit(list(range(1_000)), words=100_000)
    time.sleep(0.2)
    start = time.monotonic()
    batcher.close()
    assert time.monotonic() - start < 1.0
    with pytest.raises(QueueFull, match="shutting down"):
        long.result(timeout=1)
