"""`spacy-punct benchmark`."""

import json

import spacy

from spacy_punct.cli import app

from .helpers import runner


def test_benchmark(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "model")
    model = str(tmp_path / "model")
    out = tmp_path / "speed" / "speed.json"
    args = ["benchmark", str(corpus_path), model, "en", "--words-per-line", "10", "--rounds", "2", "--threads", "1"]
    result = runner.invoke(app, args + ["-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "7 lines, 70 words; threads 1, batch 64, best of 2" in result.output
    assert f"| {model} | " in result.output and "| en | " in result.output
    saved = json.loads(out.read_text())
    assert saved["words"] == 70 and list(saved["words_per_second"]) == [model, "en"]
    assert all(rate > 0 for rate in saved["words_per_second"].values())
    assert saved["machine"]["cpu"] and saved["machine"]["int8_products"] in result.output
    assert saved["machine"]["int8_products"] != "none (no int8 layers)"  # en: en_punct_trf, int8
    alone = runner.invoke(app, args[:3] + ["--words-per-line", "10", "--rounds", "1"])
    assert alone.exit_code == 0 and "int8 layers' products: none (no int8 layers)" in alone.output
    twice = runner.invoke(app, ["benchmark", str(corpus_path), model, model])
    assert twice.exit_code == 1 and "named twice" in twice.output
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    nothing = runner.invoke(app, ["benchmark", str(empty), model])
    assert nothing.exit_code == 1 and "no words to time" in nothing.output
    blank = tmp_path / "blank"
    spacy.blank("en").to_disk(blank)
    assert "no punctuator" in runner.invoke(app, ["benchmark", str(corpus_path), str(blank)]).output
    no_rounds = runner.invoke(app, ["benchmark", str(corpus_path), model, "--rounds", "0"])
    assert no_rounds.exit_code == 2 and "lines" not in no_rounds.output


def test_benchmark_in_worker_processes(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "model")
    model = str(tmp_path / "model")
    out = tmp_path / "speed.json"
    args = ["benchmark", str(corpus_path), model, "--words-per-line", "10", "--rounds", "1", "--batch-size", "2"]
    result = runner.invoke(app, args + ["--processes", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "70 words; 2 processes of 1 thread, batch 2, best of 1" in result.output
    saved = json.loads(out.read_text())
    assert saved["processes"] == 2 and saved["words_per_second"][model] > 0
    both = runner.invoke(app, args + ["--processes", "2", "--threads", "2"])
    assert both.exit_code == 1 and "leave --threads at 1" in both.output
