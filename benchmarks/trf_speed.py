"""Words per second of a transformer pipeline against a plain Hugging Face
forward pass over the same lines with the same weights, batch and threads,
side by side in one run; float and int8 (dynamic quantization of the linear
layers) for both, with the F1 of each pipeline on the test set.

    python benchmarks/trf_speed.py MODEL TEST.spacy OUTPUT.json [--words-per-line 40] [--batch-size 64] [--threads 2]

Each line is one window for both paths (lines are shorter than the
pipeline's window). The plain pass is the tokenizer and the encoder only: what
any transformer punctuator must run at least.
"""
import argparse
import json
import time
import warnings
from pathlib import Path
from typing import Dict, List

import torch

from spacy_punct.inference import evaluate, load_pipeline
from spacy_punct.quantizer import add_quantizer, hf_shims, qconfig_spec
from spacy_punct.threads import set_threads
from spacy_punct.training.corpus import PunctCorpus


def lines_of(nlp, test: str, words_per_line: int) -> List[str]:
    words = [t.text for eg in PunctCorpus(test, max_length=0)(nlp) for t in eg.predicted]
    return [" ".join(words[i : i + words_per_line]) for i in range(0, len(words), words_per_line)]


def pipeline_speed(nlp, lines: List[str], batch_size: int) -> float:
    n_words = sum(len(line.split()) for line in lines)
    list(nlp.pipe(lines[:batch_size], batch_size=batch_size))  # warm up
    start = time.perf_counter()
    for _ in nlp.pipe(lines, batch_size=batch_size):
        pass
    return n_words / (time.perf_counter() - start)


def plain_speed(model, tokenizer, lines: List[str], batch_size: int) -> float:
    n_words = sum(len(line.split()) for line in lines)

    def run(part: List[str]) -> None:
        model.eval()  # the pipeline's shim leaves the shared model in training mode after each batch
        with torch.no_grad():
            for i in range(0, len(part), batch_size):
                inputs = tokenizer(part[i : i + batch_size], padding=True, truncation=True, max_length=512,
                                   return_tensors="pt")
                model(**inputs).last_hidden_state

    run(lines[:batch_size])
    start = time.perf_counter()
    run(lines)
    return n_words / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("test")
    parser.add_argument("output")
    parser.add_argument("--words-per-line", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2, help="alternate the measurements this many times")
    args = parser.parse_args()
    set_threads(args.threads)
    nlp = load_pipeline(args.model)
    lines = lines_of(nlp, args.test, args.words_per_line)
    shim = hf_shims(nlp)[0]
    tokenizer = shim._hfmodel.tokenizer
    float_model = shim._model
    float_model.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        int8_model = torch.ao.quantization.quantize_dynamic(float_model, qconfig_spec("qint8"), dtype=torch.qint8)
    quantized = load_pipeline(args.model)
    add_quantizer(quantized)
    speeds: Dict[str, List[float]] = {"pipeline": [], "plain": [], "pipeline_int8": [], "plain_int8": []}
    for _ in range(args.rounds):
        speeds["pipeline"].append(pipeline_speed(nlp, lines, args.batch_size))
        speeds["plain"].append(plain_speed(float_model, tokenizer, lines, args.batch_size))
        speeds["pipeline_int8"].append(pipeline_speed(quantized, lines, args.batch_size))
        speeds["plain_int8"].append(plain_speed(int8_model, tokenizer, lines, args.batch_size))
        print({k: round(v[-1]) for k, v in speeds.items()}, flush=True)
    best = {k: max(v) for k, v in speeds.items()}
    scores = {name: evaluate(pipe, args.test) for name, pipe in (("float", nlp), ("int8", quantized))}
    result = {
        "model": args.model,
        "words": sum(len(line.split()) for line in lines),
        "lines": len(lines),
        "batch_size": args.batch_size,
        "threads": args.threads,
        "words_per_second": speeds,
        "best": best,
        "pipeline_vs_plain": best["pipeline"] / best["plain"],
        "pipeline_int8_vs_plain_int8": best["pipeline_int8"] / best["plain_int8"],
        "int8_speedup_pipeline": best["pipeline_int8"] / best["pipeline"],
        "int8_speedup_plain": best["plain_int8"] / best["plain"],
        "f1": {name: s["punct_f"] for name, s in scores.items()},
        "scores": scores,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "scores"}, indent=1))
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
