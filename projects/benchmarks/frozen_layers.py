"""Seconds of one training step of a Hugging Face encoder (forward and
backward over a batch like the small recipe's: 10 windows of 132 word pieces)
with its word-piece embeddings frozen, as the recipes do, and with its
embedding layer and lowest layers frozen too (`spacy_punct.freeze_layers.v1`),
side by side in alternating rounds, the best round of each counting.

    python projects/benchmarks/frozen_layers.py MODEL [OUTPUT.json] [--layers 0 1 2 3] [--threads 2] [--rounds 3]
"""

import argparse
import json
import time
from pathlib import Path
from typing import Dict, List

import torch
from transformers import AutoModel

from spacy_punct.runtime.threads import set_threads
from spacy_punct.training.freeze import freeze_encoder_layers


def freeze(model: torch.nn.Module, layers: int) -> None:
    """As the recipe (word pieces frozen) for 0 layers; as
    `spacy_punct.freeze_layers.v1` above that."""
    model.requires_grad_(True)
    model.get_input_embeddings().weight.requires_grad_(False)
    if layers:
        freeze_encoder_layers(model, layers)


def step_seconds(model: torch.nn.Module, ids: torch.Tensor, repeats: int) -> float:
    """The fastest of `repeats` forward and backward passes."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        model(input_ids=ids, attention_mask=torch.ones_like(ids)).last_hidden_state.sum().backward()
        best = min(best, time.perf_counter() - start)
        model.zero_grad(set_to_none=True)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="a Hugging Face model name or folder")
    parser.add_argument("output", nargs="?", help="where to write the seconds as JSON")
    parser.add_argument("--layers", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--windows", type=int, default=10)
    parser.add_argument("--pieces", type=int, default=132)
    args = parser.parse_args()
    set_threads(args.threads)
    torch.manual_seed(0)
    model = AutoModel.from_pretrained(args.model).train()
    ids = torch.randint(1000, model.config.vocab_size, (args.windows, args.pieces))
    seconds: Dict[int, List[float]] = {k: [] for k in args.layers}
    for _ in range(args.rounds):
        for layers in args.layers:
            freeze(model, layers)
            seconds[layers].append(step_seconds(model, ids, repeats=3))
    best = {k: min(v) for k, v in seconds.items()}
    print(f"{args.windows} windows of {args.pieces} pieces, {args.threads} threads, best of {args.rounds} rounds")
    print("| layers frozen | seconds a step | steps a minute (encoder only) | against none |")
    print("|---:|---:|---:|---:|")
    for layers, s in best.items():
        print(f"| {layers} | {s:.3f} | {60 / s:.0f} | ×{best[args.layers[0]] / s:.2f} |")
    if args.output:
        result = {"windows": args.windows, "pieces": args.pieces, "threads": args.threads, "seconds": best}
        Path(args.output).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
