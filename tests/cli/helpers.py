"""What the command-line tests share: the runner, a trained pipeline on disk,
timed recogniser lines."""

import json

from typer.testing import CliRunner

runner = CliRunner()


def model_folder(trained, tmp_path) -> str:
    """The tiny trained pipeline saved under tmp_path (once)."""
    path = tmp_path / "model"
    if not path.exists():
        trained.to_disk(path)
    return str(path)


def timed_lines(text, offset=0.0):
    """A recogniser's JSON lines for the words of `text`, half a second apart."""
    return [
        json.dumps({"word": w, "start": offset + i * 0.5, "end": offset + i * 0.5 + 0.4, "conf": 1.0})
        for i, w in enumerate(text.split())
    ]
