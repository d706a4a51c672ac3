"""scripts/graft_encoder.py: the grafted encoder holds the trained
pipeline's layers and word-piece rows, and the other cut's weights wherever
the trained encoder has none (higher layers, pieces it lacks)."""

import subprocess
import sys
from pathlib import Path

import pytest
import torch
from transformers import BertConfig, BertModel, BertTokenizerFast

from spacy_punct.layers.hf_models import hf_models

from ..layers.test_transformer import trf_pipeline

SCRIPT = str(Path(__file__).parents[2] / "scripts" / "graft_encoder.py")
EMBEDDINGS = "embeddings.word_embeddings.weight"


def _cut(folder: Path, vocab, layers: int, seed: int) -> Path:
    """A tiny BERT with these pieces (in this order) and layers."""
    folder.mkdir(parents=True)
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf8")
    BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True, model_max_length=128).save_pretrained(
        folder
    )
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=layers,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
    )
    torch.manual_seed(seed)
    BertModel(config).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def trained(tiny_bert, tmp_path_factory):
    """A pipeline on the two-layer tiny encoder with its weights changed (as
    training would), its saved folder, its pieces and its weights."""
    folder = tmp_path_factory.mktemp("graft")
    nlp = trf_pipeline(tiny_bert)
    nlp.initialize()
    model = dict(hf_models(nlp))["transformer"]
    with torch.no_grad():
        for value in model.parameters():
            value.add_(0.5)
    nlp.to_disk(folder / "trained")
    vocab = (tiny_bert / "vocab.txt").read_text(encoding="utf8").split()
    return folder / "trained", vocab, model.state_dict()


def _run(*args):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True)


def test_more_layers_and_other_pieces(trained, tmp_path):
    pipeline, vocab, state = trained
    other_vocab = vocab[:5] + ["newpiece", "##zz"] + list(reversed(vocab[5:]))
    other = _cut(tmp_path / "other", other_vocab, layers=4, seed=1)
    done = _run(pipeline, other, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert f"{len(vocab):,} of {len(other_vocab):,} word pieces" in done.stdout
    grafted = BertModel.from_pretrained(tmp_path / "out")
    assert grafted.config.num_hidden_layers == 4
    combined, pretrained = grafted.state_dict(), BertModel.from_pretrained(other).state_dict()
    for key, value in combined.items():
        if key == EMBEDDINGS:
            continue
        if key in state:
            torch.testing.assert_close(value, state[key])
        else:
            assert key.startswith(("encoder.layer.2.", "encoder.layer.3.", "pooler.")), key
            torch.testing.assert_close(value, pretrained[key])
    for row, piece in enumerate(other_vocab):
        want = state[EMBEDDINGS][vocab.index(piece)] if piece in vocab else pretrained[EMBEDDINGS][row]
        torch.testing.assert_close(combined[EMBEDDINGS][row], want)
    assert (tmp_path / "out" / "tokenizer.json").exists()


def test_fewer_layers_keep_the_lowest_trained_ones(trained, tmp_path):
    pipeline, vocab, state = trained
    done = _run(pipeline, _cut(tmp_path / "shallow", vocab, layers=1, seed=1), tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "layers 1-1 and" in done.stdout
    grafted = BertModel.from_pretrained(tmp_path / "out")
    assert grafted.config.num_hidden_layers == 1
    combined = grafted.state_dict()
    assert not any(key.startswith("encoder.layer.1.") for key in combined)
    for key, value in combined.items():
        if key in state:
            torch.testing.assert_close(value, state[key])


def test_refuses_an_existing_output(trained, tmp_path):
    pipeline, vocab, _ = trained
    (tmp_path / "taken").mkdir()
    done = _run(pipeline, _cut(tmp_path / "same", vocab, layers=2, seed=1), tmp_path / "taken")
    assert done.returncode == 1 and done.stderr.strip() == f"{tmp_path / 'taken'} exists: choose another output folder"


def test_refuses_what_is_not_a_pipeline_or_an_encoder(trained, tmp_path):
    pipeline, vocab, _ = trained
    sys.path.insert(0, str(Path(SCRIPT).parent))
    try:
        import graft_encoder
    finally:
        sys.path.pop(0)
    with pytest.raises(SystemExit, match="is not a pipeline folder"):
        graft_encoder.main(tmp_path / "missing", _cut(tmp_path / "cut", vocab, layers=2, seed=1), tmp_path / "out")
    with pytest.raises(SystemExit, match="is not a Hugging Face model folder"):
        graft_encoder.main(pipeline, tmp_path / "missing", tmp_path / "out")
    assert not (tmp_path / "out").exists()
