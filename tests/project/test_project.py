"""The spaCy project file: valid, and every file it needs from the repo is there."""

import re
from pathlib import Path

from weasel.util import load_project_config

ROOT = Path(__file__).parents[2]


def test_project_config_is_valid_and_complete():
    config = load_project_config(ROOT)
    commands = {command["name"]: command for command in config["commands"]}
    assert set(config["workflows"]) == {"all", "bundle-en", "benchmark"}
    for steps in config["workflows"].values():
        assert all(step in commands for step in steps)
    for command in commands.values():
        for dep in command.get("deps", []):
            if dep.startswith(("configs/", "demo/", "scripts/", "benchmarks/")):
                assert (ROOT / dep).exists(), dep
    for asset in config["assets"]:
        assert asset.get("extra") or asset.get("checksum"), asset["dest"]
        # an asset without a checksum says why
        assert asset.get("checksum") or "no checksum" in asset["description"], asset["dest"]


def test_every_command_declares_the_scripts_it_runs_and_what_it_writes():
    """`demo` ran scripts/prepare_corpus.py without it in its deps, and
    `evaluate-case` declared no outputs."""
    for command in load_project_config(ROOT)["commands"]:
        scripts = {script for line in command["script"] for script in re.findall(r"python (scripts/\S+\.py)", line)}
        assert scripts <= set(command.get("deps", [])), (command["name"], scripts)
        if any(re.search(r"--output-dir |--output |-o ", line) for line in command["script"]):
            assert command.get("outputs"), command["name"]


def test_one_command_per_stage_driven_by_variables():
    """convert, train and evaluate serve every corpus and recipe: --vars.lang
    and --vars.config choose the files."""
    for lang, recipes in {"en": ("cpu", "trf", "small_trf"), "bn": ("cpu", "trf"), "hu": ("cpu", "trf")}.items():
        for recipe in recipes:
            config = load_project_config(ROOT, overrides={"vars.lang": lang, "vars.config": recipe})
            commands = {command["name"]: command for command in config["commands"]}
            assert commands["convert"]["script"] == [f"python scripts/prepare_corpus.py {lang} assets"]
            train = commands["train"]["script"][0]
            assert f"configs/{lang}_{recipe}.cfg --output training/{lang}_{recipe} " in train
            assert f"--paths.train corpus/{lang}/train --paths.dev corpus/{lang}/dev.spacy" in train
            assert (ROOT / "configs" / f"{lang}_{recipe}.cfg").exists()
            assert commands["evaluate"]["script"][0].startswith(
                f"spacy-punct evaluate training/{lang}_{recipe}/model-best corpus/{lang}/eval --output-dir benchmarks/metrics/{lang}_{recipe}"
            )
    names = [command["name"] for command in load_project_config(ROOT)["commands"]]
    # one measurement wing: every command writes under benchmarks/metrics/, runs named as in training/
    for command in load_project_config(ROOT)["commands"]:
        for line in command["script"]:
            for out in re.findall(r"(?:--output-dir|-o) (\S+)", line) + re.findall(r" (\S+\.json)\b", line):
                if out.endswith(".json") and "metrics" not in out and not out.startswith("training/"):
                    continue  # an input, or a file of the pipeline itself
                assert out.startswith("benchmarks/metrics/") or out.startswith(("training/", "corpus/", "packages")), (
                    command["name"],
                    out,
                )
            for run in re.findall(r"benchmarks/metrics/([^/\s\"]+)/", line):
                assert "-" not in run, (command["name"], run)
    assert not [name for name in names if name.startswith(("convert-", "evaluate-en", "evaluate-bn", "evaluate-hu"))]


def test_running_the_project_changes_no_tracked_file():
    """`spacy project run demo` rewrote the tracked project.lock."""
    import subprocess

    if not (ROOT / ".git").exists():
        return  # an installed copy, not a checkout
    tracked = subprocess.run(["git", "ls-files", "project.lock"], cwd=ROOT, capture_output=True, text=True).stdout
    assert tracked == ""
    ignored = subprocess.run(["git", "check-ignore", "-q", "project.lock"], cwd=ROOT)
    assert ignored.returncode == 0


def test_more_training_options_come_from_the_environment(monkeypatch):
    """A --vars value cannot hold "--" (spaCy's parser drops it), so extra
    options for spacy-punct train come from SPACY_PUNCT_TRAIN_ARGS."""
    extra = "--training.max_steps 8000 --system.seed 3"
    monkeypatch.setenv("SPACY_PUNCT_TRAIN_ARGS", extra)
    commands = {command["name"]: command for command in load_project_config(ROOT)["commands"]}
    for name in ("train", "train-e5-stage", "train-e5-layers"):
        assert commands[name]["script"][-1].endswith(" " + extra), name
    monkeypatch.delenv("SPACY_PUNCT_TRAIN_ARGS")
    commands = {command["name"]: command for command in load_project_config(ROOT)["commands"]}
    assert "max_steps" not in commands["train"]["script"][-1]
