"""Words per second of pipelines as on a CPU with AVX2 and no int8
dot-product instructions (no AVX-512, no VNNI, no AMX), measured on a CPU that
has them: each pipeline on its own test set, in alternating rounds, the best
of each.

The script runs itself again with the libraries held to AVX2
(`FBGEMM_ENABLE_INSTRUCTIONS`, `ONEDNN_MAX_CPU_ISA`, `ATEN_CPU_CAPABILITY`,
`MKL_ENABLE_INSTRUCTIONS`), and leaves `torch._int_mm` out of the int8 layers'
products: where the CPU has no VNNI, torch computes it on a slow path (a
product of 3,000 x 384 by 384 x 1,536 took 1,508 ms against 38 ms in float32
on the AVX2 machine), which the layers never take there. What this cannot
hold back is the cores' own speed: compare pipelines within one run, not
with another machine's figures.

    python projects/benchmarks/avx2_speed.py PIPELINE=TEST.spacy ... [--layers PIPELINE=N ...] [--threads 2] [--rounds 3] [-o OUT.json]

`--layers hu_punct_trf=3` also times a copy of the pipeline whose encoders
keep only their lowest 3 layers (its speed only: such a cut is untrained).
"""

import argparse
import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

AVX2_ENVIRONMENT = {
    "FBGEMM_ENABLE_INSTRUCTIONS": "AVX2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
}


def held_to_avx2() -> bool:
    return all(os.environ.get(name) == value for name, value in AVX2_ENVIRONMENT.items())


def pairs(values: List[str], what: str) -> List[Tuple[str, str]]:
    out = []
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name or not rest:
            sys.exit(f"Error: {value!r} is not {what}.")
        out.append((name, rest))
    return out


def without_int_mm() -> None:
    """The int8 layers choose among their exact products as on a CPU whose
    torch has no fast `torch._int_mm`."""
    from spacy_punct.layers import int8_linear

    exact = int8_linear.exact_products.__wrapped__

    @functools.lru_cache(maxsize=None)
    def exact_products(levels: int = 127) -> Tuple[str, ...]:
        return tuple(way for way in exact(levels) if way != int8_linear.INT_MM)

    int8_linear.exact_products = exact_products  # type: ignore[assignment]
    int8_linear.fastest_product.cache_clear()


def cut_layers(nlp, n_layers: int) -> None:
    """Keep the lowest `n_layers` layers of every encoder of the pipeline."""
    from spacy_punct.layers.hf_models import hf_models

    for _, model in hf_models(nlp):
        del model.encoder.layer[n_layers:]
        model.config.num_hidden_layers = n_layers


def measure(args: argparse.Namespace) -> Dict:
    from spacy_punct.evaluation.speed import benchmark_lines, count_words, machine, words_per_second
    from spacy_punct.pipelines import load_pipeline

    without_int_mm()
    timed = pairs(args.pipelines, "PIPELINE=TEST.spacy")
    cuts = dict(pairs(args.layers, "PIPELINE=N"))
    runs: Dict[str, Tuple] = {}
    for name, data in timed:
        nlp = load_pipeline(name, threads=args.threads)
        runs[name] = (nlp, data, benchmark_lines(nlp, Path(data)))
        if name in cuts:
            cut = load_pipeline(name, threads=args.threads)
            cut_layers(cut, int(cuts[name]))
            runs[f"{name}, lowest {cuts[name]} layers"] = (cut, data, runs[name][2])
    best = dict.fromkeys(runs, 0.0)
    for round_ in range(args.rounds):
        for label, (nlp, _, lines) in runs.items():
            best[label] = max(best[label], words_per_second(nlp, lines, batch_size=64))
            print(f"round {round_ + 1}: {label} {best[label]:,.0f}", file=sys.stderr)
    return {
        "threads": args.threads,
        "rounds": args.rounds,
        "batch_size": 64,
        "machine": machine(),
        "held_to": "AVX2 (" + ", ".join(f"{k}={v}" for k, v in AVX2_ENVIRONMENT.items()) + "; no torch._int_mm)",
        "data": {label: data for label, (_, data, _) in runs.items()},
        "words": {label: count_words(lines) for label, (_, _, lines) in runs.items()},
        "words_per_second": best,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipelines", nargs="+", metavar="PIPELINE=TEST.spacy")
    parser.add_argument("--layers", nargs="*", default=[], metavar="PIPELINE=N")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args()
    if not held_to_avx2():
        env = {**os.environ, **AVX2_ENVIRONMENT}
        sys.exit(subprocess.run([sys.executable, *sys.argv], env=env).returncode)
    result = measure(args)
    print(f"threads {args.threads}, best of {args.rounds}; {result['held_to']}")
    print("| pipeline | test set | words/s |\n|---|---|---:|")
    for label, speed in result["words_per_second"].items():
        print(f"| {label} | {result['data'][label]} | {speed:,.0f} |")
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
