"""Ray Data scaling on this machine, and a projection to a cluster.

    python projects/benchmarks/ray_scaling.py MODEL TEST.spacy OUTPUT.json [--repeat 64] [--rounds 2]

Writes test2011 cut into 40-word lines, repeated, as a JSONL file of records
and punctuates it, side by side in one run: with the single-process command
(`spacy-punct punctuate --input-format jsonl --format jsonl`, 1 and 2
threads), and with `spacy_punct.distributed.engine.punctuate_files` (JSONL in and
out, a local Ray with 2 CPUs) with 1 and 2 workers, alternating, best of
`--rounds`; then with 1 worker on half the data and with batches of 4x the
records, to separate what a run costs: a fixed start (Ray, actors loading the
pipeline), a cost per batch of records, and a cost per word. The projection
applies those measured costs to more workers, assuming the words per second
of one worker scale with workers (one core each, enough machines) and that
the fixed start does not grow: a projection, not a measurement.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ray
import spacy

from spacy_punct.distributed import init_ray, punctuate_files
from spacy_punct.training.corpus import PunctCorpus


def write_records(test: str, path: Path, words_per_line: int, repeat: int) -> int:
    nlp = spacy.blank("en")
    words = [t.text for eg in PunctCorpus(test, max_length=0)(nlp) for t in eg.predicted]
    lines = [" ".join(words[i : i + words_per_line]) for i in range(0, len(words), words_per_line)] * repeat
    with path.open("w", encoding="utf8") as f:
        for number, line in enumerate(lines):
            f.write(json.dumps({"id": number, "text": line}) + "\n")
    return sum(len(line.split()) for line in lines)


def timed_run(model: str, source: Path, workers: int, batch_size: int) -> float:
    out = Path(tempfile.mkdtemp()) / "out"
    start = time.perf_counter()
    punctuate_files(model, source, out, workers=workers, batch_size=batch_size)
    seconds = time.perf_counter() - start
    shutil.rmtree(out.parent)
    return seconds


def timed_command(model: str, source: Path, threads: int) -> float:
    """Seconds of the single-process command over the same records, start included."""
    out = Path(tempfile.mkdtemp()) / "out.jsonl"
    command = [
        sys.executable,
        "-m",
        "spacy_punct",
        "punctuate",
        model,
        str(source),
        "-o",
        str(out),
        "--input-format",
        "jsonl",
        "--format",
        "jsonl",
        "--threads",
        str(threads),
        "--no-progress",
    ]
    start = time.perf_counter()
    subprocess.run(command, check=True)
    seconds = time.perf_counter() - start
    shutil.rmtree(out.parent)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("test")
    parser.add_argument("output")
    parser.add_argument("--repeat", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--words-per-line", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    full, single = folder / "full.jsonl", folder / "single.jsonl"
    n_words = write_records(args.test, full, args.words_per_line, args.repeat)
    single.write_text(full.open(encoding="utf8").readline(), encoding="utf8")
    n_lines = sum(1 for _ in full.open())
    runs = {}

    def record(name: str, workers: int, batch: int, words: int, seconds: float) -> None:
        if name not in runs or seconds < runs[name]["seconds"]:
            runs[name] = {
                "workers": workers,
                "batch_size": batch,
                "words": words,
                "seconds": seconds,
                "words_per_second": words / seconds,
            }
        print(f"{name}: {words / seconds:,.0f} words/s ({seconds:.1f} s)", flush=True)

    for threads in (1, 2):
        record(
            f"single process, {threads} thread{'s' if threads > 1 else ''}",
            0,
            64,
            n_words,
            timed_command(args.model, full, threads),
        )
    init_ray(num_cpus=2)
    ray.data.DataContext.get_current().enable_progress_bars = False
    for _ in range(args.rounds):
        for name, workers in [("1 worker", 1), ("2 workers", 2)]:
            record(name, workers, args.batch_size, n_words, timed_run(args.model, full, workers, args.batch_size))
    record(
        "1 worker, 4x larger batches",
        1,
        4 * args.batch_size,
        n_words,
        timed_run(args.model, full, 1, 4 * args.batch_size),
    )
    starts = {}
    for workers in (1, 2):
        name = f"{workers} worker{'s' if workers > 1 else ''}, one record (the fixed start)"
        record(
            name, workers, args.batch_size, args.words_per_line, timed_run(args.model, single, workers, args.batch_size)
        )
        starts[workers] = runs[name]["seconds"]
    ray.shutdown()
    shutil.rmtree(folder)
    one, two = runs["1 worker"], runs["2 workers"]
    steady = {
        workers: n_words / (runs[name]["seconds"] - starts[workers])
        for workers, name in [(1, "1 worker"), (2, "2 workers")]
    }
    projection = []
    for workers in (1, 2, 8, 32, 128):
        for total in (10_000_000, 1_000_000_000):
            seconds = starts[1] + total / (workers * steady[1])
            projection.append(
                {"workers": workers, "words": total, "hours": seconds / 3600, "words_per_second": total / seconds}
            )
    result = {
        "model": args.model,
        "words": n_words,
        "records": n_lines,
        "rounds": args.rounds,
        "runs": runs,
        "scaling_efficiency_2_workers": two["words_per_second"] / (2 * one["words_per_second"]),
        "fixed_seconds": starts,
        "steady_words_per_second": steady,
        "steady_scaling_efficiency_2_workers": steady[2] / (2 * steady[1]),
        "projection": projection,
    }
    print(json.dumps({k: v for k, v in result.items() if k not in ("runs", "projection")}, indent=1))
    for row in projection:
        print(
            f"{row['workers']:>4} workers, {row['words']:>13,} words: {row['hours']:.2f} h "
            f"({row['words_per_second']:,.0f} words/s)"
        )
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
