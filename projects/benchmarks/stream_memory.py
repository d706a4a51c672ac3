"""Memory of a long stream: the resident memory of one process while a
`Streamer` punctuates N words (test2011's words, repeated), sampled every
`--every` words. Flat samples mean memory does not grow with the stream.

    python projects/benchmarks/stream_memory.py MODEL TEST.spacy OUTPUT.json [--words 1000000] [--every 50000]
"""

import argparse
import json
import resource
import time
from itertools import cycle, islice
from pathlib import Path

import spacy

from spacy_punct.inference.streaming import FixedLookahead, Streamer
from spacy_punct.pipelines import load_pipeline
from spacy_punct.runtime.threads import set_threads
from spacy_punct.training.corpus import PunctCorpus


def rss_mb() -> float:
    """The current resident memory of this process, in MB (Linux)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("test")
    parser.add_argument("output")
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--every", type=int, default=50_000)
    parser.add_argument("--lookahead", type=int, default=4)
    args = parser.parse_args()
    set_threads(1)
    nlp = load_pipeline(args.model)
    words = [w for eg in PunctCorpus(args.test, max_length=0)(spacy.blank("en")) for w in eg.predicted.text.split()]
    streamer = Streamer(nlp, FixedLookahead(args.lookahead))
    samples, committed = [], 0
    start = time.perf_counter()
    for n, word in enumerate(islice(cycle(words), args.words), start=1):
        committed += len(streamer.push(word))
        if n % args.every == 0:
            samples.append({"words": n, "rss_mb": rss_mb(), "seconds": time.perf_counter() - start})
            print(samples[-1], flush=True)
            write(args, samples, done=False)
    committed += len(streamer.flush())
    assert committed == args.words
    write(args, samples, done=True)


def write(args: argparse.Namespace, samples: list, done: bool) -> None:
    """Write the samples so far (a long run can be read while it goes)."""
    result = {
        "model": args.model,
        "words": args.words,
        "lookahead": args.lookahead,
        "done": done,
        "samples": samples,
        "growth_mb_after_first_sample": samples[-1]["rss_mb"] - samples[0]["rss_mb"],
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
