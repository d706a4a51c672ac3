"""The command line as a whole: help, entry points, registered functions, options every command shares."""

import subprocess
import sys
from pathlib import Path

from spacy_punct.cli import app

from .helpers import model_folder, runner


def test_help():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("convert", "stats", "split", "train", "evaluate", "punctuate", "stream", "strip", "tune"):
        assert command in result.output
    # each command's line in the list is a whole sentence, never cut
    for command in app.registered_commands:
        assert command.short_help and command.short_help.endswith(".")
        assert command.short_help in result.output


def test_console_script_is_installed():
    result = subprocess.run(["spacy-punct", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "punctuate" in result.stdout


REGISTRIES = (
    "architectures",
    "readers",
    "scorers",
    "augmenters",
    "callbacks",
    "misc",
    "span_getters",
    "layers",
    "schedules",
    "batchers",
    "loggers",
)


def _registered_here():
    """(registry, name) of every function spacy_punct registers, once its modules are imported."""
    import importlib
    import pkgutil

    from spacy.util import registry

    import spacy_punct

    for module in pkgutil.walk_packages(spacy_punct.__path__, "spacy_punct."):
        if not module.name.startswith(("spacy_punct.cli", "spacy_punct.__main__", "spacy_punct.models")):
            importlib.import_module(module.name)
    return sorted(
        (kind, name)
        for kind in REGISTRIES
        for name in getattr(registry, kind).get_all()
        if name.startswith("spacy_punct.")
    )


def test_every_registered_function_has_an_entry_point():
    """spaCy finds a function registered by spacy_punct by its name in a
    process that never imported spacy_punct: through its entry point."""
    from importlib.metadata import entry_points

    from spacy.util import registry

    registered = _registered_here()
    assert ("misc", "spacy_punct.fixed_lookahead.v1") in registered
    missing = [
        (kind, name)
        for kind, name in registered
        if name not in {ep.name for ep in entry_points(group=getattr(registry, kind).entry_point_namespace)}
    ]
    assert not missing


def test_entry_points_in_a_fresh_interpreter():
    code = (
        "import spacy\n"
        "from spacy.util import registry\n"
        "registry.misc.get('spacy_punct.entropy_lookahead.v1')\n"
        "nlp = spacy.blank('en')\n"
        "pipe = nlp.add_pipe('punctuator')\n"
        "print(type(pipe).__name__, pipe.labels)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-500:]
    assert "Punctuator ('EMPTY', 'COMMA', 'PERIOD', 'QUESTION')" in result.stdout


def test_python_dash_m_works_like_the_script():
    result = subprocess.run([sys.executable, "-m", "spacy_punct", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "punctuate" in result.stdout and "spacy-punct" in result.stdout


def test_encoding_reads_legacy_text_on_every_reading_command(trained, tmp_path):
    model = model_folder(trained, tmp_path)
    source = tmp_path / "legacy.txt"
    source.write_bytes("so how was the café\n".encode("latin-1"))
    plain = runner.invoke(app, ["punctuate", model, str(source)])
    assert "caf\ufffd" in plain.stdout and "--encoding names it" in plain.stderr, plain.output
    for command in (["punctuate", model], ["stream", model]):
        result = runner.invoke(app, [*command, str(source), "--encoding", "latin-1"])
        assert result.exit_code == 0, result.output
        assert "café" in result.stdout and "\ufffd" not in result.stdout and not result.stderr
    result = runner.invoke(app, ["punctuate", model, str(source), "--encoding", "klingon"])
    assert result.exit_code == 1 and "Unknown encoding 'klingon'" in result.output
    words = tmp_path / "words.txt"
    words.write_bytes("déjà\tCOMMA\nvu\tPERIOD\n".encode("latin-1"))
    out = tmp_path / "out.spacy"
    result = runner.invoke(app, ["convert", "tokens", str(words), str(out), "--encoding", "latin-1"])
    assert result.exit_code == 0, result.output
    assert "undecodable" not in result.output
    import spacy
    from spacy.tokens import DocBin

    assert [d.text for d in DocBin().from_disk(out).get_docs(spacy.blank("en").vocab)] == ["déjà, vu."]


def test_the_package_states_its_licence_and_types():
    from importlib.metadata import metadata

    import spacy_punct

    meta = metadata("spacy-punct")
    assert meta["License"].startswith("MIT (code)") and meta["Author"]
    assert (Path(spacy_punct.__file__).parent / "py.typed").is_file()
    assert "MIT License" in (Path(spacy_punct.__file__).parent.parent / "LICENSE").read_text(encoding="utf8")


def test_progress_never_shares_the_outputs_terminal(monkeypatch, tmp_path):
    from spacy_punct.cli._util import show_progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    assert not show_progress(None, None)  # the output goes to the terminal the bar is on
    assert show_progress(None, tmp_path / "out.txt")
    assert show_progress(True, None)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not show_progress(None, tmp_path / "out.txt")


def test_progress_in_a_log_comes_as_whole_lines(monkeypatch, capsys):
    from spacy_punct.cli import _util

    monkeypatch.setattr(_util, "LOG_PROGRESS_SECONDS", 0.0)
    bar = _util.progress_bar(True, unit=" docs", miniters=1)
    for _ in range(3):
        bar.update(1)
    bar.close()
    lines = capsys.readouterr().err.splitlines()
    assert lines and "\r" not in "".join(lines)
    assert lines[-1].startswith("3 docs")
    quiet = _util.progress_bar(False, unit=" docs")
    quiet.update(5)
    quiet.close()
    assert capsys.readouterr().err == ""


def test_a_missing_or_folder_input_is_refused_before_loading(tmp_path):
    for command in ("punctuate", "stream"):
        result = runner.invoke(app, [command, "no-such-model", str(tmp_path / "missing.txt")])
        assert result.exit_code == 1 and "does not exist" in result.output
        result = runner.invoke(app, [command, "no-such-model", str(tmp_path)])
        assert result.exit_code == 1 and "is a folder" in result.output


def test_help_never_cuts_option_names_on_a_narrow_terminal():
    for command in ("punctuate", "stream", "evaluate", "convert"):
        result = runner.invoke(app, [command, "--help"], terminal_width=80, env={"COLUMNS": "80"})
        assert result.exit_code == 0
        assert "…" not in result.output
    assert "--replace-existing" in runner.invoke(app, ["punctuate", "--help"], env={"COLUMNS": "80"}).output


def test_each_command_is_a_page():
    # the decisions live in the library (spacy_punct.jobs, inference.options); a command gathers options and prints
    folder = Path(__file__).parents[2] / "spacy_punct" / "cli"
    lengths = {path.name: len(path.read_text(encoding="utf8").splitlines()) for path in folder.glob("*.py")}
    assert max(lengths.values()) <= 170, lengths
