import json
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_punct.cli import app

from .conftest import TEXTS

runner = CliRunner()


def test_help():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("convert", "stats", "split", "train", "evaluate", "punctuate", "stream", "strip", "tune"):
        assert command in result.output
    # each command's line in the list is a whole sentence, never cut
    for command in app.registered_commands:
        assert command.short_help and command.short_help.endswith(".")
        assert command.short_help in result.output


def test_punctuate_file_and_stdin(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    source = tmp_path / "in.txt"
    source.write_bytes(b"so how was the trip\r\n\r\nwhere did you stay\rcaf\xe9 ok\n")
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = out.read_bytes().decode("utf8")
    # lines end as in the input: CRLF, a lone CR, LF
    assert written.startswith("So, how was the trip?\r\n\r\nWhere did you stay?\rCaf\ufffd")
    assert written.endswith("\n") and written.count("\n") == 3 and written.count("\r") == 3
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "--whole"])
    assert result.exit_code == 0
    assert result.stdout_bytes.count(b"\r\n") == 2 and result.stdout_bytes.count(b"\r") == 3
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model")], input="so how was the trip\n")
    assert result.exit_code == 0
    assert result.stdout == "So, how was the trip?\n"


def test_punctuate_needs_a_punctuator(tmp_path):
    spacy.blank("en").to_disk(tmp_path / "blank")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "blank")], input="hello\n")
    assert result.exit_code == 1
    assert "no punctuator" in result.output


def test_strip(corpus_path, tmp_path):
    out = tmp_path / "gold.spacy"
    result = runner.invoke(app, ["strip", str(corpus_path), str(out)])
    assert result.exit_code == 0, result.output
    assert "Wrote 6 docs" in result.output
    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("en").vocab))
    assert docs[0].text.startswith("so how was the trip it was long")
    assert [t._.punct for t in docs[0]][:5] == [",", "", "", "", "?"]
    bad = tmp_path / "bad.spacy"
    bad.write_text("not a docbin")
    result = runner.invoke(app, ["strip", str(bad), str(out)])
    assert result.exit_code == 1 and "is not a DocBin" in result.output


def test_console_script_is_installed():
    result = subprocess.run(["spacy-punct", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "punctuate" in result.stdout


REGISTRIES = ("architectures", "readers", "scorers", "augmenters", "callbacks", "misc", "span_getters", "layers",
              "schedules", "batchers", "loggers")


def _registered_here():
    """(registry, name) of every function spacy_punct registers, once its modules are imported."""
    import importlib
    import pkgutil

    import spacy_punct
    from spacy.util import registry

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


def test_convert_and_stats(tmp_path):
    source = tmp_path / "words.txt"
    source.write_bytes(b"so\tCOMMA\r\nhow\tO\rwas\tO\nit\tQUESTION\n\tCOMMA\nbad\xff\tPERIOD\n")
    out = tmp_path / "out.spacy"
    result = runner.invoke(app, ["convert", "tokens", str(source), str(out)])
    assert result.exit_code == 0, result.output
    for line in ("documents: 1", "words: 5", "COMMA: 1", "QUESTION: 1", "PERIOD: 1",
                 "undecodable characters replaced by U+FFFD: 1", "skipped lines with an empty word: 1"):
        assert line in result.output
    result = runner.invoke(app, ["stats", str(out)])
    assert result.exit_code == 0
    assert result.output.split("\n")[:3] == ["documents: 1", "words: 5", "COMMA: 1"]


def test_convert_errors(tmp_path):
    source = tmp_path / "words.txt"
    source.write_text("not a token file at all\n")
    result = runner.invoke(app, ["convert", "tokens", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 1 and "expected 'word<TAB>LABEL'" in result.output
    result = runner.invoke(app, ["convert", "pdf", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 1 and "unknown format" in result.output
    result = runner.invoke(app, ["convert", "punctuator2", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 1 and "not punctuator2's format" in result.output
    assert not (tmp_path / "o.spacy").exists()
    source.write_text("so ,COMMA how was it ?QUESTIONMARK\n")
    result = runner.invoke(app, ["convert", "punctuator2", str(source), str(tmp_path / "o.spacy")])
    assert result.exit_code == 0 and "QUESTION: 1" in result.output, result.output


def test_split(corpus_path, tmp_path):
    result = runner.invoke(app, ["split", str(corpus_path), str(tmp_path / "a.spacy"), str(tmp_path / "b.spacy"), "--dev-fraction", "0.34"])
    assert result.exit_code == 0, result.output
    assert "Wrote 4 docs" in result.output and "Wrote 2 docs" in result.output


def test_evaluate(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "model")
    (tmp_path / "tests").mkdir()
    for name in ("a", "b"):
        (tmp_path / "tests" / f"{name}.spacy").write_bytes(corpus_path.read_bytes())
    result = runner.invoke(app, ["evaluate", str(tmp_path / "model"), str(tmp_path / "tests"), "-o", str(tmp_path / "metrics")])
    assert result.exit_code == 0, result.output
    assert "| **overall (micro)** | 100.0 | 100.0 | 100.0 | 20 |" in result.output
    assert "| QUESTION | 100.0 | 100.0 | 100.0 | 4 |" in result.output
    import json

    scores = json.loads((tmp_path / "metrics" / "b.json").read_text())
    assert scores["punct_f"] == 1.0 and scores["words"] == 70 and scores["words_per_second"] > 0
    assert (tmp_path / "metrics" / "a.md").read_text().startswith("| label |")
    # the run's own file: what was scored, for the report
    run = json.loads((tmp_path / "metrics" / "run.json").read_text())
    assert run["pipeline"] == str(tmp_path / "model") and run["lang"] == "en" and "targets" not in run


def test_evaluate_writes_a_bundled_pipelines_targets_and_a_trained_runs_recipe(trained, corpus_path, tmp_path):
    import json

    result = runner.invoke(app, ["evaluate", "en_punct_sm", str(corpus_path), "-o", str(tmp_path / "sm")])
    assert result.exit_code == 0, result.output
    run = json.loads((tmp_path / "sm" / "run.json").read_text())
    assert run["pipeline"] == "en_punct_sm" and run["targets"]["test2011"] == 64.0
    assert run["description"].startswith("English punctuation")
    (tmp_path / "training").mkdir()
    trained.to_disk(tmp_path / "training" / "model-best")
    (tmp_path / "training" / "training.json").write_text(json.dumps({"recipe": "configs/en_cpu.cfg", "minutes": 1.0}))
    result = runner.invoke(app, ["evaluate", str(tmp_path / "training" / "model-best"), str(corpus_path), "-o", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "run" / "run.json").read_text())["recipe"] == "configs/en_cpu.cfg"


def test_evaluate_with_asr_noise(trained, corpus_path, tmp_path):
    import json

    trained.to_disk(tmp_path / "model")
    args = ["evaluate", str(tmp_path / "model"), str(corpus_path), "-o", str(tmp_path / "metrics"), "--asr-noise", "0.6"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    noisy = json.loads((tmp_path / "metrics" / "tiny.asr-noise-0.6.json").read_text())
    # words are deleted and inserted, gold marks move with them; the score drops
    assert noisy["words"] != 70 and noisy["punct_f"] < 1.0
    assert runner.invoke(app, args).exit_code == 0
    again = json.loads((tmp_path / "metrics" / "tiny.asr-noise-0.6.json").read_text())
    assert again["punct_confusion"] == noisy["punct_confusion"] and again["words"] == noisy["words"]  # seeded
    assert runner.invoke(app, args[:-1] + ["2"]).exit_code == 1
    upper = runner.invoke(app, args + ["--input-case", "upper"])
    assert upper.exit_code == 0 and "with asr-noise-0.6.upper" in upper.output, upper.output
    assert (tmp_path / "metrics" / "tiny.asr-noise-0.6.upper.json").exists()
    words = runner.invoke(app, args + ["--asr-noise-words"])
    assert words.exit_code == 0 and "with asr-noise-0.6-words" in words.output, words.output
    with_words = json.loads((tmp_path / "metrics" / "tiny.asr-noise-0.6-words.json").read_text())
    assert with_words["punct_confusion"] != noisy["punct_confusion"]
    assert runner.invoke(app, args + ["--input-case", "shouting"]).exit_code == 1


def test_punctuate_jsonl(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), "--format", "jsonl"], input="so how was the trip\n\n")
    assert result.exit_code == 0, result.output
    import json

    first, empty = [json.loads(line) for line in result.stdout.splitlines()]
    assert first["punctuated"] == "So, how was the trip?"
    assert first["sentences"] == ["So, how was the trip?"]
    assert first["tokens"][1] == {"text": ",", "start": 2, "end": 3, "source": None, "source_start": None, "punct": ""}
    assert first["tokens"][2]["source_start"] == 3
    assert empty == {"text": "", "punctuated": "", "sentences": [], "tokens": []}


def test_train_with_a_time_limit(corpus_path, tmp_path):
    from pathlib import Path

    config = Path(__file__).parent.parent / "configs" / "en_cpu.cfg"
    args = [
        "train", str(config), "--output", str(tmp_path / "out"), "--max-minutes", "0.001",
        "--paths.train", str(corpus_path), "--paths.dev", str(corpus_path), "--training.eval_frequency", "1",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "time limit reached" in result.output
    assert (tmp_path / "out" / "model-last" / "meta.json").exists()
    assert (tmp_path / "out" / "model-best" / "meta.json").exists()
    summary = json.loads((tmp_path / "out" / "training.json").read_text())
    assert summary["ended_by"] == "time limit reached" and summary["minutes"] > 0
    assert summary["recipe"] == config.as_posix()
    final = summary["final_evaluation"]
    assert final["kept"] in ("model-best", "model-last") and 0 <= final["model-last"] <= 1
    assert "on the dev data against model-best's" in result.output
    log = [json.loads(line) for line in (tmp_path / "out" / "log.jsonl").read_text().splitlines()]
    assert log and {"step", "score", "scores"} <= set(log[0]) and "punct_f" in log[0]["scores"]
    # a second run into the same folder replaces the log instead of leaving it stale
    (tmp_path / "out" / "log.jsonl").write_text('{"stale": true}\n')
    assert runner.invoke(app, args).exit_code == 0
    assert "stale" not in (tmp_path / "out" / "log.jsonl").read_text()


def test_windows_need_a_transformer(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), "--window", "64", "--stride", "16"], input="so how\n")
    assert result.exit_code == 1
    assert "no transformer" in result.output


def test_python_dash_m_works_like_the_script():
    result = subprocess.run([sys.executable, "-m", "spacy_punct", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "punctuate" in result.stdout and "spacy-punct" in result.stdout


def _model(trained, tmp_path):
    path = tmp_path / "model"
    if not path.exists():
        trained.to_disk(path)
    return str(path)


def test_output_onto_the_input_is_refused(trained, tmp_path):
    source = tmp_path / "same.txt"
    source.write_text("so how was the trip\n")
    result = runner.invoke(app, ["punctuate", _model(trained, tmp_path), str(source), "-o", str(source)])
    assert result.exit_code == 1 and "is the input" in result.output
    assert source.read_text() == "so how was the trip\n"


def test_batch_size_must_be_positive(trained, tmp_path):
    for size in ("0", "-1"):
        result = runner.invoke(app, ["punctuate", _model(trained, tmp_path), "--batch-size", size], input="so how\n")
        assert result.exit_code == 2 and "Invalid value" in result.output


def test_invalid_utf8_on_stdin_is_replaced_and_counted(trained, tmp_path):
    result = runner.invoke(app, ["punctuate", _model(trained, tmp_path)], input=b"so how was the trip\n\xff bad\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.split("\n")[0] == "So, how was the trip?"
    assert "\ufffd" in result.stdout and "1 undecodable characters replaced" in result.stderr


def test_encoding_reads_legacy_text_on_every_reading_command(trained, tmp_path):
    model = _model(trained, tmp_path)
    source = tmp_path / "legacy.txt"
    source.write_bytes("so how was the café\n".encode("latin-1"))
    plain = runner.invoke(app, ["punctuate", model, str(source)])
    assert "caf\ufffd" in plain.stdout and "--encoding names it" in plain.stderr
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
    from spacy.tokens import DocBin
    import spacy

    assert [d.text for d in DocBin().from_disk(out).get_docs(spacy.blank("en").vocab)] == ["déjà, vu."]


def test_a_line_over_the_length_limit_is_punctuated(trained, tmp_path, monkeypatch):
    from spacy_punct import texts as text_module

    monkeypatch.setattr(text_module, "LONG_TEXT_CHARS", 2000)
    monkeypatch.setattr(text_module, "PIECE_TOKENS", 150)
    line = " ".join(["so how was the trip it was long but we saw the coast"] * 60)
    source = tmp_path / "long.txt"
    source.write_text(f"where did you stay\n{line}\n")
    out = tmp_path / "long.out"
    for extra in ([], ["--whole"], ["--format", "jsonl"]):
        result = runner.invoke(app, ["punctuate", _model(trained, tmp_path), str(source), "-o", str(out), *extra])
        assert result.exit_code == 0, result.output
        written = out.read_text()
        if extra == ["--format", "jsonl"]:
            records = [json.loads(r) for r in written.splitlines()]
            assert records[1]["text"] == line and records[1]["punctuated"].count("?") >= 60
        else:
            assert written.count("So, how was the trip? It was long, but we saw the coast.") >= 59
            assert written.lower().replace(",", "").replace(".", "").replace("?", "").split() == (
                f"where did you stay {line}".split()
            )


def test_output_and_tune_folders_are_created(trained, tmp_path, corpus_path):
    source = tmp_path / "in.txt"
    source.write_text("so how was the trip\n")
    out = tmp_path / "a" / "b" / "out.txt"
    result = runner.invoke(app, ["punctuate", _model(trained, tmp_path), str(source), "-o", str(out)])
    assert result.exit_code == 0 and out.read_text() == "So, how was the trip?\n"
    tuned = tmp_path / "x" / "y" / "tuned"
    result = runner.invoke(app, ["tune", _model(trained, tmp_path), str(corpus_path), str(tuned)])
    assert result.exit_code == 0, result.output
    assert (tuned / "config.cfg").exists()


def test_keep_existing_threshold_and_margin_options(trained, tmp_path):
    model = _model(trained, tmp_path)
    text = "so, how was the trip? it was long but we saw the coast\n"
    kept = runner.invoke(app, ["punctuate", model, "--keep-existing"], input=text)
    assert kept.exit_code == 0 and kept.stdout == TEXTS[0] + "\n"
    fewer = runner.invoke(app, ["punctuate", model, "--threshold", "COMMA=1.0", "--margin", "QUESTION=0.5"], input=text)
    assert fewer.exit_code == 0 and "," not in fewer.stdout.replace("so,", "")
    for bad in (["--threshold", "TILDE=0.3"], ["--threshold", "COMMA"], ["--margin", "COMMA=x"],
                ["--threshold", "QUESTION=1.5"], ["--margin", "COMMA=-1"]):
        result = runner.invoke(app, ["punctuate", model, *bad], input=text)
        assert result.exit_code == 1 and "Error" in result.output, bad


def test_case_only_keeps_the_marks(trained, tmp_path):
    model = _model(trained, tmp_path)
    text = "so how was the trip? it was long, but we saw the coast\n"
    result = runner.invoke(app, ["punctuate", model, "--case-only"], input=text)
    assert result.exit_code == 0 and result.stdout == "So how was the trip? It was long, but we saw the coast\n"
    result = runner.invoke(app, ["stream", model, "--case-only"], input="so how was it? fine\n")
    assert result.exit_code == 0 and result.stdout.split() == ["So", "how", "was", "it?", "Fine"], result.stdout


def test_ray_engine_refuses_settings_it_would_ignore(trained, tmp_path):
    model = _model(trained, tmp_path)
    (tmp_path / "in.jsonl").write_text('{"text": "so how was it"}\n')
    for option in (["--threshold", "COMMA=0.3"], ["--case-only"], ["--keep-existing"], ["--window", "64"]):
        args = ["punctuate", model, str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out"), "--engine", "ray", *option]
        result = runner.invoke(app, args)
        assert result.exit_code == 1 and "saved settings" in result.output and option[0] in result.output, result.output
    args = ["punctuate", model, str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out"), "--engine", "ray"]
    result = runner.invoke(app, [*args, "--encoding", "latin-1"])
    assert result.exit_code == 1 and "--encoding would be ignored" in result.output
    assert not (tmp_path / "out").exists()


def test_gzip_and_utf16_are_read_binary_is_refused(trained, tmp_path):
    import gzip

    model = _model(trained, tmp_path)
    (tmp_path / "in.gz").write_bytes(gzip.compress(b"so how was the trip\n"))
    (tmp_path / "in16.txt").write_bytes("so how was the trip\n".encode("utf-16"))
    for name in ("in.gz", "in16.txt"):
        result = runner.invoke(app, ["punctuate", model, str(tmp_path / name)])
        assert result.exit_code == 0 and result.stdout == "So, how was the trip?\n", name
    (tmp_path / "bin.dat").write_bytes(bytes(range(256)) * 4)
    result = runner.invoke(app, ["punctuate", model, str(tmp_path / "bin.dat")])
    assert result.exit_code == 1 and "binary" in result.output and result.stdout == ""


def test_jsonl_records_in_and_a_bad_record_keeps_the_output(trained, tmp_path):
    model = _model(trained, tmp_path)
    records = [
        {"id": 1, "text": "so how was the trip"},
        {"id": 2, "words": [{"word": "where", "start": 0.0, "end": 0.4}, {"word": "did", "start": 0.4, "end": 0.5},
                            {"word": "you", "start": 0.5, "end": 0.6}, {"word": "stay", "start": 0.6, "end": 1.0}]},
    ]
    lines = "\n".join(json.dumps(r) for r in records) + "\n"
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["punctuate", model, "--input-format", "jsonl", "--format", "jsonl", "-o", str(out)], input=lines)
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["punctuated"]) for r in written] == [(1, "So, how was the trip?"), (2, "Where did you stay?")]
    assert written[1]["tokens"][3]["end_time"] == 1.0
    bad = lines + '{"id": 3, "words": [{"word": "so", "start": 2, "end": 1}]}\n'
    result = runner.invoke(app, ["punctuate", model, "--input-format", "jsonl", "-o", str(out)], input=bad)
    assert result.exit_code == 1 and "record 3" in result.output and "kept" in result.output
    assert out.read_text().splitlines() == ["So, how was the trip?", "Where did you stay?"]


def test_progress_counts_words(trained, tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("so how was the trip\nwhere did you stay\n")
    result = runner.invoke(app, ["punctuate", _model(trained, tmp_path), str(source), "--progress"])
    assert result.exit_code == 0 and "9 words" in result.stderr


def _timed_lines(text, offset=0.0):
    return [json.dumps({"word": w, "start": offset + i * 0.5, "end": offset + i * 0.5 + 0.4, "conf": 1.0})
            for i, w in enumerate(text.split())]


def test_stream_writes_sentences_words_and_cues(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    model = str(tmp_path / "model")
    words = "so how was the trip\nit was long but we saw the coast\n"
    result = runner.invoke(app, ["stream", model, "--lookahead", "2"], input=words)
    assert result.exit_code == 0, result.output
    assert result.stdout == "So, how was the trip?\nIt was long, but we saw the coast.\n"
    timed = "\n".join(_timed_lines("so how was the trip it was long but we saw the coast")) + "\n"
    result = runner.invoke(app, ["stream", model, "--format", "jsonl", "--entropy", "0.3"], input=timed)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["word"] for r in records] == "so how was the trip it was long but we saw the coast".split()
    assert records[4]["text"] == "trip?" and records[4]["start"] == 2.0 and records[4]["end"] == 2.4
    result = runner.invoke(app, ["stream", model, "--format", "srt"], input=timed)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1\n00:00:00,000 --> 00:00:02,400\nSo, how was the trip?\n\n2\n00:00:02,500 --> ")
    result = runner.invoke(app, ["stream", model, "--format", "vtt"], input=words)
    assert result.exit_code == 1 and "captions need word timings" in result.output


def test_stream_stops_at_a_bad_line_and_keeps_what_came_before(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    lines = _timed_lines("so how was the trip") + ['{"word": "it", "start": 1.0, "end": 0.5}'] + _timed_lines("it was", 9)
    result = runner.invoke(app, ["stream", str(tmp_path / "model")], input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert result.stdout == "So, how was the trip?\n"
    assert "line 6: word 6 ('it'): needs 0 <= start <= end" in result.output
    result = runner.invoke(app, ["stream", str(tmp_path / "model")], input='so how was the trip it was\n{"word": \n')
    assert result.exit_code == 1 and "standard input, line 2: not JSON" in result.output
    assert "line 2: line 2" not in result.output
    # the words before the error are written as they stand: no mark is invented to close them
    assert result.stdout == "So, how was the trip?\nIt was\n"
    result = runner.invoke(app, ["stream", str(tmp_path / "model"), "--format", "srt"], input="so how was it\n")
    assert result.exit_code == 1 and "line 1: the word 'so' has no timings" in result.output


def test_punctuate_writes_captions_from_timed_records(trained, tmp_path):
    trained.to_disk(tmp_path / "model")
    records = [
        {"id": 1, "words": [json.loads(line) for line in _timed_lines("so how was the trip it was long")]},
        {"id": 2, "segments": [{"words": [json.loads(line) for line in _timed_lines("where did you stay", 20)]}]},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf8")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "--input-format", "jsonl", "--format", "vtt"])
    assert result.exit_code == 0, result.output
    blocks = result.stdout.strip().split("\n\n")
    assert blocks[0] == "WEBVTT"
    assert blocks[1] == "1\n00:00:00.000 --> 00:00:02.400\nSo, how was the trip?"
    assert blocks[-1] == "3\n00:00:20.000 --> 00:00:21.900\nWhere did you stay?"
    # a .jsonl file is read as records without --input-format
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), str(source), "--format", "srt"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1\n00:00:00,000 --> 00:00:02,400\nSo, how was the trip?")
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), "--format", "srt"], input="so how\n")
    assert result.exit_code == 1 and "needs word timings" in result.output


def test_benchmark(trained, corpus_path, tmp_path):
    trained.to_disk(tmp_path / "model")
    model = str(tmp_path / "model")
    out = tmp_path / "speed" / "speed.json"
    args = ["benchmark", str(corpus_path), model, "en", "--words-per-line", "10", "--rounds", "2", "--threads", "1"]
    result = runner.invoke(app, args + ["-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "7 lines, 70 words; threads 1, batch 64, best of 2" in result.output
    assert f"| {model} | " in result.output and "| en | " in result.output
    saved = json.loads(out.read_text())
    assert saved["words"] == 70 and list(saved["words_per_second"]) == [model, "en"]
    assert all(rate > 0 for rate in saved["words_per_second"].values())
    twice = runner.invoke(app, ["benchmark", str(corpus_path), model, model])
    assert twice.exit_code == 1 and "named twice" in twice.output
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    nothing = runner.invoke(app, ["benchmark", str(empty), model])
    assert nothing.exit_code == 1 and "no words to time" in nothing.output
    blank = tmp_path / "blank"
    spacy.blank("en").to_disk(blank)
    assert "no punctuator" in runner.invoke(app, ["benchmark", str(corpus_path), str(blank)]).output


def test_the_package_states_its_licence_and_types():
    from importlib.metadata import metadata

    import spacy_punct

    meta = metadata("spacy-punct")
    assert meta["License"].startswith("MIT (code)") and meta["Author"]
    assert (Path(spacy_punct.__file__).parent / "py.typed").is_file()
    assert "MIT License" in (Path(spacy_punct.__file__).parent.parent / "LICENSE").read_text(encoding="utf8")


def test_a_dash_reads_standard_input(trained, tmp_path):
    model = _model(trained, tmp_path)
    result = runner.invoke(app, ["punctuate", model, "-"], input="so how was the trip\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == "So, how was the trip?\n"
    result = runner.invoke(app, ["stream", model, "-"], input="so how was the trip\n")
    assert result.exit_code == 0, result.output
    assert "So, how was the trip?" in result.stdout


@pytest.mark.parametrize("target", ["file.txt/out.txt", "/proc/version"])
def test_an_unwritable_output_is_one_line_of_error(trained, tmp_path, target):
    """A file used as a folder, or a file that takes no writing, printed a
    Python traceback."""
    (tmp_path / "file.txt").write_text("mine\n")
    output = target if target.startswith("/") else str(tmp_path / target)
    result = runner.invoke(app, ["punctuate", _model(trained, tmp_path), "-o", output], input="so how was the trip\n")
    assert result.exit_code == 1
    assert f"cannot write {output}" in result.output and "Traceback" not in result.output
    assert (tmp_path / "file.txt").read_text() == "mine\n"


def test_progress_never_shares_the_outputs_terminal(monkeypatch, tmp_path):
    from spacy_punct.cli._util import show_progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    assert not show_progress(None, None)  # the output goes to the terminal the bar is on
    assert show_progress(None, tmp_path / "out.txt")
    assert show_progress(True, None)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not show_progress(None, tmp_path / "out.txt")


def test_a_missing_or_folder_input_is_refused_before_loading(tmp_path):
    for command in ("punctuate", "stream"):
        result = runner.invoke(app, [command, "no-such-model", str(tmp_path / "missing.txt")])
        assert result.exit_code == 1 and "does not exist" in result.output
        result = runner.invoke(app, [command, "no-such-model", str(tmp_path)])
        assert result.exit_code == 1 and "is a folder" in result.output


def test_converting_text_without_marks_warns(tmp_path):
    source = tmp_path / "bare.txt"
    source.write_text("so how was the trip it was long\nwhere did you stay\n")
    result = runner.invoke(app, ["convert", "text", str(source), str(tmp_path / "bare.spacy")])
    assert result.exit_code == 0, result.output
    assert "no word is followed by a mark" in result.output
    source.write_text("So, how was the trip? It was long.\n")
    result = runner.invoke(app, ["convert", "text", str(source), str(tmp_path / "marked.spacy")])
    assert result.exit_code == 0 and "warning" not in result.output


def test_a_gzip_input_cut_short_writes_what_was_read_and_says_so(trained, tmp_path):
    """It printed only `Aborted.`."""
    import gzip

    data = gzip.compress(("so how was the trip it was long but we saw the coast\n" * 3000).encode("utf8"), mtime=0)
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(data[: len(data) // 2])
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["punctuate", _model(trained, tmp_path), str(path), "-o", str(out)])
    assert result.exit_code == 1
    assert f"{path} breaks off after the lines read so far" in result.output and "Aborted" not in result.output
    assert len(out.read_text().splitlines()) > 100


def test_train_names_a_missing_corpus_and_writes_nothing(tmp_path):
    """Without --paths.train it printed a 114-line traceback and created the output folder."""
    config = Path(__file__).parent.parent / "configs" / "en_cpu.cfg"
    out = tmp_path / "out"
    result = runner.invoke(app, ["train", str(config), "--output", str(out)])
    assert result.exit_code == 1 and "--paths.train is not set" in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["train", str(config), "--output", str(out), "--paths.train", str(tmp_path / "nope"),
                                 "--paths.dev", str(tmp_path)])
    assert result.exit_code == 1 and f"--paths.train {tmp_path / 'nope'} does not exist" in result.output
    assert not out.exists()


def test_help_never_cuts_option_names_on_a_narrow_terminal():
    for command in ("punctuate", "stream", "evaluate", "convert"):
        result = runner.invoke(app, [command, "--help"], terminal_width=80, env={"COLUMNS": "80"})
        assert result.exit_code == 0
        assert "…" not in result.output
    assert "--replace-existing" in runner.invoke(app, ["punctuate", "--help"], env={"COLUMNS": "80"}).output
