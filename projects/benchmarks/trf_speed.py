"""Words per second of a transformer pipeline against a plain Hugging Face
forward pass over the same lines with the same weights, batch and threads,
side by side in one run, in each precision of the encoder on the CPU: float32,
bfloat16 (autocast, `cpu_precision`; only on CPUs with bfloat16 instructions,
where "auto" chooses it: elsewhere it is emulated, several times slower than
float32) and int8 (the linear layers of `int8_quantizer`, each token's
input quantized on its own), with the F1 of the pipeline in each on the test set.

    python projects/benchmarks/trf_speed.py MODEL TEST.spacy OUTPUT.json [--words-per-line 40] [--batch-size 64] [--threads 2]

MODEL is a trained pipeline or a bundled one (`en_punct_trf`: its int8 path
against the same weights in float32).

Each line is one window for every path (lines are shorter than the
pipeline's window). Two plain passes: the tokenizer and the encoder only (what
any transformer punctuator must run at least), and the same model written in
plain PyTorch: the encoder, word pieces averaged per word, then each head of
the pipeline (the punctuator's context encoder, ReLU layer and softmax, and the
truecaser's) with the pipeline's weights, giving the same class probabilities
without spaCy's alignment, decoding and rewrite (in int8, the ReLU layers in
int8 too, as the int8 quantizer runs them). In each round the pipeline's
stages are also timed one by one (`stage_seconds`): where each path's time
goes.
"""

import argparse
import json
import time
from collections import defaultdict
from contextlib import nullcontext
from pathlib import Path
from typing import Any, ContextManager, Dict, List, Optional

import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from spacy_punct.components.quantizer import add_quantizer, quantized_copy
from spacy_punct.evaluation import evaluate
from spacy_punct.evaluation.speed import benchmark_lines, count_words, words_per_second
from spacy_punct.layers.hf_models import hf_shims
from spacy_punct.layers.int8_linear import TokenInt8Linear
from spacy_punct.layers.transformer import native_bfloat16, set_cpu_precision
from spacy_punct.pipelines import load_pipeline
from spacy_punct.runtime.collector import freeze_loaded_objects
from spacy_punct.runtime.threads import set_threads


def autocast(precision: str) -> ContextManager[Any]:
    """What the pipeline's encoder runs under in `precision`."""
    return torch.autocast("cpu", dtype=torch.bfloat16) if precision == "bfloat16" else nullcontext()


def plain_speed(model, tokenizer, lines: List[str], batch_size: int, precision: str) -> float:
    n_words = count_words(lines)

    def run(part: List[str]) -> None:
        model.eval()  # the pipeline's shim leaves the shared model in training mode after each batch
        with torch.no_grad():
            for i in range(0, len(part), batch_size):
                inputs = tokenizer(
                    part[i : i + batch_size], padding=True, truncation=True, max_length=512, return_tensors="pt"
                )
                with autocast(precision):
                    model(**inputs)

    run(lines[:batch_size])
    start = time.perf_counter()
    run(lines)
    return n_words / (time.perf_counter() - start)


class PlainHead(torch.nn.Module):
    """A punctuator-style head in plain PyTorch: an optional bidirectional LSTM,
    a ReLU layer and a softmax, with the weights of a pipeline component."""

    def __init__(self, lstm: Optional[torch.nn.LSTM], hidden: torch.nn.Linear, output: torch.nn.Linear) -> None:
        super().__init__()
        self.lstm, self.hidden, self.output = lstm, hidden, output

    def forward(self, X: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        if self.lstm is not None:
            packed = pack_padded_sequence(X, lengths, batch_first=True, enforce_sorted=False)
            X, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=X.shape[1])
        return torch.softmax(self.output(torch.relu(self.hidden(X))), dim=-1)


def _linear(layer) -> torch.nn.Linear:
    W, b = layer.get_param("W"), layer.get_param("b")
    linear = torch.nn.Linear(W.shape[1], W.shape[0])
    linear.weight.data, linear.bias.data = torch.tensor(W), torch.tensor(b)
    return linear


def plain_heads(nlp, int8: bool = False) -> Dict[str, PlainHead]:
    """The heads of the pipeline's components that read the transformer, as
    `PlainHead`s with their weights, by component name; with `int8`, their
    ReLU layers in int8 (as the int8 quantizer runs them)."""
    heads = {}
    for name, pipe in nlp.pipeline:
        if not hasattr(pipe, "model") or not pipe.model.has_ref("output_layer"):
            continue
        nodes = {node.name: node for node in pipe.model.walk()}
        lstms = [s._model.lstm for node in pipe.model.walk() for s in node.shims if hasattr(s._model, "lstm")]
        hidden = _linear(nodes["relu"])
        if int8:
            hidden = TokenInt8Linear(hidden)
        heads[name] = PlainHead(lstms[0] if lstms else None, hidden, _linear(nodes["softmax"])).eval()
    return heads


def plain_model_probs(
    model, tokenizer, heads: Dict[str, PlainHead], words: List[List[str]], precision: str
) -> Dict[str, torch.Tensor]:
    """Each head's class probabilities (docs, words, classes) for a batch of
    pre-split lines: the encoder (in `precision`), word pieces averaged per
    word, the heads."""
    inputs = tokenizer(
        words, is_split_into_words=True, padding=True, truncation=True, max_length=512, return_tensors="pt"
    )
    with autocast(precision):
        hidden = model(**inputs).last_hidden_state.float()
    lengths = torch.tensor([len(w) for w in words])
    width = int(lengths.max())
    index = torch.tensor([[-1 if w is None else w for w in inputs.word_ids(j)] for j in range(len(words))])
    valid = index >= 0
    flat = (index + torch.arange(len(words)).unsqueeze(1) * width)[valid]
    pooled = hidden.new_zeros(len(words) * width, hidden.shape[2])
    pooled.index_add_(0, flat, hidden[valid])
    counts = torch.bincount(flat, minlength=pooled.shape[0]).clamp(min=1).unsqueeze(1)
    pooled = (pooled / counts).view(len(words), width, -1)
    return {name: head(pooled, lengths) for name, head in heads.items()}


def plain_model_speed(
    model, tokenizer, heads: Dict[str, PlainHead], lines: List[str], batch_size: int, precision: str
) -> float:
    """Words/s of the encoder, word pooling and the heads in plain PyTorch."""
    n_words = count_words(lines)

    def run(part: List[str]) -> None:
        model.eval()
        with torch.no_grad():
            for i in range(0, len(part), batch_size):
                plain_model_probs(
                    model, tokenizer, heads, [line.split() for line in part[i : i + batch_size]], precision
                )

    run(lines[:batch_size])
    start = time.perf_counter()
    run(lines)
    return n_words / (time.perf_counter() - start)


def plain_model_difference(
    nlp, model, tokenizer, heads: Dict[str, PlainHead], lines: List[str], precision: str
) -> float:
    """The largest difference between the punctuator's probabilities in the
    pipeline and in the plain model, over lines that spaCy splits on spaces."""
    lines = [line for line in lines if [t.text for t in nlp.make_doc(line)] == line.split()]
    docs = list(nlp.get_pipe("transformer").pipe(nlp.make_doc(line) for line in lines))
    expected = nlp.get_pipe("punctuator").predict(docs)
    model.eval()
    with torch.no_grad():
        got = plain_model_probs(model, tokenizer, heads, [line.split() for line in lines], precision)["punctuator"]
    return max(float(abs(got[i, : len(e)].numpy() - e).max()) for i, e in enumerate(expected))


def stage_seconds(nlp, lines: List[str], batch_size: int) -> Dict[str, float]:
    """Seconds of each stage of `nlp.pipe` over the lines, batch by batch:
    making the docs, then each component's `pipe`; a component with a model
    has its `predict` timed apart on the same docs first, and the rest of its
    `pipe` (annotations, decoding, the rewrite) is its `pipe` less that."""
    seconds: Dict[str, float] = defaultdict(float)
    for start in range(0, len(lines), batch_size):
        begin = time.perf_counter()
        docs = [nlp.make_doc(line) for line in lines[start : start + batch_size]]
        seconds["make_doc"] += time.perf_counter() - begin
        for name, pipe in nlp.pipeline:
            predicted = 0.0
            if hasattr(pipe, "predict") and hasattr(pipe, "model"):
                begin = time.perf_counter()
                pipe.predict(docs)
                predicted = time.perf_counter() - begin
            begin = time.perf_counter()
            docs = list(pipe.pipe(docs, batch_size=batch_size))
            whole = time.perf_counter() - begin
            if hasattr(pipe, "predict") and hasattr(pipe, "model"):
                seconds[f"{name}: predict"] += predicted
                seconds[f"{name}: the rest"] += max(whole - predicted, 0.0)
            else:
                seconds[name] += whole
    return dict(seconds)


PRECISIONS = ("float32", "bfloat16", "int8")
PATHS = ("pipeline", "plain_model", "plain")


def pipeline_in(model: str, precision: str):
    """The pipeline with its encoder in `precision`; a quantized pipeline (a
    bundled one) loses its int8 quantizer first, so every precision runs the
    same weights."""
    nlp = load_pipeline(model, threads=None)  # the threads main() set
    if "int8_quantizer" in nlp.pipe_names:
        nlp.remove_pipe("int8_quantizer")
    set_cpu_precision(nlp, "float32" if precision == "int8" else precision)
    if precision == "int8":
        add_quantizer(nlp)
    return nlp


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
    precisions = [p for p in PRECISIONS if p != "bfloat16" or native_bfloat16()]
    pipelines = {precision: pipeline_in(args.model, precision) for precision in precisions}
    freeze_loaded_objects()  # as the command line does
    nlp = pipelines["float32"]
    lines = benchmark_lines(nlp, args.test, args.words_per_line)
    shim = hf_shims(nlp)[0]
    tokenizer = shim._hfmodel.tokenizer
    float_model = shim._model
    float_model.eval()
    int8_model = quantized_copy(float_model, "qint8")
    models = {"float32": float_model, "bfloat16": float_model, "int8": int8_model}
    heads = plain_heads(nlp)
    int8_heads = plain_heads(nlp, int8=True)
    differences = {}
    for precision in [p for p in precisions if p != "int8"]:
        differences[precision] = plain_model_difference(
            pipelines[precision], float_model, tokenizer, heads, lines[: args.batch_size], precision
        )
        print(
            f"{precision}: plain model against the pipeline: probabilities differ by "
            f"{differences[precision]:.1e} at most",
            flush=True,
        )
    if differences["float32"] > 1e-3:
        raise SystemExit("The plain model does not compute what the pipeline does.")
    speeds: Dict[str, Dict[str, List[float]]] = {p: {path: [] for path in PATHS} for p in precisions}
    stages: Dict[str, List[Dict[str, float]]] = {p: [] for p in precisions}
    for _ in range(args.rounds):
        for precision in precisions:
            model = models[precision]
            got = speeds[precision]
            got["pipeline"].append(words_per_second(pipelines[precision], lines, args.batch_size))
            got["plain_model"].append(
                plain_model_speed(
                    model, tokenizer, int8_heads if precision == "int8" else heads, lines, args.batch_size, precision
                )
            )
            got["plain"].append(plain_speed(model, tokenizer, lines, args.batch_size, precision))
            stages[precision].append(stage_seconds(pipelines[precision], lines, args.batch_size))
        print({p: {path: round(v[-1]) for path, v in got.items()} for p, got in speeds.items()}, flush=True)
    best = {p: {path: max(v) for path, v in got.items()} for p, got in speeds.items()}
    scores = {p: evaluate(pipelines[p], args.test) for p in precisions}
    result = {
        "model": args.model,
        "words": sum(len(line.split()) for line in lines),
        "lines": len(lines),
        "batch_size": args.batch_size,
        "threads": args.threads,
        "native_bfloat16": native_bfloat16(),
        "int8_layers": "the encoder's linear layers and the heads' ReLU layers",
        "words_per_second": speeds,
        "best": best,
        "pipeline_vs_plain": {p: best[p]["pipeline"] / best[p]["plain"] for p in precisions},
        "pipeline_vs_plain_model": {p: best[p]["pipeline"] / best[p]["plain_model"] for p in precisions},
        "speedup": {p: {path: best[p][path] / best["float32"][path] for path in PATHS} for p in precisions},
        "plain_model_difference": differences,
        "stage_seconds": {p: {stage: min(r[stage] for r in runs) for stage in runs[0]} for p, runs in stages.items()},
        "f1": {p: s["punct_f"] for p, s in scores.items()},
        "scores": scores,
    }
    print(json.dumps({k: v for k, v in result.items() if k not in ("scores", "words_per_second")}, indent=1))
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
