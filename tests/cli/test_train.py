"""`spacy-punct train`."""

import json
from pathlib import Path

from spacy_punct.cli import app

from .helpers import runner


def test_train_with_a_time_limit(corpus_path, tmp_path):
    from pathlib import Path

    config = Path(__file__).parents[2] / "configs" / "en_cpu.cfg"
    args = [
        "train",
        str(config),
        "--output",
        str(tmp_path / "out"),
        "--max-minutes",
        "0.001",
        "--paths.train",
        str(corpus_path),
        "--paths.dev",
        str(corpus_path),
        "--training.eval_frequency",
        "1",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "time limit reached" in result.output
    assert (tmp_path / "out" / "model-last" / "meta.json").exists()
    assert (tmp_path / "out" / "model-best" / "meta.json").exists()
    summary = json.loads((tmp_path / "out" / "training.json").read_text())
    assert summary["ended_by"] == "time limit reached" and summary["minutes"] > 0
    assert summary["recipe"] == config.as_posix()
    final = summary["final_evaluation"]
    assert final["kept"] in ("model-best", "model-last") and 0 <= final["model-last"] <= 1
    assert "on the dev data against model-best's" in result.output
    log = [json.loads(line) for line in (tmp_path / "out" / "log.jsonl").read_text().splitlines()]
    assert log and {"step", "score", "scores"} <= set(log[0]) and "punct_f" in log[0]["scores"]
    # a second run into the same folder replaces the log instead of leaving it stale
    (tmp_path / "out" / "log.jsonl").write_text('{"stale": true}\n')
    assert runner.invoke(app, args).exit_code == 0
    assert "stale" not in (tmp_path / "out" / "log.jsonl").read_text()


def test_train_names_a_missing_corpus_and_writes_nothing(tmp_path):
    """Without --paths.train it printed a 114-line traceback and created the output folder."""
    config = Path(__file__).parents[2] / "configs" / "en_cpu.cfg"
    out = tmp_path / "out"
    result = runner.invoke(app, ["train", str(config), "--output", str(out)])
    assert result.exit_code == 1 and "--paths.train is not set" in result.output and "Traceback" not in result.output
    result = runner.invoke(
        app,
        [
            "train",
            str(config),
            "--output",
            str(out),
            "--paths.train",
            str(tmp_path / "nope"),
            "--paths.dev",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 1 and f"--paths.train {tmp_path / 'nope'} does not exist" in result.output
    assert not out.exists()


def test_train_names_what_is_wrong_with_a_config_in_one_line(tmp_path):
    """A config without [training] ended in a KeyError traceback, one that
    could not be parsed in seven lines of confection's message."""
    cases = {
        "unparsed.cfg": ('[nlp\nlang = "en"\n', "is not a valid config: File contains no section headers"),
        "unknown.cfg": ("[paths]\ntrain = ${paths.nope}\n", "is not a valid config: Bad value substitution"),
        "partial.cfg": (
            '[nlp]\nlang = "en"\n[components]\n[training]\n',
            "lacks [corpora], gpu_allocator in [training]",
        ),
    }
    for name, (text, reason) in cases.items():
        (tmp_path / name).write_text(text)
        out = tmp_path / f"out-{name}"
        result = runner.invoke(app, ["train", str(tmp_path / name), "--output", str(out)])
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        (line,) = [line for line in result.output.splitlines() if line.strip()]
        assert line.startswith(f"Error: {tmp_path / name} ") and reason in line, line
        assert not out.exists()


def test_train_reports_a_warm_start_that_cannot_be_made_in_one_line(corpus_path, tmp_path):
    import spacy

    spacy.blank("en").to_disk(tmp_path / "blank")
    config = Path(__file__).parents[2] / "configs" / "en_cpu.cfg"
    warm = '{"@callbacks":"spacy_punct.warm_start.v1","source":"%s"}' % (tmp_path / "blank").as_posix()
    result = runner.invoke(
        app,
        [
            "train",
            str(config),
            "--output",
            str(tmp_path / "out"),
            "--paths.train",
            str(corpus_path),
            "--paths.dev",
            str(corpus_path),
            "--initialize.after_init",
            warm,
        ],
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert any(
        line.startswith("Error: warm_start:") and "has none of this pipeline's trained components" in line
        for line in result.output.splitlines()
    )


def test_train_names_a_missing_encoder_folder_in_one_line(corpus_path, tmp_path, monkeypatch):
    """A transformer config naming an encoder folder not yet built retried the
    Hugging Face hub for half a minute, then ended in a traceback."""
    config = Path(__file__).parents[2] / "configs" / "en_trf.cfg"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "encoders").mkdir()
    out = tmp_path / "out"
    for name in ("encoders/missing-l3", "./missing", "models/a/b"):
        result = runner.invoke(
            app,
            [
                "train",
                str(config),
                "--output",
                str(out),
                "--paths.train",
                str(corpus_path),
                "--paths.dev",
                str(corpus_path),
                "--components.transformer.model.name",
                name,
            ],
        )
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        (line,) = [line for line in result.output.splitlines() if line.strip()]
        assert line.startswith(f"Error: --components.transformer.model.name {name} is not a folder here"), line
        assert not out.exists()


def test_train_reports_a_model_it_cannot_load_in_one_line_and_leaves_no_folder(corpus_path, tmp_path, monkeypatch):
    """A Hugging Face id offline ended in a rich traceback and an empty output folder."""
    import spacy_punct.training.loop as loop

    def unreachable(config, output, *args):
        output.mkdir()
        raise OSError("We couldn't connect to 'https://huggingface.co' to load this file,\nno/such is not a folder.")

    monkeypatch.setattr(loop, "train_for", unreachable)
    config = Path(__file__).parents[2] / "configs" / "en_cpu.cfg"
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "train",
            str(config),
            "--output",
            str(out),
            "--paths.train",
            str(corpus_path),
            "--paths.dev",
            str(corpus_path),
        ],
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    (line,) = [line for line in result.output.splitlines() if line.strip()]
    assert line == "Error: We couldn't connect to 'https://huggingface.co' to load this file, no/such is not a folder."
    assert not out.exists()
