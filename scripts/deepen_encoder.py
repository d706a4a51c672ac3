"""Give a trained pipeline's encoder more layers: write a Hugging Face folder
whose lowest layers (and embeddings) are the trained encoder's and whose
higher layers are the pretrained ones of a deeper cut of the same encoder.

    python scripts/deepen_encoder.py training/bn_e5_soup/model-last \
        encoders/e5-bn-l8 encoders/e5-bn-l8-warm

The deeper cut must hold the same word pieces (same `encoder-lang` text).
Train on the result with `--components.transformer.model.name <output>` and
`spacy_punct.warm_start.v1` for the heads alone (`components ["punctuator"]`).
"""
import shutil
import sys
from pathlib import Path

import spacy
import typer
from transformers import AutoModel

from spacy_punct.hf_models import hf_models


def main(
    pipeline: Path = typer.Argument(..., help="A trained pipeline whose encoder gives the lower layers"),
    deeper: Path = typer.Argument(..., help="A Hugging Face folder of the same encoder with more layers"),
    output: Path = typer.Argument(..., help="Where to write the combined folder"),
) -> None:
    if output.exists():
        sys.exit(f"{output} exists: choose another output folder")
    models = dict(hf_models(spacy.load(pipeline)))
    if len(models) != 1:
        sys.exit(f"{pipeline} should hold one Hugging Face encoder, not {len(models)}")
    trained = next(iter(models.values())).state_dict()
    target = AutoModel.from_pretrained(deeper)
    state = target.state_dict()
    n_trained = sum(1 for key in trained if key.startswith("encoder.layer.") and key.endswith("attention.self.query.weight"))
    n_deeper = target.config.num_hidden_layers
    if n_deeper <= n_trained:
        sys.exit(f"{deeper} has {n_deeper} layers, not more than the trained encoder's {n_trained}")
    for key, value in trained.items():
        if key not in state or state[key].shape != value.shape:
            sys.exit(f"{deeper} does not match the trained encoder at {key} (another cut of the word pieces?)")
        state[key] = value.detach().to(state[key].dtype)
    target.load_state_dict(state)
    output.mkdir(parents=True)
    target.save_pretrained(output)
    for item in deeper.iterdir():
        if item.name.startswith(("tokenizer", "special_tokens", "sentencepiece")):
            shutil.copy(item, output / item.name)
    print(f"{output}: layers 1-{n_trained} and embeddings from {pipeline}, "
          f"layers {n_trained + 1}-{n_deeper} pretrained from {deeper}")


if __name__ == "__main__":
    typer.run(main)
