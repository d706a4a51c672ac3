"""The package passes mypy, and so does the public API as the README uses it
(tests/typing/public_api.py): one run, so that the dependencies are read once."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
def test_the_package_and_the_readme_s_uses_of_its_public_api_pass_mypy(tmp_path):
    """All of the package, not only the public API (mypy.ini names the dependencies without types)."""
    root = HERE.parent
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(root / "mypy.ini"),
            "--cache-dir",
            str(tmp_path),
            str(root / "spacy_punct"),
            str(HERE / "typing" / "public_api.py"),
        ],
        capture_output=True,
        text=True,
        cwd=root,
    )
    assert done.returncode == 0, done.stdout + done.stderr
