from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_punct.cli import app
from tests.conftest import TEXTS


def _fit_args(trained, tmp_path):
    """The pipeline and a corpus on disk, and fit-repair's arguments for them."""
    trained.to_disk(tmp_path / "model")
    corpus = tmp_path / "train.spacy"
    DocBin(docs=[trained.make_doc(" ".join(TEXTS[k:] + TEXTS[:k])) for k in range(3)]).to_disk(corpus)
    return corpus, ["fit-repair", str(tmp_path / "model"), str(corpus), "-o", str(tmp_path / "out"), "--epochs", "1"]


def test_fit_repair_writes_a_pipeline_that_punctuate_and_evaluate_use(trained, tmp_path):
    corpus, args = _fit_args(trained, tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "punctuator" / "repair_model").exists()
    nested = runner.invoke(app, args[:4] + [str(tmp_path / "new" / "out"), "--epochs", "1"])
    assert nested.exit_code == 0, nested.output  # its parent folders are made
    again = runner.invoke(app, args)
    assert again.exit_code == 1 and "exists" in again.output
    text = "So, how was the trip? it was long but we saw the coast\n"
    out = runner.invoke(app, ["punctuate", str(tmp_path / "out"), "--repair"], input=text)
    assert out.exit_code == 0, out.output
    assert out.output.startswith("So, how was the trip? ")
    scored = runner.invoke(app, ["evaluate", str(tmp_path / "out"), str(corpus), "--repair", "-o", str(tmp_path / "m")])
    assert scored.exit_code == 0, scored.output
    assert "train.spacy with repair" in scored.output and (tmp_path / "m" / "train.repair.json").exists()


def test_run_edges_within_sentences_in_fitting_and_scoring(trained, tmp_path):
    corpus, args = _fit_args(trained, tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, args + ["--within", "0.5"])
    assert result.exit_code == 0, result.output
    scored = runner.invoke(
        app,
        [
            "evaluate",
            str(tmp_path / "out"),
            str(corpus),
            "--repair",
            "--repair-within",
            "0.5",
            "-o",
            str(tmp_path / "m"),
        ],
    )
    assert scored.exit_code == 0, scored.output
    assert "run edges within sentences 0.5" in scored.output
    assert (tmp_path / "m" / "train.repair-within-0.5.json").exists()
    wrong = runner.invoke(app, args[:4] + [str(tmp_path / "other"), "--within", "2"])
    assert wrong.exit_code == 2 and "--within" in wrong.output
