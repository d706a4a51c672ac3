"""The command line's cold start: seconds from starting `spacy-punct punctuate
MODEL` in a new process to its first line of output, and each process's peak
resident memory, over several new processes (after one more that warms the
disk cache and is not counted).

    python projects/benchmarks/cold_start.py MODEL OUTPUT.json [--runs 5] [--text "..."]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

TEXT = "so how was the trip it was long but we saw the coast"


def cold_start(command: List[str]) -> Dict[str, Any]:
    """Seconds to the first line on stdout, and the peak resident memory in
    MiB, of one new process running `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first_line = process.stdout.readline()
    seconds = time.perf_counter() - start
    _, errors = process.communicate()
    if process.returncode != 0 or not first_line.strip():
        raise SystemExit(f"{' '.join(command)} failed: {errors.decode(errors='replace')[-500:]}")
    return {"seconds": seconds, "first_line": first_line.decode().rstrip("\n")}


def peak_memory_mib(command: List[str]) -> float:
    """The peak resident memory of one new process running `command`."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed (exit {process.returncode}).")
    return usage.ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("output", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--text", default=TEXT, help="the one line to punctuate")
    args = parser.parse_args()
    if args.runs < 1:
        raise SystemExit("--runs must be at least 1.")
    executable = shutil.which("spacy-punct")
    prefix = [executable] if executable else [sys.executable, "-m", "spacy_punct"]
    with tempfile.TemporaryDirectory() as folder:
        line = Path(folder) / "line.txt"
        line.write_text(args.text + "\n", encoding="utf8")
        command = prefix + ["punctuate", args.model, str(line)]
        cold_start(command)  # the disk cache
        runs = [cold_start(command) for _ in range(args.runs)]
        memory = [peak_memory_mib(command) for _ in range(args.runs)]
    seconds = [run["seconds"] for run in runs]
    result = {
        "model": args.model,
        "command": " ".join(["spacy-punct", "punctuate", args.model, "line.txt"]),
        "runs": args.runs,
        "seconds": seconds,
        "median_seconds": statistics.median(seconds),
        "peak_memory_mib": memory,
        "max_peak_memory_mib": max(memory),
        "first_line": runs[0]["first_line"],
    }
    print(json.dumps(result, indent=1))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
