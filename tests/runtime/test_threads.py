import pytest
import torch

from spacy_punct.runtime.threads import set_threads


def test_set_threads():
    before = torch.get_num_threads()
    try:
        assert set_threads(1) == 1 == torch.get_num_threads()
        assert set_threads(None) == 1
        with pytest.raises(ValueError, match="at least 1"):
            set_threads(0)
        for wrong in ("2", 1.5, True):
            with pytest.raises(TypeError, match="threads must be a whole number"):
                set_threads(wrong)
    finally:
        torch.set_num_threads(before)


def test_worker_processes_after_the_parent_used_the_model():
    """nlp.pipe(n_process=2) once the parent has run torch with two threads:
    the forked workers hung at their first torch operation."""
    import subprocess
    import sys
    from pathlib import Path

    model = Path(__file__).parents[1] / "data" / "pipeline_v0_1_0" / "pipeline"
    code = (
        "import sys, spacy, torch\n"
        "torch.set_num_threads(2)\n"
        f"nlp = spacy.load({str(model)!r})\n"
        "first = nlp('so how was the trip').text\n"
        "out = [d.text for d in nlp.pipe(['so how was the trip'] * 8, n_process=2, batch_size=2)]\n"
        "assert out == [first] * 8, out\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_load_pipeline_sets_one_thread_unless_told(trained, tmp_path):
    """A library user who loads a pipeline gets one torch thread, which stays
    fast when other processes share the cores; threads=N or None choose."""
    from spacy_punct import load_pipeline

    trained.to_disk(tmp_path / "model")
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        load_pipeline(tmp_path / "model")
        assert torch.get_num_threads() == 1
        torch.set_num_threads(2)
        load_pipeline(tmp_path / "model", threads=None)
        assert torch.get_num_threads() == 2
        load_pipeline(tmp_path / "model", threads=3)
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(before)


def test_the_tokenizers_thread_pool_is_off_unless_the_environment_says_otherwise(monkeypatch):
    """A process forked after the pool ran printed four lines of warning to stderr (`benchmark --processes 2`)."""
    import os

    from spacy_punct.runtime.threads import tokenizers_pool_off

    monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)
    tokenizers_pool_off()
    assert os.environ["TOKENIZERS_PARALLELISM"] == "false"
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "true")
    tokenizers_pool_off()
    assert os.environ["TOKENIZERS_PARALLELISM"] == "true"
