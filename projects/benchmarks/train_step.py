"""Seconds of one training step of configs/en_small_trf.cfg (reading the
corpus and `nlp.update` on a batch of 1,000 words) with its encoder cut to
a number of layers and a given attention dropout, side by side in
alternating rounds, the best round of each counting.

    python projects/benchmarks/train_step.py MODEL TRAIN DEV [OUTPUT.json] [--variants 6:0.1 4:0.0] [--threads 2] [--rounds 3] [--steps 15]

A variant LAYERS:DROPOUT sets `num_hidden_layers` and
`attention_probs_dropout_prob` of the recipe's `transformer_config`
(all-MiniLM-L6-v2 has 6 layers and attention dropout 0.1 of its own).
"""

import argparse
import json
import time
from pathlib import Path
from typing import Dict, Iterator, List

from spacy.language import Language
from spacy.schemas import ConfigSchemaTraining
from spacy.training import Example
from spacy.training.initialize import init_nlp
from spacy.util import load_config, registry, resolve_dot_names

from spacy_punct.runtime.threads import set_threads

CONFIG = Path(__file__).resolve().parents[2] / "configs" / "en_small_trf.cfg"


def trainer(model: str, train: str, dev: str, layers: int, dropout: float):
    """The recipe's pipeline, optimizer and batches, with its encoder cut."""
    hf = "components.transformer.model.transformer_config"
    overrides = {
        "paths.train": train,
        "paths.dev": dev,
        "components.transformer.model.name": model,
        f"{hf}.num_hidden_layers": layers,
        f"{hf}.attention_probs_dropout_prob": dropout,
    }
    config = load_config(CONFIG, overrides=overrides, interpolate=False).interpolate()
    nlp = init_nlp(config)
    training = registry.resolve(nlp.config.interpolate()["training"], schema=ConfigSchemaTraining)
    (corpus,) = resolve_dot_names(nlp.config.interpolate(), [training["train_corpus"]])
    batches = iter(training["batcher"](corpus(nlp)))
    return nlp, training["optimizer"], batches, training["dropout"]


def step_seconds(nlp: Language, optimizer, batches: Iterator[List[Example]], dropout: float, steps: int) -> float:
    """Seconds a step over `steps` steps."""
    start = time.perf_counter()
    for _ in range(steps):
        nlp.update(next(batches), sgd=optimizer, drop=dropout)
    return (time.perf_counter() - start) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="all-MiniLM-L6-v2: its hub name or a folder with its weights")
    parser.add_argument("train")
    parser.add_argument("dev")
    parser.add_argument("output", nargs="?", help="where to write the seconds as JSON")
    parser.add_argument("--variants", nargs="+", default=["6:0.1", "4:0.0"], help="LAYERS:ATTENTION_DROPOUT")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=15)
    args = parser.parse_args()
    set_threads(args.threads)
    runs = {}
    for variant in args.variants:
        layers, dropout = variant.split(":")
        runs[variant] = trainer(args.model, args.train, args.dev, int(layers), float(dropout))
    for nlp, optimizer, batches, dropout in runs.values():
        step_seconds(nlp, optimizer, batches, dropout, steps=2)  # first steps allocate
    seconds: Dict[str, List[float]] = {variant: [] for variant in runs}
    for _ in range(args.rounds):
        for variant, (nlp, optimizer, batches, dropout) in runs.items():
            seconds[variant].append(step_seconds(nlp, optimizer, batches, dropout, args.steps))
    best = {variant: min(v) for variant, v in seconds.items()}
    first = best[args.variants[0]]
    print(f"{args.steps} steps of 1,000 words a round, {args.threads} threads, best of {args.rounds} rounds")
    print("| layers | attention dropout | seconds a step | steps a minute | against the first |")
    print("|---:|---:|---:|---:|---:|")
    for variant, s in best.items():
        layers, dropout = variant.split(":")
        print(f"| {layers} | {dropout} | {s:.3f} | {60 / s:.0f} | ×{first / s:.2f} |")
    if args.output:
        result = {"threads": args.threads, "steps": args.steps, "rounds": args.rounds, "seconds": seconds, "best": best}
        Path(args.output).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
