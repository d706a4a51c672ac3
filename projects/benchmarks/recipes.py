"""Every recipe side by side in one run: test2011 micro F1 (whole documents,
and with 10% simulated recognition errors) and `nlp.pipe` words/s over
test2011 cut into 40-word lines, the same threads and batch for all, speeds
measured in alternating rounds (best of `--rounds`).

    python projects/benchmarks/recipes.py TEST.spacy OUTPUT.json NAME=MODEL [NAME=MODEL ...] [--precision NAME=PRECISION] [--threads 2]

Transformer recipes run their encoder in float32; `--precision NAME=bfloat16`
(autocast, `cpu_precision`) or `NAME=int8` (`int8_quantizer`) adds a copy of
recipe NAME with its encoder in that precision, named NAME-PRECISION.
"""

import argparse
import json
from pathlib import Path
from typing import Dict

from spacy.language import Language
from trf_speed import pipeline_in

from spacy_punct.evaluation import evaluate
from spacy_punct.evaluation.speed import benchmark_lines, compare_speeds
from spacy_punct.layers.windows import transformer_names
from spacy_punct.pipelines import load_pipeline
from spacy_punct.runtime.threads import set_threads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("test")
    parser.add_argument("output")
    parser.add_argument("recipes", nargs="+", help="NAME=MODEL")
    parser.add_argument(
        "--precision",
        action="append",
        default=[],
        help="NAME=PRECISION: add recipe NAME with its encoder in PRECISION (bfloat16 or int8)",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--words-per-line", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    set_threads(args.threads)
    models = dict(recipe.split("=", 1) for recipe in args.recipes)
    pipelines: Dict[str, Language] = {}
    for name, model in models.items():
        nlp = load_pipeline(model)
        pipelines[name] = pipeline_in(model, "float32") if transformer_names(nlp) else nlp
    for spec in args.precision:
        name, precision = spec.split("=", 1)
        pipelines[f"{name}-{precision}"] = pipeline_in(models[name], precision)
        models[f"{name}-{precision}"] = models[name]
    lines = benchmark_lines(next(iter(pipelines.values())), args.test, args.words_per_line)
    speeds = compare_speeds(pipelines, lines, batch_size=args.batch_size, rounds=args.rounds)
    for name, speed in speeds.items():
        print(f"{name}: {speed:,.0f} words/s", flush=True)
    results = {}
    for name, nlp in pipelines.items():
        clean = evaluate(nlp, args.test)
        noisy = evaluate(nlp, args.test, asr_noise=0.1)
        results[name] = {
            "model": models[name],
            "words_per_second": speeds[name],
            "punct_f": clean["punct_f"],
            "question_f": clean["punct_per_type"]["QUESTION"]["f"],
            "punct_f_asr_noise_0.1": noisy["punct_f"],
        }
        print(
            f"{name}: F1 {100 * clean['punct_f']:.1f}, QUESTION {100 * results[name]['question_f']:.1f}, "
            f"noise 0.1 {100 * noisy['punct_f']:.1f}, {speeds[name]:,.0f} words/s",
            flush=True,
        )
    summary = {
        "threads": args.threads,
        "batch_size": args.batch_size,
        "lines": len(lines),
        "words": sum(len(line.split()) for line in lines),
        "rounds": args.rounds,
        "recipes": results,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(summary, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
