"""`spacy-punct tune`."""

from spacy_punct.cli import app

from .helpers import model_folder, runner


def test_output_and_tune_folders_are_created(trained, tmp_path, corpus_path):
    source = tmp_path / "in.txt"
    source.write_text("so how was the trip\n")
    out = tmp_path / "a" / "b" / "out.txt"
    result = runner.invoke(app, ["punctuate", model_folder(trained, tmp_path), str(source), "-o", str(out)])
    assert result.exit_code == 0 and out.read_text() == "So, how was the trip?\n"
    tuned = tmp_path / "x" / "y" / "tuned"
    result = runner.invoke(app, ["tune", model_folder(trained, tmp_path), str(corpus_path), str(tuned)])
    assert result.exit_code == 0, result.output
    assert (tuned / "config.cfg").exists()


def test_an_existing_output_is_refused_before_any_tuning(trained, tmp_path, corpus_path):
    model = model_folder(trained, tmp_path)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("kept")
    for output in (tmp_path / "taken", model):
        result = runner.invoke(app, ["tune", model, str(corpus_path), str(output)])
        assert (
            result.exit_code == 1
            and result.output.strip() == f"Error: {output} exists: choose a new folder (nothing was written)."
        ), result.output
    assert sorted(p.name for p in (tmp_path / "taken").iterdir()) == ["notes.txt"]
