"""The service with its pipelines' copies in processes of their own: each
copy punctuates as the pipeline in this process does."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from spacy_punct import load_pipeline, punctuate, punctuate_records  # noqa: E402
from spacy_punct.service.app import create_app  # noqa: E402
from spacy_punct.service.processes import ReplicaProcesses  # noqa: E402

LINES = ["so how was the trip it was long but we saw the coast", "hi kevin my internet is down"]
RECORDS = [{"id": 1, "words": [{"word": "where", "start": 0.0, "end": 0.3}, {"word": "did", "start": 0.3, "end": 0.5}]}]


def test_each_copy_punctuates_as_this_process_does_in_a_process_of_its_own():
    nlp = load_pipeline("en_punct_sm")
    settings = nlp.get_pipe("punctuator").settings
    copies = ReplicaProcesses(["en_punct_sm"], replicas=2, threads=1)
    try:
        pids = set(copies.pids())
        assert len(pids) == 2 and os.getpid() not in pids
        for replica in range(2):
            texts = copies.run(replica, "en_punct_sm", "texts", settings, LINES)
            assert texts == [doc.text for doc in punctuate(nlp, LINES)]
            records = copies.run(replica, "en_punct_sm", "records", settings, RECORDS)
            assert records == list(punctuate_records(nlp, RECORDS))
    finally:
        copies.close()


def test_the_service_with_replicas_answers_as_with_one():
    app = create_app(["en_punct_sm"], lambda name: load_pipeline(name), replicas=2, load_now=True)
    expected = [doc.text for doc in punctuate(load_pipeline("en_punct_sm"), LINES)]
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
        for _ in range(4):
            assert client.post("/punctuate", json={"texts": LINES}).json() == {"texts": expected}
        bad = client.post("/punctuate", json={"records": [{"words": [{"start": 1.0}]}]})
        assert bad.status_code == 400 and "error" in bad.json()


def _spawned_children(pid: int) -> list:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            command = (status.parent / "cmdline").read_text()
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid) and "spawn_main" in command:
            found.append(int(fields["Pid"]))
    return found


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads the process tree from /proc")
def test_serve_with_replicas_runs_them_in_processes_and_stops_them_on_sigterm():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "spacy_punct", "serve", "en_punct_sm", "--port", str(port), "--replicas", "2"]
    server = subprocess.Popen(command, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                if httpx.get(f"{url}/health", timeout=60).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        expected = [doc.text for doc in punctuate(load_pipeline("en_punct_sm"), LINES)]
        assert httpx.post(f"{url}/punctuate", json={"texts": LINES}, timeout=60).json() == {"texts": expected}
        workers = _spawned_children(server.pid)
        assert len(workers) == 2
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 0, server.stderr.read().decode()  # shut down gracefully: status 0
        assert b"Traceback" not in server.stderr.read()
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_a_copy_that_cannot_load_says_why_and_leaves_no_process():
    from spacy_punct.pipelines.loading import PipelineError

    before = set(_spawned_children(os.getpid()))
    with pytest.raises(PipelineError, match="no_such_pipeline"):
        ReplicaProcesses(["no_such_pipeline"], replicas=2, threads=1)
    assert set(_spawned_children(os.getpid())) <= before
