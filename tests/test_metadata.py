"""The package's metadata says what is true: what it imports, what it needs, what its licences are."""
import ast
import json
import sys
from importlib.metadata import metadata, requires
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

PACKAGE = Path(__file__).resolve().parent.parent / "spacy_punct"
# import name -> distribution name, where they differ
DISTRIBUTIONS = {"spacy_transformers": "spacy-transformers", "yaml": "pyyaml"}
# imported only inside the optional extras' modules and functions
EXTRAS = {"ray", "pandas", "pyarrow", "matplotlib", "tokenizers"}


def _requirements():
    return {Requirement(text).name.lower(): Requirement(text) for text in requires("spacy-punct")}


def _imported_top_level_names():
    names = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"spacy_punct"}


def test_every_third_party_import_is_declared():
    declared = set(_requirements())
    missing = {name for name in _imported_top_level_names() - EXTRAS
               if DISTRIBUTIONS.get(name, name).lower().replace("_", "-") not in declared}
    assert not missing, f"imported but not declared in install_requires: {sorted(missing)}"


def test_the_lowest_versions_declared_are_ones_the_code_runs_on():
    reqs = _requirements()
    assert "2.0" not in reqs["torch"].specifier and "2.3.0" in reqs["torch"].specifier  # torch.func, torch._int_mm
    assert "0.30.0" not in reqs["typer"].specifier  # capped at the typer the suite runs on
    assert "4.47.0" not in reqs["transformers"].specifier  # 4.47 on import 1 s more of every start
    ray = next(Requirement(text) for text in requires("spacy-punct") if text.startswith("ray"))
    assert "3.0.0" not in ray.specifier  # Ray Data's inner workings are read
    assert metadata("spacy-punct")["Requires-Python"] == ">=3.10"


def test_licences_and_python_versions_are_stated():
    meta = metadata("spacy-punct")
    assert "MIT" in meta["License"] and "CC BY-NC-SA" in meta["License"]
    classifiers = meta.get_all("Classifier")
    assert {"Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.12"} <= set(classifiers)


def test_bundled_pipelines_ask_for_the_spacy_versions_the_package_supports():
    spacy_range = _requirements()["spacy"].specifier
    for meta_path in (PACKAGE / "models").glob("*/meta.json"):
        asked = SpecifierSet(json.loads(meta_path.read_text(encoding="utf8"))["spacy_version"])
        for version in ("3.7.5", "3.8.1", "3.8.18", "3.9.0"):
            assert (version in asked) == (version in spacy_range), (meta_path.parent.name, version)
