"""The recipes in configs/ are written from their base configs by scripts/configs.py."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def test_recipes_are_up_to_date():
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "configs.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_stale_recipe_is_reported(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import configs
    finally:
        sys.path.pop(0)
    for name in ("base_cpu.cfg", "base_trf.cfg"):
        (tmp_path / name).write_text((ROOT / "configs" / name).read_text())
    monkeypatch.setattr(configs, "CONFIGS", tmp_path)
    assert configs.main(check=True) == 1  # nothing written yet
    assert configs.main(check=False) == 0 and configs.main(check=True) == 0
    assert '@architectures = "spacy_punct.BiLSTMEncoder.v1"' in (tmp_path / "hu_cpu.cfg").read_text()
    assert "width = 64" in (tmp_path / "hu_cpu.cfg").read_text()
    (tmp_path / "hu_cpu.cfg").write_text((tmp_path / "hu_cpu.cfg").read_text().replace("width = 64", "width = 65"))
    assert configs.main(check=True) == 1


def test_only_a_section_the_base_leaves_empty_takes_new_keys():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import configs
    finally:
        sys.path.pop(0)
    lines = ["[a]", "x = 1", "", "[a.hf]", "", "[b]", "y = 2"]
    open_sections = configs._empty_sections(lines)
    assert open_sections == {"[a.hf]"}
    lines = configs._replace(lines, "a.hf", "layers", "4", "test", open_sections)
    lines = configs._replace(lines, "a.hf", "dropout", "0.0", "test", open_sections)
    assert lines == ["[a]", "x = 1", "", "[a.hf]", "layers = 4", "dropout = 0.0", "", "[b]", "y = 2"]
    assert configs._replace(lines, "a", "x", "3", "test", open_sections)[1] == "x = 3"
    with pytest.raises(KeyError, match="no z in"):
        configs._replace(lines, "a", "z", "3", "test", open_sections)


def test_a_recipe_without_a_truecaser_weighs_and_shows_no_case_scores():
    from thinc.api import Config

    for path in sorted((ROOT / "configs").glob("*.cfg")):
        if path.name.startswith("base_"):
            continue
        config = Config().from_disk(path, interpolate=False)
        weights = config["training"]["score_weights"]
        case_weights = {key: value for key, value in weights.items() if key.startswith("case_")}
        if "truecaser" in config["nlp"]["pipeline"]:
            assert case_weights.get("case_f"), path.name
        else:
            assert all(value is None for value in case_weights.values()), (path.name, case_weights)
