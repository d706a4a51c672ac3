"""Words per second of a pipeline's int8 layers with each way of computing
their integer products that is exact on this machine
(`spacy_punct.layers.int8_linear`: torch's int8 product `torch._int_mm`,
fbgemm's u8 by s8 product for weights of 7 bits, the float32 one), the same
lines, batch and threads, alternating rounds; whether all wrote the same
texts; and which way the pipeline takes on this machine.

    python projects/benchmarks/int8_products.py PIPELINE TEST.spacy [--lines 64] [--threads 2] [--rounds 2] [--ways WAY ...] [-o OUT.json]
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Dict, List

from spacy_punct.evaluation.speed import benchmark_lines, count_words, cpu_name, words_per_second
from spacy_punct.layers import int8_linear
from spacy_punct.pipelines import load_pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("data", type=Path)
    parser.add_argument("--lines", type=int, default=64, help="the first lines of 40 words of the test set")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--ways",
        nargs="+",
        metavar="WAY",
        help="time only these of the exact ways (default: all; names as in the output)",
    )
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args()
    nlp = load_pipeline(args.pipeline, threads=args.threads)
    lines = benchmark_lines(nlp, args.data)[: args.lines]
    if "int8_quantizer" not in nlp.pipe_names:
        sys.exit(f"Error: {args.pipeline} has no int8_quantizer: none of its products are int8 ones.")
    weight_bits = nlp.get_pipe("int8_quantizer").weight_bits
    levels = int8_linear.weight_levels(weight_bits)
    ways = int8_linear.exact_products(levels)
    unknown = set(args.ways or ()) - set(ways)
    if unknown:
        sys.exit(f"Error: not an exact way here: {', '.join(sorted(unknown))} (exact: {', '.join(ways)}).")
    ways = tuple(way for way in ways if not args.ways or way in args.ways)
    chosen = int8_linear.fastest_product(levels)
    best: Dict[str, float] = dict.fromkeys(ways, 0.0)
    texts: Dict[str, List[str]] = {}
    chooser = int8_linear.fastest_product
    try:
        for round_ in range(args.rounds):
            for way in ways:
                int8_linear.fastest_product = lambda levels, way=way: way  # type: ignore[assignment]
                best[way] = max(best[way], words_per_second(nlp, lines, batch_size=64))
                if round_ == 0:
                    texts[way] = [doc.text for doc in nlp.pipe(lines, batch_size=64)]
    finally:
        int8_linear.fastest_product = chooser  # type: ignore[assignment]
    result = {
        "pipeline": args.pipeline,
        "data": str(args.data),
        "lines": len(lines),
        "words": count_words(lines),
        "threads": args.threads,
        "cpu": cpu_name(),
        "weight_bits": weight_bits,
        "chosen": chosen,
        "words_per_second": best,
        "same_texts": all(texts[way] == texts[ways[0]] for way in ways),
    }
    print(json.dumps(result, indent=2))
    if args.output:
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
