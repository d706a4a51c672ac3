"""The spaCy projects: the recipe at the root, how the bundled pipelines
are made (a project per bundled pipeline: projects/en_punct_trf,
projects/en_punct_sm, projects/e5 for Hungarian and Bangla) and the
benchmarks (projects/benchmarks); each
valid, and every file it needs from the repo is there."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from weasel.util import load_project_config

ROOT = Path(__file__).parents[2]
PROJECTS = {
    ROOT: {"all"},
    ROOT / "projects" / "en_punct_trf": {"make-en-trf"},
    ROOT / "projects" / "en_teacher": {"teach-en-trf"},
    ROOT / "projects" / "en_punct_sm": {"make-en-sm"},
    ROOT / "projects" / "e5": {"make-e5"},
    ROOT / "projects" / "benchmarks": {"benchmark", "speech"},
}
# a file of the repository, as the root names it or a sub-project under ${vars.root}
REPO_FILE = re.compile(r"^(?:\.\./\.\./)?(configs|demo|scripts|projects)/|^\w+\.py$")


@pytest.mark.parametrize("project", list(PROJECTS), ids=lambda path: path.name)
def test_project_config_is_valid_and_complete(project):
    config = load_project_config(project)
    commands = {command["name"]: command for command in config["commands"]}
    assert set(config.get("workflows", {})) == PROJECTS[project]
    for steps in config["workflows"].values():
        assert all(step in commands for step in steps)
    for command in commands.values():
        for dep in command.get("deps", []):
            if REPO_FILE.match(dep):
                assert (project / dep).exists(), (project.name, command["name"], dep)


@pytest.mark.parametrize("project", list(PROJECTS), ids=lambda path: path.name)
def test_every_dep_and_output_is_one_path_whatever_the_overrides(project):
    """confection joins a list's element that ends in a variable with a next
    one that starts with one ("${a}", "${b}" reads as "a, b"), and `spacy
    project run` then finds no such file."""
    variables = load_project_config(project).get("vars", {})
    overrides = {f"vars.{name}": value for name, value in variables.items() if name in ("lang", "stage")}
    for config in (load_project_config(project), load_project_config(project, overrides=overrides)):
        for command in config["commands"]:
            for key in ("deps", "outputs", "outputs_no_cache"):
                for path in command.get(key, []):
                    assert ", " not in path, (project.name, command["name"], key, path)


def test_the_root_reads_as_a_recipe():
    """The root keeps the generic stages and about ten variables; how the
    bundled pipelines were made and the benchmarks live in projects/."""
    config = load_project_config(ROOT)
    assert (ROOT / "project.yml").stat().st_size <= 20_000
    assert [command["name"] for command in config["commands"]] == [
        "convert",
        "train",
        "evaluate",
        "evaluate-case",
        "package",
        "demo",
    ]
    assert len(config["vars"]) <= 12
    names = [command["name"] for project in PROJECTS for command in load_project_config(project)["commands"]]
    assert len(names) == len(set(names)), "a command in two projects"
    # how each bundled pipeline is made, a project apiece
    for name in ("en_punct_trf", "en_punct_sm", "e5", "en_teacher"):
        assert (ROOT / "projects" / name / "project.yml").stat().st_size <= 15_000, name


@pytest.mark.parametrize(
    "project, command",
    [
        (ROOT, "demo"),
        (ROOT / "projects" / "en_punct_trf", "package-en-trf"),
        (ROOT / "projects" / "en_teacher", "encoder-mpnet"),
        (ROOT / "projects" / "benchmarks", "stream-lines"),
    ],
    ids=["root", "en_punct_trf", "en_teacher", "benchmarks"],
)
def test_a_command_of_each_project_resolves_its_paths(project, command):
    """A dry run checks every dependency where the command runs: a path of a
    sub-project that does not start from ${vars.root} is missing."""
    result = subprocess.run(
        [sys.executable, "-m", "spacy", "project", "run", command, str(project), "--dry"],
        capture_output=True,
        text=True,
        cwd=project,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Running command" in result.stdout


def test_assets_have_checksums_or_say_why():
    for asset in load_project_config(ROOT)["assets"]:
        assert asset.get("extra") or asset.get("checksum"), asset["dest"]
        # an asset without a checksum says why
        assert asset.get("checksum") or "no checksum" in asset["description"], asset["dest"]


@pytest.mark.parametrize("project", list(PROJECTS), ids=lambda path: path.name)
def test_every_command_declares_the_scripts_it_runs_and_what_it_writes(project):
    """`demo` ran scripts/prepare_corpus.py without it in its deps, and
    `evaluate-case` declared no outputs."""
    for command in load_project_config(project)["commands"]:
        scripts = {script for line in command["script"] for script in re.findall(r"python (\S+\.py)", line)}
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
                f"spacy-punct evaluate training/{lang}_{recipe}/model-best corpus/{lang}/eval --output-dir projects/benchmarks/metrics/{lang}_{recipe}"
            )
    names = [command["name"] for project in PROJECTS for command in load_project_config(project)["commands"]]
    assert not [name for name in names if name.startswith(("convert-", "evaluate-en", "evaluate-bn", "evaluate-hu"))]


@pytest.mark.parametrize("project", list(PROJECTS), ids=lambda path: path.name)
def test_one_measurement_wing(project):
    """Every command writes its measurements under projects/benchmarks/metrics/,
    runs named as in training/."""
    wing = str((ROOT / "projects" / "benchmarks" / "metrics").resolve())
    for command in load_project_config(project)["commands"]:
        for line in command["script"]:
            for out in re.findall(r"(?:--output-dir|-o) (\S+)", line) + re.findall(r" (\S+\.json)\b", line):
                if out.endswith(".json") and "metrics" not in out and "training/" not in out:
                    continue  # an input, or a file of the pipeline itself
                written = str((project / out).resolve())
                assert written.startswith(wing) or re.match(r"^(\.\./\.\./)?(training|corpus|packages)/", out), (
                    command["name"],
                    out,
                )
            for run in re.findall(r"metrics/([^/\s\"]+)/", line):
                assert "-" not in run, (command["name"], run)


def test_running_the_project_changes_no_tracked_file():
    """`spacy project run demo` rewrote the tracked project.lock."""

    if not (ROOT / ".git").exists():
        return  # an installed copy, not a checkout
    for project in PROJECTS:
        lock = str((project / "project.lock").relative_to(ROOT))
        tracked = subprocess.run(["git", "ls-files", lock], cwd=ROOT, capture_output=True, text=True).stdout
        assert tracked == ""
        assert subprocess.run(["git", "check-ignore", "-q", lock], cwd=ROOT).returncode == 0


def test_more_training_options_come_from_the_environment(monkeypatch):
    """A --vars value cannot hold "--" (spaCy's parser drops it), so extra
    options for spacy-punct train come from SPACY_PUNCT_TRAIN_ARGS."""
    extra = "--training.max_steps 8000 --system.seed 3"
    monkeypatch.setenv("SPACY_PUNCT_TRAIN_ARGS", extra)
    commands = {
        command["name"]: command for project in PROJECTS for command in load_project_config(project)["commands"]
    }
    for name in ("train", "train-e5-stage", "train-e5-layers"):
        assert commands[name]["script"][-1].endswith(" " + extra), name
    monkeypatch.delenv("SPACY_PUNCT_TRAIN_ARGS")
    commands = {command["name"]: command for command in load_project_config(ROOT)["commands"]}
    assert "max_steps" not in commands["train"]["script"][-1]
