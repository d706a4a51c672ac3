"""Resumable training: a run stopped and resumed gives the weights of a run
that never stopped."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy
import pytest
import spacy
import torch

from spacy_punct.training.checkpoint import find_checkpoint, read_state
from spacy_punct.training.resumable import train_resumable

CONFIGS = Path(__file__).parent.parent.parent / "configs"


def _overrides(corpus_path: Path, tiny_bert: Path) -> dict:
    return {
        "paths.train": str(corpus_path),
        "paths.dev": str(corpus_path),
        "components.transformer.model.name": str(tiny_bert),
        "system.gpu_allocator": None,
        "training.max_steps": 100,
        "training.eval_frequency": 2,
        "training.dropout": 0.2,  # the dropout masks must repeat too
        "training.batcher.size": 30,  # a few words a batch: several batches an epoch
        "training.max_epochs": -1,
        "corpora.train.max_length": 6,
        "corpora.train.shuffle": True,
        "corpora.train.random_chunks": True,
        "corpora.train.augmenter": {
            "@augmenters": "spacy_punct.chained_augmenters.v1",
            "*": {
                "noise": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.2},
                "repair": {"@augmenters": "spacy_punct.repair_input.v1", "share": 0.5},
            },
        },
        "initialize.after_init": {"@callbacks": "spacy_punct.freeze_embeddings.v1"},
    }


def _weights(path: Path) -> dict:
    """Every weight of a saved pipeline: its thinc parameters and its encoders' tensors."""
    nlp = spacy.load(path)
    weights = {}
    for name, proc in nlp.pipeline:
        for i, node in enumerate(proc.model.walk()):
            for param in node.param_names:
                if node.has_param(param):
                    weights[f"{name}/{i}/{param}"] = numpy.asarray(node.get_param(param)).copy()
            for j, shim in enumerate(node.shims):
                for key, tensor in getattr(shim, "_model", torch.nn.Module()).state_dict().items():
                    weights[f"{name}/{i}/{j}/{key}"] = tensor.numpy().copy()
    return weights


@pytest.fixture
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_stopped_and_resumed_equals_one_go(corpus_path, tiny_bert, tmp_path, one_thread):
    config, overrides = CONFIGS / "en_trf.cfg", _overrides(corpus_path, tiny_bert)
    whole = train_resumable(config, tmp_path / "whole", overrides, max_steps=8, checkpoint_minutes=0)
    first = train_resumable(config, tmp_path / "pieces", overrides, max_steps=3, checkpoint_minutes=0)
    assert (first.step, first.pieces) == (3, 1)
    second = train_resumable(config, tmp_path / "pieces", overrides, resume=True, max_steps=5, checkpoint_minutes=0)
    assert (second.step, second.pieces, whole.step) == (8, 2, 8)
    assert second.epoch == whole.epoch > 0  # the stop fell inside an epoch after the first
    assert second.words == whole.words and second.results == whole.results
    a = _weights(find_checkpoint(tmp_path / "whole") / "model")
    b = _weights(find_checkpoint(tmp_path / "pieces") / "model")
    assert a.keys() == b.keys() and len(a) > 20
    different = [name for name in a if not numpy.array_equal(a[name], b[name])]
    assert different == []
    # the frozen word-piece table stayed as it was through the resume
    embeddings = [name for name in a if name.endswith("word_embeddings.weight")]
    start = _weights(tmp_path / "pieces" / "model-best")  # step 0's evaluation: after one update
    assert embeddings and all(numpy.array_equal(a[name], start[name]) for name in embeddings)
    curve = [json.loads(line) for line in (tmp_path / "pieces" / "curve.jsonl").read_text().splitlines()]
    assert [record["step"] for record in curve] == [0, 2, 4, 6]
    status = json.loads((tmp_path / "pieces" / "status.json").read_text())
    assert status["state"] == "stopped" and status["step"] == 8 and status["pieces"] == 2
    assert status["last_evaluation"]["step"] == 6 and "punct_f" in status["last_evaluation"]
    assert "punct_f_QUESTION" in curve[-1] and "punct_f_PERIOD" in status["last_evaluation"]  # each class's F1


def test_resume_refuses_what_it_cannot_continue(corpus_path, tiny_bert, tmp_path):
    config, overrides = CONFIGS / "en_trf.cfg", _overrides(corpus_path, tiny_bert)
    started = train_resumable(config, tmp_path / "run", overrides, resume=True, max_steps=1, checkpoint_minutes=0)
    assert (started.step, started.pieces) == (1, 1)  # no checkpoint yet: --resume starts the run
    with pytest.raises(ValueError, match="holds a checkpoint of a run at step 1: --resume"):
        train_resumable(config, tmp_path / "run", overrides, max_steps=1)
    changed = {**overrides, "training.dropout": 0.3}
    with pytest.raises(ValueError, match="differs from the checkpoint's in training.dropout"):
        train_resumable(config, tmp_path / "run", changed, resume=True)


def test_the_stopping_rule_ends_the_run(corpus_path, tiny_bert, tmp_path):
    overrides = {**_overrides(corpus_path, tiny_bert), "training.max_steps": 3}
    state = train_resumable(CONFIGS / "en_trf.cfg", tmp_path / "run", overrides, checkpoint_minutes=0)
    assert state.finished and state.step == 4  # spaCy's loop updates at step max_steps too
    assert (tmp_path / "run" / "model-last" / "meta.json").exists()
    again = train_resumable(CONFIGS / "en_trf.cfg", tmp_path / "run", overrides, resume=True)
    assert again.step == 4


def test_sigterm_writes_a_checkpoint_and_exits_0(corpus_path, tiny_bert, tmp_path):
    """The command line: SIGTERM mid-run, then --resume."""
    args = [
        sys.executable, "-m", "spacy_punct", "train", str(CONFIGS / "en_trf.cfg"), "--output", str(tmp_path / "run"),
        "--checkpoint-minutes", "10", "--threads", "1",
    ]  # fmt: skip
    for key, value in _overrides(corpus_path, tiny_bert).items():
        args += [f"--{key}", json.dumps(value) if not isinstance(value, str) else value]
    args[args.index("--training.max_steps") + 1] = "100000"
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    status = tmp_path / "run" / "status.json"
    deadline = time.monotonic() + 120
    while not status.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "signal SIGTERM" in err and "--resume goes on" in out
    state = read_state(find_checkpoint(tmp_path / "run"))[0]
    assert state.step > 0 and json.loads(status.read_text())["state"] == "stopped"
    resumed = subprocess.run(
        args + ["--resume", "--max-minutes", "0.001"], capture_output=True, text=True, env={**os.environ}
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resuming the run at step {state.step}" in resumed.stderr
