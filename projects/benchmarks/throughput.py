"""Words per second of `nlp.pipe` on a test set cut into lines, side by side
in one run: thread settings, batch sizes, thinc's default dense products
(blis, `spacy.load`) against numpy's BLAS (`spacy_punct.load_pipeline`), one
process against `n_process=2`; with peak memory and where the time goes.

    python projects/benchmarks/throughput.py MODEL TEST.spacy [--words-per-line 40] [--repeat 4] [--rounds 3]

Each single-process setting runs `--rounds` times, the settings alternating,
and its best rate counts: other processes on the machine only ever slow a run.
"""

import argparse
import json
import resource
import time
from typing import Dict, List

import spacy

from spacy_punct.evaluation.speed import benchmark_lines, count_words, words_per_second
from spacy_punct.pipelines import load_pipeline
from spacy_punct.pipelines.bundled import resolve_model
from spacy_punct.rewrite import build_rewritten, plan_rewrite
from spacy_punct.runtime.threads import set_threads


def breakdown(nlp, lines: List[str], batch_size: int) -> Dict[str, float]:
    """Seconds per step: the tokenizer, each component before the punctuator,
    and the punctuator's head, decoding and rewrite."""
    punct = nlp.get_pipe("punctuator")
    before = [(name, pipe) for name, pipe in nlp.pipeline[: nlp.pipe_names.index("punctuator")]]
    steps = dict.fromkeys(["tokenizer", *(name for name, _ in before), "head", "decoding", "rewrite"], 0.0)
    for i in range(0, len(lines), batch_size):
        start = time.perf_counter()
        docs = [nlp.make_doc(line) for line in lines[i : i + batch_size]]
        times = [("tokenizer", time.perf_counter())]
        for name, pipe in before:
            pipe.set_annotations(docs, pipe.predict(docs))
            times.append((name, time.perf_counter()))
        scores = punct.predict(docs)
        times.append(("head", time.perf_counter()))
        decisions = punct._annotate(docs, scores)
        times.append(("decoding", time.perf_counter()))
        for doc, decided in zip(docs, decisions):
            build_rewritten(doc, plan_rewrite(doc, decided))
        times.append(("rewrite", time.perf_counter()))
        for step, end in times:
            steps[step] += end - start
            start = end
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("test")
    parser.add_argument("--words-per-line", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=4)
    parser.add_argument(
        "--rounds", type=int, default=3, help="each setting this many times, alternating; the best counts"
    )
    parser.add_argument("--output", help="write the results as JSON here")
    args = parser.parse_args()
    fast = load_pipeline(args.model)
    plain = spacy.load(resolve_model(args.model))
    lines = benchmark_lines(fast, args.test, args.words_per_line) * args.repeat
    n_words = count_words(lines)
    print(f"{len(lines)} lines, {n_words} words")
    settings = [
        (name, nlp, threads, batch_size)
        for threads in (1, 2)
        for batch_size in (64, 256)
        for name, nlp in (("spacy.load (blis)", plain), ("load_pipeline (numpy BLAS)", fast))
    ]
    best: Dict[int, float] = {}
    for _ in range(args.rounds):
        for i, (_, nlp, threads, batch_size) in enumerate(settings):
            set_threads(threads)
            best[i] = max(best.get(i, 0.0), words_per_second(nlp, lines, batch_size))
    rows = []
    for i, (name, _, threads, batch_size) in enumerate(settings):
        rows.append({"pipeline": name, "threads": threads, "batch_size": batch_size, "words_per_second": best[i]})
        print(f"{name:28} threads {threads} batch {batch_size:4}: {best[i]:9,.0f} words/s")
    set_threads(1)
    rate = words_per_second(fast, lines, 256, n_process=2)
    rows.append({"pipeline": "load_pipeline, n_process=2", "threads": 1, "batch_size": 256, "words_per_second": rate})
    print(f"{'load_pipeline, n_process=2':28} threads 1 batch  256: {rate:9,.0f} words/s")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: this process {peak_mb:.0f} MB, largest worker {children_mb:.0f} MB")
    set_threads(2)
    steps = breakdown(fast, lines, 256)
    total = sum(steps.values())
    print(
        f"where the time goes (threads 2, batch 256, {n_words / total:,.0f} words/s): "
        + ", ".join(f"{step} {100 * s / total:.0f}%" for step, s in steps.items())
    )
    if args.output:
        with open(args.output, "w", encoding="utf8") as f:
            json.dump({"rows": rows, "steps": steps, "peak_mb": peak_mb, "worker_peak_mb": children_mb}, f, indent=2)


if __name__ == "__main__":
    main()
