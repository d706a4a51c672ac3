import os
import subprocess
import sys
import zipfile

import pytest

from spacy_punct.pipelines.packages import PackageError, build_wheel, install, package_name


def test_a_language_code_names_its_default_pipeline():
    assert package_name("en") == "en_punct_trf"
    assert package_name("en_punct_sm") == "en_punct_sm"
    with pytest.raises(PackageError, match="'xx' is not a bundled pipeline"):
        package_name("xx")


def test_the_wheel_is_a_thin_package_with_a_spacy_models_entry_point(tmp_path):
    wheel = build_wheel("en_punct_sm", tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = archive.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
        record = archive.read(next(n for n in names if n.endswith("RECORD"))).decode()
    assert "en_punct_sm/__init__.py" in names
    assert "[spacy_models]\nen_punct_sm = en_punct_sm" in entry_points
    assert all(name in record for name in names)
    assert "en_punct_sm/meta.json" in names  # what spacy info reads
    assert wheel.stat().st_size < 4000  # the pipeline's data stays inside spacy_punct


def test_an_installed_bundled_pipeline_loads_by_name_and_is_listed(tmp_path):
    assert install(["en_punct_sm"], target=tmp_path) == ["en_punct_sm"]
    script = (
        "import spacy; print(spacy.util.get_installed_models()); "
        "print(spacy.load('en_punct_sm')('so how was the trip it was long').text)"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    models, text = done.stdout.splitlines()
    assert "en_punct_sm" in models
    assert text.startswith("So how was the trip")
    info = subprocess.run(
        [sys.executable, "-m", "spacy", "info", "en_punct_sm"], env=env, capture_output=True, text=True
    )
    assert info.returncode == 0, info.stderr
    assert "en_punct_sm" in info.stdout and "punctuator" in info.stdout


def test_the_install_command_names_the_bundled_pipelines_on_a_wrong_name():
    from typer.testing import CliRunner

    from spacy_punct.cli import app

    result = CliRunner().invoke(app, ["install", "xx"])
    assert result.exit_code == 1
    assert "'xx' is not a bundled pipeline; the bundled ones are" in result.output
    assert "Traceback" not in result.output
