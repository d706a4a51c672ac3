"""Write the README's table of bundled pipelines from what was measured: the
scores in each bundled pipeline's meta.json (written by
`scripts/bundle_model.py card` from `spacy-punct evaluate`) and the speeds in
benchmarks/speed-*.json (written by `spacy-punct benchmark -o`, all pipelines
side by side in one run).

    python scripts/report_readme.py            # rewrite the table in README.md
    python scripts/report_readme.py --check    # fail if README.md's table is stale
"""
import argparse
import json
from pathlib import Path
from typing import Dict, List

from generated import write_between

from spacy_punct.languages import LANGUAGES, language_entry

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "spacy_punct" / "models"
SPEEDS = ROOT / "benchmarks"
START, END = "<!-- pipelines table: written by scripts/report_readme.py -->", "<!-- end of pipelines table -->"
USES = {"trf": "the most accurate (the default `{lang}`)", "sm": "bulk work: millions of documents, busy machines"}


def _f1(performance: Dict[str, Dict[str, float]], test_set: str, key: str = "punct_f") -> str:
    value = performance.get(test_set, {}).get(key)
    return "" if value is None else f"{100 * value:.1f}"


# on a quiet machine more threads never read fewer words a second; a run whose
# figures show less than this share of the one-thread speed was made on busy cores
MIN_THREAD_GAIN = 0.8


class ContendedMeasurement(ValueError):
    """Speeds measured while other processes took the cores."""


def speeds() -> Dict[int, Dict[str, float]]:
    """Words/s by threads and pipeline name, from the benchmark files;
    refused where their own figures show that the cores were busy."""
    found: Dict[int, Dict[str, float]] = {}
    for path in sorted(SPEEDS.glob("speed-*.json")):
        run = json.loads(path.read_text(encoding="utf8"))
        found.setdefault(run["threads"], {}).update(run["words_per_second"])
    check_contention(found)
    return found


def check_contention(by_threads: Dict[int, Dict[str, float]]) -> None:
    """Raise where a pipeline read fewer words a second with more threads."""
    threads = sorted(by_threads)
    for fewer, more in zip(threads, threads[1:]):
        for name, speed in by_threads[more].items():
            base = by_threads[fewer].get(name)
            if base and speed < MIN_THREAD_GAIN * base:
                raise ContendedMeasurement(
                    f"{name} read {speed:,.0f} words/s with {more} threads against {base:,.0f} with {fewer}: "
                    "the cores were busy during the benchmark. Measure again on a quiet machine "
                    "(spacy project run report); the README's table was left as it was."
                )


def table() -> str:
    """One row per bundled pipeline, scored on its language's headline test set
    (the first of the language registry's test sets)."""
    by_threads = speeds()
    threads = sorted(by_threads)
    head = ["pipeline", "pick it for", "test set", "F1", "QUESTION F1", "+10% ASR noise", "size"]
    head += [f"words/s, {n} thread{'s' if n > 1 else ''}" for n in threads]
    rows: List[List[str]] = []
    metas = [(path, json.loads(path.read_text(encoding="utf8"))) for path in MODELS.glob("*/meta.json")]
    registry = [name for lang in LANGUAGES for name in LANGUAGES[lang].pipelines]  # in the registry's order
    metas.sort(key=lambda m: registry.index(m[0].parent.name) if m[0].parent.name in registry else len(registry))
    for meta_path, meta in metas:
        name = meta_path.parent.name
        entry = language_entry(meta["lang"])
        headline = entry.test_sets[0]
        performance = meta.get("performance", {})
        size = sum(p.stat().st_size for p in meta_path.parent.rglob("*") if p.is_file()) / 1e6
        use = USES.get(name.rsplit("_", 1)[-1], "").format(lang=meta["lang"])
        row = [f"`{name}`", use, headline.label or headline.name, _f1(performance, headline.name),
               _f1(performance, headline.name, "question_f"), _f1(performance, f"{headline.name}.asr-noise-0.1"),
               f"{size:.0f} MB"]
        row += [f"{by_threads[n][name]:,.0f}" if name in by_threads[n] else "" for n in threads]
        rows.append(row)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 3 + "---:|" * (len(head) - 3)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the README's table is stale")
    args = parser.parse_args()
    try:
        text = table()
    except ContendedMeasurement as e:
        raise SystemExit(f"Error: {e}") from None
    write_between(ROOT / "README.md", START, END, text, args.check, "python scripts/report_readme.py")


if __name__ == "__main__":
    main()
