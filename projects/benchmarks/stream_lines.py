"""`spacy-punct stream` against `spacy-punct punctuate` on the same file of
many short lines (a recogniser's lines of a few words), one after the other
in one run, each a whole process (loading included) and without it (the
seconds less the load of the pipeline); `stream` both on the file and on
its lines piped into standard input. Prints the seconds and words/s of
each and their ratio (and writes them to OUTPUT.json).

    python projects/benchmarks/stream_lines.py MODEL [OUTPUT.json] [--lines 10000] [--words 3] [--threads 2]
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

WORDS = "so how was the trip it was long but we saw the coast i think john met mary in paris".split()


def seconds(command: list, stdin: Optional[Path] = None) -> float:
    start = time.perf_counter()
    if stdin is None:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    else:
        with stdin.open("rb") as piped:
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stdin=piped)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("output", nargs="?")
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--words", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lines.txt"
        path.write_text(
            "".join(" ".join(rng.choice(WORDS) for _ in range(args.words)) + "\n" for _ in range(args.lines)),
            encoding="utf8",
        )
        cli = [sys.executable, "-m", "spacy_punct"]
        threads = ["--threads", str(args.threads)]
        load = seconds([sys.executable, "-c", f"from spacy_punct import load_pipeline; load_pipeline({args.model!r})"])
        punctuate = seconds(cli + ["punctuate", args.model, str(path)] + threads)
        stream = seconds(cli + ["stream", args.model, str(path)] + threads)
        piped = seconds(cli + ["stream", args.model] + threads, stdin=path)
    n_words = args.lines * args.words
    result = {
        "model": args.model,
        "lines": args.lines,
        "words": n_words,
        "threads": args.threads,
        "load_seconds": round(load, 2),
        "punctuate_seconds": round(punctuate, 2),
        "stream_seconds": round(stream, 2),
        "punctuate_words_per_second": round(n_words / max(punctuate - load, 1e-9)),
        "stream_words_per_second": round(n_words / max(stream - load, 1e-9)),
        "stream_over_punctuate": round((stream - load) / max(punctuate - load, 1e-9), 2),
        "stream_stdin_seconds": round(piped, 2),
        "stream_stdin_over_punctuate": round((piped - load) / max(punctuate - load, 1e-9), 2),
    }
    print(json.dumps(result, indent=2))
    if args.output:
        Path(args.output).write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
