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
    missing = {
        name
        for name in _imported_top_level_names() - EXTRAS
        if DISTRIBUTIONS.get(name, name).lower().replace("_", "-") not in declared
    }
    assert not missing, f"imported but not declared in install_requires: {sorted(missing)}"


def test_the_lowest_versions_declared_are_ones_the_code_runs_on():
    reqs = _requirements()
    # torch.load reads weights only by default from 2.6: thinc's and spacy-transformers' loads too
    assert "2.5.1" not in reqs["torch"].specifier and "2.6.0" in reqs["torch"].specifier
    assert "0.30.0" not in reqs["typer"].specifier  # capped at the typer the suite runs on
    assert "4.47.0" not in reqs["transformers"].specifier  # 4.47 on import 1 s more of every start
    ray = next(Requirement(text) for text in requires("spacy-punct") if text.startswith("ray"))
    assert "3.0.0" not in ray.specifier  # Ray Data's inner workings are read
    assert metadata("spacy-punct")["Requires-Python"] == ">=3.10"


def test_licences_and_python_versions_are_stated():
    """The wheel said MIT alone while it ships pipelines for non-commercial use."""
    meta = metadata("spacy-punct")
    assert "MIT" in meta["License"]
    for meta_path in (PACKAGE / "models").glob("*/meta.json"):
        assert json.loads(meta_path.read_text(encoding="utf8"))["license"] in meta["License"]
    classifiers = meta.get_all("Classifier")
    assert "License :: Free for non-commercial use" in classifiers
    assert {"Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.12"} <= set(classifiers)


def test_bundled_pipelines_ask_for_the_spacy_versions_the_package_supports():
    spacy_range = _requirements()["spacy"].specifier
    for meta_path in (PACKAGE / "models").glob("*/meta.json"):
        asked = SpecifierSet(json.loads(meta_path.read_text(encoding="utf8"))["spacy_version"])
        for version in ("3.7.5", "3.8.1", "3.8.18", "3.9.0"):
            assert (version in asked) == (version in spacy_range), (meta_path.parent.name, version)


def test_every_bundled_pipeline_carries_its_licence_file_and_a_true_licence():
    """The English pipelines learned from TED talks (CC BY-NC-ND 4.0) yet said
    CC BY-NC-SA 4.0, and no pipeline folder had a licence file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bundle_model", PACKAGE.parent / "scripts" / "bundle_model.py")
    bundle_model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bundle_model)
    pipeline_licence = bundle_model.pipeline_licence

    for meta_path in sorted((PACKAGE / "models").glob("*/meta.json")):
        meta = json.loads(meta_path.read_text(encoding="utf8"))
        assert meta["license"] == pipeline_licence(meta["sources"])
        for source in meta["sources"]:
            for term in ("NC-ND", "NC-SA"):
                assert term not in source["license"] or f"BY-{term}" in meta["license"], (meta_path, source)
        licence = (meta_path.parent / "LICENSE").read_text(encoding="utf8")
        assert licence.splitlines()[0].endswith(f": {meta['license']}")
        assert all(source["url"] in licence for source in meta["sources"])
