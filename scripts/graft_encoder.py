"""Graft a trained pipeline's encoder onto another cut of the same pretrained
encoder: write a Hugging Face folder with the other cut's shape (more or
fewer layers, other word pieces) holding the trained weights wherever the two
share them.

    python scripts/graft_encoder.py training/bn_e5_soup/model-last \
        encoders/e5-bn-l8 encoders/e5-bn-l8-warm

Each trained layer goes to the layer of the same number (higher layers of a
deeper cut stay as pretrained; trained layers above a shallower cut's top are
left out), and each word piece's trained embedding to the same piece's row
(pieces only the other cut has stay as pretrained). Train on the result with
`--components.transformer.model.name <output>` and
`spacy_punct.warm_start.v1` for the heads alone (`skip ["transformer"]`).
"""

import shutil
import sys
from pathlib import Path

import spacy
import typer
from transformers import AutoModel, AutoTokenizer

from spacy_punct.layers.hf_models import hf_models

WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"


def _n_layers(state) -> int:
    return sum(1 for key in state if key.startswith("encoder.layer.") and key.endswith("attention.self.query.weight"))


def _layer(key: str) -> int:
    """The layer a weight belongs to (-1: none, such as the embeddings)."""
    return int(key.split(".")[2]) if key.startswith("encoder.layer.") else -1


def main(
    pipeline: Path = typer.Argument(..., help="A trained pipeline whose encoder gives its weights"),
    other: Path = typer.Argument(..., help="A Hugging Face folder: another cut of the same encoder"),
    output: Path = typer.Argument(..., help="Where to write the grafted folder"),
) -> None:
    if output.exists():
        sys.exit(f"{output} exists: choose another output folder")
    if not (pipeline / "config.cfg").is_file():
        sys.exit(f"{pipeline} is not a pipeline folder (no config.cfg)")
    if not (other / "config.json").is_file():
        sys.exit(f"{other} is not a Hugging Face model folder (no config.json)")
    nlp = spacy.load(pipeline)
    models = dict(hf_models(nlp))
    if list(models) != ["transformer"]:
        sys.exit(f"{pipeline} should hold one Hugging Face encoder, in its 'transformer' component")
    trained = models["transformer"].state_dict()
    pieces = nlp.get_pipe("transformer").model.tokenizer.get_vocab()
    target = AutoModel.from_pretrained(other)
    state = target.state_dict()
    n_trained, n_other = _n_layers(trained), target.config.num_hidden_layers
    for key, value in trained.items():
        if key == WORD_EMBEDDINGS or _layer(key) >= n_other:
            continue
        if key not in state or state[key].shape != value.shape:
            sys.exit(f"{other} does not match the trained encoder at {key} (another encoder?)")
        state[key] = value.detach().to(state[key].dtype)
    rows = AutoTokenizer.from_pretrained(other).get_vocab()
    shared = [(rows[piece], row) for piece, row in pieces.items() if piece in rows]
    for to_row, from_row in shared:
        state[WORD_EMBEDDINGS][to_row] = trained[WORD_EMBEDDINGS][from_row].to(state[WORD_EMBEDDINGS].dtype)
    target.load_state_dict(state)
    output.mkdir(parents=True)
    target.save_pretrained(output)
    for item in other.iterdir():
        if item.name.startswith(("tokenizer", "special_tokens", "sentencepiece", "vocab")):
            shutil.copy(item, output / item.name)
    print(
        f"{output}: layers 1-{min(n_trained, n_other)} and {len(shared):,} of {len(rows):,} word pieces from {pipeline}, "
        f"the rest as in {other} ({n_other} layers)"
    )


if __name__ == "__main__":
    typer.run(main)
