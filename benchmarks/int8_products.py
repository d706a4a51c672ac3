"""Words per second of a pipeline's int8 layers with each way of computing
their integer products (`spacy_punct.layers.int8_linear`): torch's int8
product (`torch._int_mm`) and the exact float32 one, the same lines, batch and
threads, alternating rounds; whether both wrote the same texts; and which way
the pipeline takes on this machine.

    python benchmarks/int8_products.py PIPELINE TEST.spacy [--lines 64] [--threads 2] [--rounds 2] [-o OUT.json]
"""
import argparse
import json
from pathlib import Path
from typing import Dict, List

from spacy_punct.benchmark import benchmark_lines, count_words, cpu_name, words_per_second
from spacy_punct.layers import int8_linear
from spacy_punct.pipelines import load_pipeline

WAYS = {"torch._int_mm": True, "float32": False}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("data", type=Path)
    parser.add_argument("--lines", type=int, default=64, help="the first lines of 40 words of the test set")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args()
    nlp = load_pipeline(args.pipeline, threads=args.threads)
    lines = benchmark_lines(nlp, args.data)[: args.lines]
    chosen = "torch._int_mm" if int8_linear.int8_products_are_fast() else "float32"
    best: Dict[str, float] = dict.fromkeys(WAYS, 0.0)
    texts: Dict[str, List[str]] = {}
    chooser = int8_linear.int8_products_are_fast
    try:
        for round_ in range(args.rounds):
            for way, fast in WAYS.items():
                int8_linear.int8_products_are_fast = lambda fast=fast: fast  # type: ignore[assignment]
                best[way] = max(best[way], words_per_second(nlp, lines, batch_size=64))
                if round_ == 0:
                    texts[way] = [doc.text for doc in nlp.pipe(lines, batch_size=64)]
    finally:
        int8_linear.int8_products_are_fast = chooser  # type: ignore[assignment]
    result = {
        "pipeline": args.pipeline, "data": str(args.data), "lines": len(lines), "words": count_words(lines),
        "threads": args.threads, "cpu": cpu_name(), "chosen": chosen, "words_per_second": best,
        "same_texts": texts["torch._int_mm"] == texts["float32"],
    }
    print(json.dumps(result, indent=2))
    if args.output:
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
