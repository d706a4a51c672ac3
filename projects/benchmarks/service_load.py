"""A load test of `spacy-punct serve` on loopback, bounded in time: the same
lines punctuated offline (`punctuate`, in this process) and through the
service by 1, 8 and 64 concurrent clients for `--seconds` each (one line a
request, lines of mixed length), then `--streams` concurrent WebSocket
streams. Prints and writes (OUTPUT.json) words/s against offline, p50 / p99
latency, errors, responses that differ from the offline output, and the
server's memory at the start, peak and end of each phase.

    python projects/benchmarks/service_load.py [OUTPUT.json] [--model en] [--seconds 30] [--streams 100] [--threads 2]
"""

import argparse
import asyncio
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any, Dict, List

import httpx
import websockets

from spacy_punct import FixedLookahead, Streamer, load_pipeline, punctuate

ROOT = Path(__file__).resolve().parents[2]


def mixed_lines(n: int, seed: int = 0) -> List[str]:
    """Lines of 3 to 120 words, lower-cased and unpunctuated, cut from the demo texts."""
    words = " ".join((ROOT / "demo" / name).read_text(encoding="utf8") for name in ("train.txt", "test.txt")).split()
    words = [w.strip('.,?!;:"()').lower() for w in words if w.strip('.,?!;:"()')]
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        length = rng.choice([3, 5, 8, 12, 20, 40, 80, 120])
        start = rng.randrange(len(words) - length)
        lines.append(" ".join(words[start : start + length]))
    return lines


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_tree(pid: int) -> List[int]:
    """The process `pid` and all its descendants (a server's replicas)."""
    parents: Dict[int, int] = {}
    for path in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = path.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        parents[int(path.parent.name)] = int(fields[1])
    tree, found = [pid], []
    while tree:
        current = tree.pop()
        found.append(current)
        tree += [child for child, parent in parents.items() if parent == current]
    return found


def rss_mb(pid: int) -> float:
    """The resident memory of `pid` and its descendants."""
    total = 0.0
    for member in process_tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        total += sum(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")) / 1024
    return total


def cpu_seconds(pid: int, descendants: bool = True) -> float:
    """The processor time (user and system) `pid` (and its live descendants) has used."""
    total = 0
    for member in process_tree(pid) if descendants else [pid]:
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class MemoryWatch:
    """The server's resident memory, read every 0.5 s."""

    def __init__(self, pid: int) -> None:
        self.pid, self.samples, self._stop = pid, [], threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(rss_mb(self.pid))
            self._stop.wait(0.5)

    def phase(self) -> Dict[str, float]:
        """The phase's memory: at its start, its peak, its end, and the peaks
        of its halves and quarters (flat: the later ones no higher)."""
        samples, self.samples = self.samples or [rss_mb(self.pid)], []
        half = (len(samples) + 1) // 2
        quarters = [samples[len(samples) * k // 4 : max(len(samples) * (k + 1) // 4, 1)] or samples for k in range(4)]
        return {
            "start_mb": round(samples[0]),
            "peak_mb": round(max(samples)),
            "end_mb": round(samples[-1]),
            "first_half_peak_mb": round(max(samples[:half])),
            "second_half_peak_mb": round(max(samples[half:] or samples)),
            "quarter_peaks_mb": [round(max(quarter)) for quarter in quarters],
        }

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def load_phase(
    url: str, model: str, lines: List[str], expected: Dict[str, str], clients: int, seconds: float
) -> Dict[str, Any]:
    latencies: List[float] = []
    counts = {"requests": 0, "words": 0, "errors": 0, "differ": 0}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    address = urllib.parse.urlsplit(url)

    def client(seed: int) -> None:
        rng = random.Random(seed)
        # the standard library's client: the clients share the server's cores,
        # and it spends less of them on a request than httpx does
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        try:
            while time.monotonic() < deadline:
                line = rng.choice(lines)
                start = time.perf_counter()
                try:
                    body = json.dumps({"model": model, "texts": [line]})
                    connection.request("POST", "/punctuate", body, {"Content-Type": "application/json"})
                    response = connection.getresponse()
                    body = response.read()
                    ok = response.status == 200
                    same = ok and json.loads(body)["texts"] == [expected[line]]
                except (OSError, http.client.HTTPException, ValueError):
                    connection.close()  # the next request opens a new connection
                    ok = same = False
                elapsed = time.perf_counter() - start
                with lock:
                    latencies.append(elapsed)
                    counts["requests"] += 1
                    counts["words"] += len(line.split()) if ok else 0
                    counts["errors"] += not ok
                    counts["differ"] += ok and not same
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(clients)]
    begin = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - begin
    latencies.sort()
    return {
        "clients": clients,
        "seconds": round(elapsed, 2),
        **counts,
        "words_per_second": round(counts["words"] / elapsed),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p99_ms": round(1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 1),
    }


async def stream_phase(url: str, model: str, lines: List[str], expected: List[str], streams: int) -> Dict[str, Any]:
    latencies: List[float] = []
    counts = {"streams": streams, "errors": 0, "differ": 0}

    async def one() -> None:
        texts = []
        try:
            async with websockets.connect(
                f"{url.replace('http', 'ws')}/stream?model={model}&lookahead=4", open_timeout=120, close_timeout=60
            ) as ws:
                for line in lines + ['{"end": true}']:
                    start = time.perf_counter()
                    await ws.send(line)
                    answer = json.loads(await ws.recv())
                    latencies.append(time.perf_counter() - start)
                    if "error" in answer:
                        counts["errors"] += 1
                        return
                    texts += [w["text"] for w in answer["committed"]]
        except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
            counts["errors"] += 1
            return
        counts["differ"] += texts != expected

    begin = time.monotonic()
    await asyncio.gather(*(one() for _ in range(streams)))
    elapsed = time.monotonic() - begin
    latencies.sort()
    n_words = streams * sum(len(line.split()) for line in lines)
    return {
        **counts,
        "words": n_words,
        "seconds": round(elapsed, 1),
        "words_per_second": round(n_words / elapsed),
        "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1) if latencies else None,
    }


def combined_rounds(rounds: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Rounds of the stream phase as one: their counts added, their latencies
    as the slowest round's."""
    if len(rounds) == 1:
        return rounds[0]
    combined: Dict[str, Any] = {key: sum(r[key] for r in rounds) for key in ("errors", "differ", "words")}
    combined["streams"] = rounds[0]["streams"]
    combined["rounds"] = len(rounds)
    combined["seconds"] = round(sum(r["seconds"] for r in rounds), 1)
    combined["words_per_second"] = round(combined["words"] / combined["seconds"])
    for key in ("p50_ms", "p99_ms"):
        combined[key] = max((r[key] for r in rounds if r[key] is not None), default=None)
    return combined


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", nargs="?")
    parser.add_argument("--model", default="en")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--stream-rounds", type=int, default=1, help="Rounds of the streams, one after the other.")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--server-threads", type=int, default=None, help="The server's torch threads (default: --threads)."
    )
    parser.add_argument(
        "--server-replicas",
        type=int,
        default=1,
        help="The server's --replicas (copies of the pipeline in processes of their own).",
    )
    parser.add_argument("--clients", default="1,8,64", help="The load phases' client counts.")
    parser.add_argument("--offline-rounds", type=int, default=3, help="Warm passes over the lines timed offline.")
    parser.add_argument("--batch-wait-ms", type=float, default=None, help="The server's --batch-wait-ms.")
    parser.add_argument("--batch-items", type=int, default=None, help="The server's --batch-items.")
    args = parser.parse_args()
    lines = mixed_lines(400)
    nlp = load_pipeline(args.model, threads=args.threads)
    expected = {line: doc.text for line, doc in zip(lines, punctuate(nlp, lines))}  # also warms the pipeline

    def offline_words_per_second() -> float:
        start = time.perf_counter()
        for _ in range(args.offline_rounds):
            assert [doc.text for doc in punctuate(nlp, lines)] == [expected[line] for line in lines]
        return args.offline_rounds * sum(len(line.split()) for line in lines) / (time.perf_counter() - start)

    offline = offline_words_per_second()
    stream_lines = [" ".join(lines[i].split()[:5]) for i in range(10)]
    streamer = Streamer(nlp, FixedLookahead(4))
    stream_expected = [w.text for line in stream_lines for w in streamer.push_many(line.split())]
    stream_expected += [w.text for w in streamer.flush()]
    port = free_port()
    server_threads = args.server_threads or args.threads
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "spacy_punct",
            "serve",
            args.model,
            "--port",
            str(port),
            "--threads",
            str(server_threads),
            "--replicas",
            str(args.server_replicas),
        ]
        + ([] if args.batch_wait_ms is None else ["--batch-wait-ms", str(args.batch_wait_ms)])
        + ([] if args.batch_items is None else ["--batch-items", str(args.batch_items)])
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/health").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        watch = MemoryWatch(server.pid)
        watch.phase()
        result: Dict[str, Any] = {
            "model": args.model,
            "threads": args.threads,
            "server_threads": server_threads,
            "server_replicas": args.server_replicas,
            "seconds": args.seconds,
            "offline_words_per_second": round(offline),
            "offline_rounds": args.offline_rounds,
            "batch_wait_ms": args.batch_wait_ms,
            "batch_items": args.batch_items,
            "load": [],
            "streams": None,
        }
        for clients in [int(n) for n in args.clients.split(",")]:
            # timed again just before and just after each phase, the server idle, and
            # the phase set against their mean: other loads on a shared machine change
            # the offline figure from minute to minute
            before = offline_words_per_second()
            server_cpu, clients_cpu = cpu_seconds(server.pid), cpu_seconds(os.getpid(), False)
            phase = load_phase(url, args.model, lines, expected, clients, args.seconds)
            phase["cores_used"] = {  # of the phase's wall time: the server's and the clients'
                "server": round((cpu_seconds(server.pid) - server_cpu) / phase["seconds"], 2),
                "clients": round((cpu_seconds(os.getpid(), False) - clients_cpu) / phase["seconds"], 2),
            }
            after = offline_words_per_second()
            phase_offline = (before + after) / 2
            phase["offline_before_after"] = [round(before), round(after)]
            phase["offline_words_per_second"] = round(phase_offline)
            phase["share_of_offline"] = round(phase["words_per_second"] / phase_offline, 2)
            phase["memory"] = watch.phase()
            result["load"].append(phase)
            print(json.dumps(phase), flush=True)
        if args.streams:
            rounds = [
                asyncio.run(stream_phase(url, args.model, stream_lines, stream_expected, args.streams))
                for _ in range(args.stream_rounds)
            ]
            result["streams"] = combined_rounds(rounds)
            result["streams"]["memory"] = watch.phase()
            print(json.dumps(result["streams"]), flush=True)
        watch.stop()
    finally:
        server.terminate()
        server.wait(timeout=60)
    print(json.dumps(result, indent=2))
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
