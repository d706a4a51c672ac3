"""The spaCy project file: valid, and every file it needs from the repo is there."""
from pathlib import Path

from weasel.util import load_project_config

ROOT = Path(__file__).parent.parent


def test_project_config_is_valid_and_complete():
    config = load_project_config(ROOT)
    commands = {command["name"]: command for command in config["commands"]}
    assert set(config["workflows"]) == {"demo", "en", "bn", "hu", "all", "benchmark"}
    for steps in config["workflows"].values():
        assert all(step in commands for step in steps)
    for lang in ("en", "bn", "hu"):
        for recipe in ("cpu", "trf"):  # --vars.config
            assert (ROOT / "configs" / f"{lang}_{recipe}.cfg").exists()
        assert config["workflows"][lang] == [f"convert-{lang}", f"train-{lang}", f"evaluate-{lang}"]
    for command in commands.values():
        for dep in command.get("deps", []):
            if dep.startswith(("configs/", "demo/", "scripts/", "benchmarks/")):
                assert (ROOT / dep).exists(), dep
    for asset in config["assets"]:
        assert asset.get("extra") or asset.get("checksum"), asset["dest"]


def test_running_the_project_changes_no_tracked_file():
    """`spacy project run demo` rewrote the tracked project.lock."""
    import subprocess

    if not (ROOT / ".git").exists():
        return  # an installed copy, not a checkout
    tracked = subprocess.run(["git", "ls-files", "project.lock"], cwd=ROOT, capture_output=True, text=True).stdout
    assert tracked == ""
    ignored = subprocess.run(["git", "check-ignore", "-q", "project.lock"], cwd=ROOT)
    assert ignored.returncode == 0
