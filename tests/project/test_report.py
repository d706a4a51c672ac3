"""projects/benchmarks/report.py finds runs from their folders, with no table of runs in its code."""

import json

from . import ROOT, benchmark_script


def _report_module():
    return benchmark_script("report")


def test_a_new_run_folder_is_reported_with_its_own_description_and_target(tmp_path):
    report = _report_module()
    scores = json.loads((ROOT / "projects" / "benchmarks" / "metrics" / "en_punct_sm" / "test2011.json").read_text())
    run = tmp_path / "de_cpu"
    run.mkdir()
    (run / "test.json").write_text(json.dumps(scores))
    (run / "run.json").write_text(
        json.dumps(
            {
                "pipeline": "training/de_cpu/model-best",
                "description": "German, CPU recipe",
                "recipe": "configs/de_cpu.cfg",
                "targets": {"test": 70.0},
            }
        )
    )
    (run / "training.json").write_text(json.dumps({"minutes": 12.5, "ended_by": "time limit reached"}))
    (run / "cold-start.json").write_text(
        json.dumps({"command": "x", "runs": 1, "seconds": [1.0], "median_seconds": 1.0, "max_peak_memory_mib": 100.0})
    )
    (tmp_path / "speed").mkdir()
    (tmp_path / "speed" / "de-1-thread.json").write_text(
        json.dumps({"threads": 1, "words_per_second": {"de_cpu": 5000.0}})
    )
    text = report.report(tmp_path, None)
    assert f"| `de_cpu` | test | {100 * scores['punct_f']:.1f} | 70 |" in text
    assert (
        "## `de_cpu`\n\nGerman, CPU recipe Recipe: `configs/de_cpu.cfg`. Training: 12.5 minutes, ended by the time limit."
        in text
    )
    assert "## Cold start of de_cpu" in text and "| de_cpu | 5,000 |" in text
    assert "speed" not in [line for line in text.splitlines() if line.startswith("## `")]


def test_measurement_files_that_are_not_scores_are_not_read_as_scores(tmp_path):
    report = _report_module()
    run = tmp_path / "en_cpu"
    run.mkdir()
    (run / "windows.json").write_text(json.dumps({"window": 128, "rows": []}))
    assert report.score_files(run) == []
