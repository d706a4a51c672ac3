"""`spacy-punct evaluate`."""

from spacy_punct.cli import app

from .helpers import runner


def test_evaluate(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "model")
    (tmp_path / "tests").mkdir()
    for name in ("a", "b"):
        (tmp_path / "tests" / f"{name}.spacy").write_bytes(corpus_path.read_bytes())
    result = runner.invoke(
        app, ["evaluate", str(tmp_path / "model"), str(tmp_path / "tests"), "-o", str(tmp_path / "metrics")]
    )
    assert result.exit_code == 0, result.output
    assert "| **overall (micro)** | 100.0 | 100.0 | 100.0 | 20 |" in result.output
    assert "| QUESTION | 100.0 | 100.0 | 100.0 | 4 |" in result.output
    import json

    scores = json.loads((tmp_path / "metrics" / "b.json").read_text())
    assert scores["punct_f"] == 1.0 and scores["words"] == 70 and scores["words_per_second"] > 0
    assert (tmp_path / "metrics" / "a.md").read_text().startswith("| label |")
    # the run's own file: what was scored, for the report
    run = json.loads((tmp_path / "metrics" / "run.json").read_text())
    assert run["pipeline"] == str(tmp_path / "model") and run["lang"] == "en" and "targets" not in run


def test_evaluate_writes_a_bundled_pipelines_targets_and_a_trained_runs_recipe(trained, corpus_path, tmp_path):
    import json

    result = runner.invoke(app, ["evaluate", "en_punct_sm", str(corpus_path), "-o", str(tmp_path / "sm")])
    assert result.exit_code == 0, result.output
    run = json.loads((tmp_path / "sm" / "run.json").read_text())
    assert run["pipeline"] == "en_punct_sm" and run["targets"]["test2011"] == 64.0
    assert run["description"].startswith("English punctuation")
    (tmp_path / "training").mkdir()
    trained.to_disk(tmp_path / "training" / "model-best")
    (tmp_path / "training" / "training.json").write_text(json.dumps({"recipe": "configs/en_cpu.cfg", "minutes": 1.0}))
    result = runner.invoke(
        app, ["evaluate", str(tmp_path / "training" / "model-best"), str(corpus_path), "-o", str(tmp_path / "run")]
    )
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "run" / "run.json").read_text())["recipe"] == "configs/en_cpu.cfg"


def test_evaluate_with_asr_noise(trained, corpus_path, tmp_path):
    import json

    trained.to_disk(tmp_path / "model")
    args = [
        "evaluate",
        str(tmp_path / "model"),
        str(corpus_path),
        "-o",
        str(tmp_path / "metrics"),
        "--asr-noise",
        "0.6",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    noisy = json.loads((tmp_path / "metrics" / "tiny.asr-noise-0.6.json").read_text())
    # words are deleted and inserted, gold marks move with them; the score drops
    assert noisy["words"] != 70 and noisy["punct_f"] < 1.0
    assert runner.invoke(app, args).exit_code == 0
    again = json.loads((tmp_path / "metrics" / "tiny.asr-noise-0.6.json").read_text())
    assert again["punct_confusion"] == noisy["punct_confusion"] and again["words"] == noisy["words"]  # seeded
    assert runner.invoke(app, args[:-1] + ["2"]).exit_code == 1
    upper = runner.invoke(app, args + ["--input-case", "upper"])
    assert upper.exit_code == 0 and "with asr-noise-0.6.upper" in upper.output, upper.output
    assert (tmp_path / "metrics" / "tiny.asr-noise-0.6.upper.json").exists()
    spoken = runner.invoke(app, args + ["--spoken-numbers"])
    assert spoken.exit_code == 0 and "with spoken-numbers.asr-noise-0.6" in spoken.output, spoken.output
    assert (tmp_path / "metrics" / "tiny.spoken-numbers.asr-noise-0.6.json").exists()
    words = runner.invoke(app, args + ["--asr-noise-words"])
    assert words.exit_code == 0 and "with asr-noise-0.6-words" in words.output, words.output
    with_words = json.loads((tmp_path / "metrics" / "tiny.asr-noise-0.6-words.json").read_text())
    assert with_words["punct_confusion"] != noisy["punct_confusion"]
    assert runner.invoke(app, args + ["--input-case", "shouting"]).exit_code == 1


def test_evaluate_with_the_writer_s_quotes_kept(trained, corpus_path, tmp_path):
    import json

    trained.to_disk(tmp_path / "model")
    args = ["evaluate", str(tmp_path / "model"), str(corpus_path), "-o", str(tmp_path / "metrics"), "--keep-quotes"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "with keep-quotes" in result.output, result.output
    assert json.loads((tmp_path / "metrics" / "tiny.keep-quotes.json").read_text())["keep_quotes"]
    refused = runner.invoke(app, args + ["--input-marks"])
    assert refused.exit_code == 1 and "keep_quotes" in refused.output and "Traceback" not in refused.output


def test_a_gpu_that_is_not_there_is_one_line(corpus_path, tmp_path):
    import pytest
    from thinc.util import has_cupy_gpu

    if has_cupy_gpu:
        pytest.skip("a GPU is there")
    for command in (
        ["evaluate", "en_punct_sm", str(corpus_path)],
        ["distill", "en_punct_sm", str(corpus_path), str(tmp_path / "out")],
    ):
        result = runner.invoke(app, command + ["--gpu-id", "0"])
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: GPU 0 is not available") and len(result.output.splitlines()) == 1
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_distilling_from_what_is_not_a_docbin_is_one_line_without_progress(tmp_path):
    text = tmp_path / "a.txt"
    text.write_text("so how was the trip\n", encoding="utf8")
    result = runner.invoke(app, ["distill", "en_punct_sm", str(text), str(tmp_path / "out.spacy")])
    assert result.exit_code == 1 and result.output.splitlines() == [
        f"Error: {text} is not a DocBin (.spacy) file: write one with `spacy-punct convert`."
    ]
