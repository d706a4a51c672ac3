"""The bundled pipelines as installed spaCy packages, so that
`spacy.load("en_punct_trf")` finds them by name and `spacy info` lists them.

Each is a thin package (a few hundred bytes: its `load()` reads the pipeline
inside spacy_punct), built as a wheel here and installed by pip without the
network."""

import base64
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import List, Optional

from ..about import __version__
from .bundled import BUNDLED_DIR, bundled_names, default_pipeline

_INIT = '''"""The spacy-punct pipeline {name}, bundled inside spacy_punct, as a spaCy package."""
from spacy.util import load_model_from_path
from spacy_punct.pipelines.bundled import BUNDLED_DIR


def load(**overrides):
    return load_model_from_path(BUNDLED_DIR / "{name}", **overrides)
'''


class PackageError(ValueError):
    """A bundled pipeline cannot be built or installed as a package."""


def package_name(name: str) -> str:
    """The pipeline a bundled name stands for ("en" -> "en_punct_trf")."""
    if name not in bundled_names():
        raise PackageError(f"{name!r} is not a bundled pipeline; the bundled ones are {bundled_names()}.")
    return default_pipeline(name) or name


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build_wheel(name: str, dest: Path) -> Path:
    """Write the wheel of the thin package for the bundled pipeline `name`
    into `dest`; returns its path."""
    pipeline = package_name(name)
    if not (BUNDLED_DIR / pipeline / "meta.json").is_file():
        raise PackageError(f"The bundled pipeline {pipeline} has no meta.json.")
    info = f"{pipeline}-{__version__}.dist-info"
    files = {
        f"{pipeline}/__init__.py": _INIT.format(name=pipeline),
        # `spacy info NAME` reads the meta of the package's folder, as in spaCy's own packages
        f"{pipeline}/meta.json": (BUNDLED_DIR / pipeline / "meta.json").read_text(encoding="utf8"),
        f"{info}/METADATA": (
            f"Metadata-Version: 2.1\nName: {pipeline}\nVersion: {__version__}\n"
            f"Summary: The spacy-punct pipeline {pipeline}, bundled inside spacy-punct\n"
            f"Requires-Dist: spacy-punct=={__version__}\n"
        ),
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: spacy-punct\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": f"[spacy_models]\n{pipeline} = {pipeline}\n",
    }
    wheel = Path(dest) / f"{pipeline}-{__version__}-py3-none-any.whl"
    record = [_record_line(path, text.encode("utf8")) for path, text in files.items()] + [f"{info}/RECORD,,"]
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in files.items():
            archive.writestr(path, text)
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def install(names: List[str], target: Optional[Path] = None) -> List[str]:
    """Install the thin packages of the bundled pipelines `names` with pip,
    offline, into the environment (or into the folder `target`); returns
    the packages' names."""
    pipelines = [package_name(name) for name in names]
    with tempfile.TemporaryDirectory() as tmp:
        wheels = [str(build_wheel(pipeline, Path(tmp))) for pipeline in pipelines]
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--force-reinstall",
            "--disable-pip-version-check",
            "--quiet",
        ]
        if target is not None:
            command += ["--target", str(target)]
        done = subprocess.run(command + wheels, capture_output=True, text=True)
    if done.returncode != 0:
        problem = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
        raise PackageError(f"pip could not install {', '.join(pipelines)}: {problem}")
    return pipelines
