"""What pruning multilingual-e5-small's vocabulary to a language's pieces
costs: a bundled pipeline scored with its pruned pieces against the same
pipeline given back all 250,037 pieces (the full tokenizer and embedding
matrix). The piece embeddings were frozen in training, so both variants hold
the weights the pipeline learned with; both take their embeddings in float32
from the encoder folders (the bundle stores them in int8).

    python projects/benchmarks/vocab_pruning.py hu_punct_trf encoders/e5-hu-l6 encoders/multilingual-e5-small \\
        corpus/hu/eval/dev.spacy -o projects/benchmarks/metrics/vocab_pruning/hu.json
"""

import argparse
import json
from pathlib import Path

import torch
from transformers import AutoModel, AutoTokenizer

from spacy_punct import load_pipeline
from spacy_punct.evaluation import evaluate
from spacy_punct.layers.hf_models import hf_models, hf_shims


def with_vocabulary(nlp, folder: Path):  # type: ignore[no-untyped-def]
    """Give the pipeline's encoder the tokenizer and piece embeddings of `folder`."""
    embeddings = AutoModel.from_pretrained(folder).get_input_embeddings().weight.detach().clone()
    tokenizer = AutoTokenizer.from_pretrained(folder)
    for shim in hf_shims(nlp):
        shim._hfmodel.tokenizer = tokenizer
    for _, model in hf_models(nlp):
        model.set_input_embeddings(torch.nn.Embedding.from_pretrained(embeddings, freeze=True))
        model.config.vocab_size = embeddings.shape[0]
    return nlp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("pruned", type=Path, help="the pruned encoder folder the pipeline was trained on")
    parser.add_argument("full", type=Path, help="the whole encoder's folder")
    parser.add_argument("test_set", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    torch.set_num_threads(2)
    scores = {}
    for variant, folder in (("pruned", args.pruned), ("full", args.full)):
        nlp = with_vocabulary(load_pipeline(args.pipeline), folder)
        result = evaluate(nlp, args.test_set)
        scores[variant] = {"punct_f": result["punct_f"], "pieces": len(AutoTokenizer.from_pretrained(folder))}
        print(f"{variant}: {scores[variant]['pieces']:,} pieces, micro F1 {100 * result['punct_f']:.2f}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        json.dumps({"pipeline": args.pipeline, "test_set": str(args.test_set), **scores}, indent=2) + "\n",
        encoding="utf8",
    )


if __name__ == "__main__":
    main()
