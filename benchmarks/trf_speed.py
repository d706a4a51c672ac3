"""Words per second of a transformer pipeline against a plain Hugging Face
forward pass over the same lines with the same weights, batch and threads,
side by side in one run; float and int8 (dynamic quantization of the linear
layers) for both, with the F1 of each pipeline on the test set.

    python benchmarks/trf_speed.py MODEL TEST.spacy OUTPUT.json [--words-per-line 40] [--batch-size 64] [--threads 2]

Each line is one window for every path (lines are shorter than the
pipeline's window). Two plain passes: the tokenizer and the encoder only (what
any transformer punctuator must run at least), and the same model written in
plain PyTorch: the encoder, word pieces averaged per word, then each head of
the pipeline (the punctuator's context encoder, ReLU layer and softmax, and the
truecaser's) with the pipeline's weights, giving the same class probabilities
without spaCy's alignment, decoding and rewrite.
"""
import argparse
import json
import time
import warnings
from pathlib import Path
from typing import Dict, List, Optional

import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

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


def plain_heads(nlp) -> Dict[str, PlainHead]:
    """The heads of the pipeline's components that read the transformer, as
    `PlainHead`s with their weights, by component name."""
    heads = {}
    for name, pipe in nlp.pipeline:
        if not hasattr(pipe, "model") or not pipe.model.has_ref("output_layer"):
            continue
        nodes = {node.name: node for node in pipe.model.walk()}
        lstms = [s._model.lstm for node in pipe.model.walk() for s in node.shims if hasattr(s._model, "lstm")]
        heads[name] = PlainHead(lstms[0] if lstms else None, _linear(nodes["relu"]), _linear(nodes["softmax"])).eval()
    return heads


def plain_model_probs(model, tokenizer, heads: Dict[str, PlainHead], words: List[List[str]]) -> Dict[str, torch.Tensor]:
    """Each head's class probabilities (docs, words, classes) for a batch of
    pre-split lines: the encoder, word pieces averaged per word, the heads."""
    inputs = tokenizer(words, is_split_into_words=True, padding=True, truncation=True, max_length=512,
                       return_tensors="pt")
    hidden = model(**inputs).last_hidden_state
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


def plain_model_speed(model, tokenizer, heads: Dict[str, PlainHead], lines: List[str], batch_size: int) -> float:
    """Words/s of the encoder, word pooling and the heads in plain PyTorch."""
    n_words = sum(len(line.split()) for line in lines)

    def run(part: List[str]) -> None:
        model.eval()
        with torch.no_grad():
            for i in range(0, len(part), batch_size):
                plain_model_probs(model, tokenizer, heads, [line.split() for line in part[i : i + batch_size]])

    run(lines[:batch_size])
    start = time.perf_counter()
    run(lines)
    return n_words / (time.perf_counter() - start)


def plain_model_difference(nlp, model, tokenizer, heads: Dict[str, PlainHead], lines: List[str]) -> float:
    """The largest difference between the punctuator's probabilities in the
    pipeline and in the plain model, over lines that spaCy splits on spaces."""
    lines = [line for line in lines if [t.text for t in nlp.make_doc(line)] == line.split()]
    docs = list(nlp.get_pipe("transformer").pipe(nlp.make_doc(line) for line in lines))
    expected = nlp.get_pipe("punctuator").predict(docs)
    model.eval()
    with torch.no_grad():
        got = plain_model_probs(model, tokenizer, heads, [line.split() for line in lines])["punctuator"]
    return max(float(abs(got[i, : len(e)].numpy() - e).max()) for i, e in enumerate(expected))


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
    heads = plain_heads(nlp)
    difference = plain_model_difference(nlp, float_model, tokenizer, heads, lines[: args.batch_size])
    print(f"plain model against the pipeline: probabilities differ by {difference:.1e} at most", flush=True)
    if difference > 1e-3:
        raise SystemExit("The plain model does not compute what the pipeline does.")
    speeds: Dict[str, List[float]] = {
        "pipeline": [], "plain": [], "plain_model": [], "pipeline_int8": [], "plain_int8": [], "plain_model_int8": []
    }
    for _ in range(args.rounds):
        speeds["pipeline"].append(pipeline_speed(nlp, lines, args.batch_size))
        speeds["plain"].append(plain_speed(float_model, tokenizer, lines, args.batch_size))
        speeds["plain_model"].append(plain_model_speed(float_model, tokenizer, heads, lines, args.batch_size))
        speeds["pipeline_int8"].append(pipeline_speed(quantized, lines, args.batch_size))
        speeds["plain_int8"].append(plain_speed(int8_model, tokenizer, lines, args.batch_size))
        speeds["plain_model_int8"].append(plain_model_speed(int8_model, tokenizer, heads, lines, args.batch_size))
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
        "pipeline_vs_plain_model": best["pipeline"] / best["plain_model"],
        "pipeline_int8_vs_plain_model_int8": best["pipeline_int8"] / best["plain_model_int8"],
        "int8_speedup_pipeline": best["pipeline_int8"] / best["pipeline"],
        "int8_speedup_plain": best["plain_int8"] / best["plain"],
        "plain_model_difference": difference,
        "f1": {name: s["punct_f"] for name, s in scores.items()},
        "scores": scores,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "scores"}, indent=1))
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
