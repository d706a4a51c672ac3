"""scripts/deepen_encoder.py: the combined encoder holds the trained
pipeline's lower layers and embeddings and the deeper encoder's upper layers."""
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from transformers import BertConfig, BertModel

from spacy_punct.hf_models import hf_models

from .test_transformer import trf_pipeline

SCRIPT = str(Path(__file__).parent.parent / "scripts" / "deepen_encoder.py")


@pytest.fixture(scope="module")
def trained_and_deeper(tiny_bert, tmp_path_factory):
    """A pipeline on the two-layer tiny encoder with its weights changed (as
    training would), and a four-layer encoder with the same word pieces."""
    folder = tmp_path_factory.mktemp("deepen")
    nlp = trf_pipeline(tiny_bert)
    nlp.initialize()
    model = dict(hf_models(nlp))["transformer"]
    with torch.no_grad():
        for value in model.parameters():
            value.add_(0.5)
    nlp.to_disk(folder / "trained")
    config = BertConfig.from_pretrained(tiny_bert)
    config.num_hidden_layers = 4
    torch.manual_seed(1)
    BertModel(config).save_pretrained(folder / "deeper")
    for item in tiny_bert.iterdir():
        if item.name.startswith(("tokenizer", "special_tokens", "vocab")):
            (folder / "deeper" / item.name).write_bytes(item.read_bytes())
    return folder / "trained", folder / "deeper", model.state_dict()


def _run(*args):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True)


def test_lower_layers_are_the_trained_ones_and_upper_the_deeper_ones(trained_and_deeper, tmp_path):
    trained, deeper, trained_state = trained_and_deeper
    done = _run(trained, deeper, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    combined = BertModel.from_pretrained(tmp_path / "out").state_dict()
    upper = BertModel.from_pretrained(deeper).state_dict()
    assert BertModel.from_pretrained(tmp_path / "out").config.num_hidden_layers == 4
    for key, value in combined.items():
        if key in trained_state:
            torch.testing.assert_close(value, trained_state[key])
        elif key.startswith(("encoder.layer.2.", "encoder.layer.3.")):
            torch.testing.assert_close(value, upper[key])
    assert not torch.equal(combined["encoder.layer.0.output.dense.weight"], upper["encoder.layer.0.output.dense.weight"])
    assert (tmp_path / "out" / "tokenizer.json").exists()


def test_refuses_an_existing_output_and_a_shallower_encoder(trained_and_deeper, tiny_bert, tmp_path):
    trained, deeper, _ = trained_and_deeper
    (tmp_path / "taken").mkdir()
    done = _run(trained, deeper, tmp_path / "taken")
    assert done.returncode == 1 and done.stderr.strip() == f"{tmp_path / 'taken'} exists: choose another output folder"
    done = _run(trained, tiny_bert, tmp_path / "out")
    assert done.returncode == 1 and "not more than the trained encoder's 2" in done.stderr
    assert not (tmp_path / "out").exists()
