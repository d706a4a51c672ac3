"""`spacy train` and `spacy evaluate` with the project's configs."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_punct.word_records import read_docbins, strip_docs

from ..conftest import reader_examples

CONFIGS = Path(__file__).parent.parent.parent / "configs"


def _spacy(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "spacy", *args], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.parametrize("config", sorted(p.name for p in CONFIGS.glob("*.cfg")))
def test_debug_config(config, corpus_path):
    """`spacy debug config` on every recipe, in this process (its function, as its command calls it)."""
    from spacy.cli.debug_config import debug_config

    debug_config(CONFIGS / config, overrides={"paths.train": str(corpus_path), "paths.dev": str(corpus_path)})


def test_train_and_evaluate_agree_with_and_without_rewrite(corpus_path, tmp_path):
    _spacy(
        "train", str(CONFIGS / "en_cpu.cfg"), "--output", str(tmp_path / "out"),
        "--paths.train", str(corpus_path), "--paths.dev", str(corpus_path),
        "--training.max_steps", "28", "--training.eval_frequency", "14",
        # a higher rate: a few steps must teach the model something
        "--training.optimizer.learn_rate", "0.005",
    )
    model = tmp_path / "out" / "model-last"
    nlp = spacy.load(model)
    trained = json.loads((model / "meta.json").read_text())["performance"]
    examples = reader_examples(nlp, corpus_path)
    on = nlp.evaluate(examples)
    nlp.get_pipe("punctuator").rewrite = False
    off = nlp.evaluate(examples)
    nlp.to_disk(tmp_path / "no-rewrite")
    assert 0.0 < on["punct_f"] < 1.0  # half-trained: the scores say something
    for key in ("punct_f", "punct_p", "punct_r", "punct_macro_f", "sents_f"):
        assert on[key] == off[key]
        assert round(on[key], 10) == round(trained[key], 10)
    # spacy evaluate reads the gold form of the test set
    gold = tmp_path / "gold.spacy"
    DocBin(docs=list(strip_docs(read_docbins(corpus_path, nlp.vocab))), store_user_data=True).to_disk(gold)
    # spacy evaluate tokenises the gold text itself (`doesn't` stays one token): score the same examples here
    from spacy.training import Corpus

    nlp.get_pipe("punctuator").rewrite = True
    on_gold = nlp.evaluate(list(Corpus(str(gold))(nlp)))
    results = []
    for path in (model, tmp_path / "no-rewrite"):
        _spacy("evaluate", str(path), str(gold), "--output", str(tmp_path / "eval.json"))
        results.append(json.loads((tmp_path / "eval.json").read_text()))
    for key in ("punct_f", "punct_p", "punct_r", "punct_macro_f", "punct_ser", "sents_f"):
        assert results[0][key] == results[1][key]
        assert results[0][key] == pytest.approx(on_gold[key])


def test_train_transformer_config_with_a_local_model(corpus_path, tiny_bert, tmp_path):
    _spacy(
        "train", str(CONFIGS / "en_trf.cfg"), "--output", str(tmp_path / "out"),
        "--paths.train", str(corpus_path), "--paths.dev", str(corpus_path),
        "--components.transformer.model.name", str(tiny_bert),
        "--system.gpu_allocator", "null",
        "--training.max_steps", "4", "--training.eval_frequency", "2",
    )
    nlp = spacy.load(tmp_path / "out" / "model-last")
    assert nlp.pipe_names == ["transformer", "truecaser", "punctuator"]
    assert nlp("so how was it").text.lower().startswith("so")


def test_time_limit_callback():
    import time

    from spacy_punct.training.loop import TrainingTimeUp, create_time_limit

    callback = create_time_limit(minutes=0.0005)
    callback(None, {"step": 0})
    time.sleep(0.05)
    with pytest.raises(TrainingTimeUp, match="step 7"):
        callback(None, {"step": 7})


def test_time_limit_sets_the_schedules_minutes(monkeypatch, tmp_path):
    from spacy_punct.training import loop

    seen = []
    monkeypatch.setattr(loop, "spacy_train", lambda config, output, use_gpu, overrides: seen.append(overrides))
    config = CONFIGS / "en_small_trf.cfg"
    loop.train_for(config, tmp_path, max_minutes=58)
    loop.train_for(config, tmp_path, max_minutes=58, overrides={"training.optimizer.learn_rate.minutes": 30})
    loop.train_for(config, tmp_path)
    loop.train_for(CONFIGS / "en_cpu.cfg", tmp_path, max_minutes=58)
    assert seen[0]["training.optimizer.learn_rate.minutes"] == 58
    assert seen[1]["training.optimizer.learn_rate.minutes"] == 30
    assert "training.optimizer.learn_rate.minutes" not in seen[2]
    assert "training.optimizer.learn_rate.minutes" not in seen[3]
    assert all(overrides["training.before_update"]["minutes"] == 58 for overrides in (seen[0], seen[1], seen[3]))


@pytest.mark.parametrize("last_score,kept", [(0.6, "model-last"), (0.4, "model-best")])
def test_the_last_weights_replace_the_best_when_they_score_higher(trained, tmp_path, monkeypatch, last_score, kept):
    from spacy_punct.training import loop

    for name in ("model-best", "model-last"):
        trained.meta["performance"] = {"punct_f": 0.5 if name == "model-best" else 0.0}
        trained.meta["name"] = name.replace("-", "_")
        trained.to_disk(tmp_path / name)

    def evaluate_saved(path):
        nlp = spacy.load(path)
        score = last_score if path.name == "model-last" else 0.5
        return nlp, {"score_weights": {"punct_f": 1.0}}, score, {"punct_f": score, "punct_p": 0.0}

    monkeypatch.setattr(loop, "_evaluate_saved", evaluate_saved)
    assert loop.keep_the_better_last(tmp_path) == {"model-best": 0.5, "model-last": last_score, "kept": kept}
    meta = json.loads((tmp_path / "model-best" / "meta.json").read_text())
    assert meta["name"] == kept.replace("-", "_")
    assert meta["performance"] == {"punct_f": 0.5 if kept == "model-best" else last_score}
    assert loop.keep_the_better_last(tmp_path / "nowhere") is None


def test_the_time_limit_ends_plain_spacy_train_cleanly(corpus_path, tmp_path):
    """spacy_punct.time_limit.v1 in plain `spacy train` ended with TrainingTimeUp and exit status 1."""
    from spacy.util import load_config

    config = load_config(CONFIGS / "en_cpu.cfg")
    config["training"]["before_update"] = {"@callbacks": "spacy_punct.time_limit.v1", "minutes": 0.0001}
    config["training"]["max_steps"] = 100000
    config.to_disk(tmp_path / "limited.cfg")
    result = _spacy("train", str(tmp_path / "limited.cfg"), "--output", str(tmp_path / "out"),
                    "--paths.train", str(corpus_path), "--paths.dev", str(corpus_path))
    assert "Training stops: time limit of 0.0001 minutes reached" in result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "out" / "model-last" / "meta.json").exists()


def test_spacy_quickstart_config_fails_at_once_naming_the_lines_and_trains_with_them(tmp_path, nlp):
    """`spacy init config --pipeline punctuator` then `spacy train` on natural punctuated DocBins
    failed with E949 in the first evaluation."""
    import spacy
    from spacy.cli.init_config import init_config
    from spacy.cli.train import train
    from spacy.tokens import DocBin

    from ..conftest import TEXTS

    DocBin(docs=[nlp.make_doc(t) for t in TEXTS * 3]).to_disk(tmp_path / "train.spacy")
    config = init_config(lang="en", pipeline=["punctuator"], optimize="efficiency", gpu=False)
    overrides = {"paths.train": str(tmp_path / "train.spacy"), "paths.dev": str(tmp_path / "train.spacy"),
                 "training.max_steps": 2}
    config.to_disk(tmp_path / "config.cfg")
    with pytest.raises(ValueError, match=r'\[corpora.train\] and \[corpora.dev\] @readers = "spacy_punct.PunctCorpus.v1"'):
        train(tmp_path / "config.cfg", overrides=overrides)
    text = (tmp_path / "config.cfg").read_text(encoding="utf8")
    text = text.replace('@readers = "spacy.Corpus.v1"', '@readers = "spacy_punct.PunctCorpus.v1"')
    text = text.replace('@tokenizers = "spacy.Tokenizer.v1"', '@tokenizers = "spacy_punct.Tokenizer.v1"')
    (tmp_path / "fixed.cfg").write_text(text, encoding="utf8")
    train(tmp_path / "fixed.cfg", output_path=tmp_path / "out", overrides=overrides)
    assert "punctuator" in spacy.load(tmp_path / "out" / "model-last").pipe_names
