"""Write the README's table of bundled pipelines from what was measured: the
scores in each bundled pipeline's meta.json (written by
`scripts/bundle_model.py card` from `spacy-punct evaluate`) and the speeds in
projects/benchmarks/metrics/speed/*.json (written by `spacy-punct benchmark -o`, the
pipelines of a language side by side in one run); and the README's sample:
one line through each bundled English pipeline.

    python scripts/report_readme.py            # rewrite the table in README.md
    python scripts/report_readme.py --check    # fail if README.md's table is stale
"""

import argparse
import json
from pathlib import Path
from typing import Dict, List

from generated import write_between

from spacy_punct.evaluation.score_tables import BundledRow, pipelines_table
from spacy_punct.evaluation.speed import machine_in_words
from spacy_punct.languages import LANGUAGES, language_entry

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "spacy_punct" / "models"
SPEEDS = ROOT / "projects" / "benchmarks" / "metrics" / "speed"
START, END = "<!-- pipelines table: written by scripts/report_readme.py -->", "<!-- end of pipelines table -->"
DOWNSTREAM_START = "<!-- downstream: written by scripts/report_readme.py -->"
DOWNSTREAM_END = "<!-- end of downstream -->"
SPEECH_START, SPEECH_END = "<!-- speech: written by scripts/report_readme.py -->", "<!-- end of speech -->"
SAMPLE_START, SAMPLE_END = "<!-- sample: written by scripts/report_readme.py -->", "<!-- end of sample -->"
SAMPLE = "great news for the state senator john smith said on tuesday that the bridge will open in may"
USES = {"trf": "the most accurate (the default `{lang}`)", "sm": "bulk work: millions of documents, busy machines"}


# on a quiet machine more threads never read fewer words a second; a run whose
# figures show less than this share of the one-thread speed was made on busy cores
MIN_THREAD_GAIN = 0.8


class ContendedMeasurement(ValueError):
    """Speeds measured while other processes took the cores."""


def speeds() -> Dict[int, Dict[str, float]]:
    """Words/s by threads and pipeline name, from the benchmark files;
    refused where their own figures show that the cores were busy."""
    found: Dict[int, Dict[str, float]] = {}
    for path in sorted(SPEEDS.glob("*.json")):
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
                    "(spacy project run report projects/benchmarks); the README's table was left as it was."
                )


def machines() -> str:
    """The machines the speed files were measured on, in words (the CPU and
    how the int8 layers computed their products on it), each named once."""
    seen: List[str] = []
    for path in sorted(SPEEDS.glob("*.json")):
        host = json.loads(path.read_text(encoding="utf8")).get("machine")
        words = machine_in_words(host) if host else "not recorded"
        if words not in seen:
            seen.append(words)
    return "; ".join(seen)


def table() -> str:
    """One row per bundled pipeline, scored on its language's headline test set
    (the first of the language registry's test sets), and the machine its
    speeds were measured on."""
    by_threads = speeds()
    registry = [name for lang in LANGUAGES for name in LANGUAGES[lang].pipelines]  # in the registry's order
    metas = [(path.parent.name, json.loads(path.read_text(encoding="utf8"))) for path in MODELS.glob("*/meta.json")]
    metas.sort(key=lambda m: registry.index(m[0]) if m[0] in registry else len(registry))
    rows = []
    for name, meta in metas:
        headline = language_entry(meta["lang"]).test_sets[0]
        size = sum(p.stat().st_size for p in (MODELS / name).rglob("*") if p.is_file()) / 1e6
        rows.append(
            BundledRow(
                name=name,
                use=USES.get(name.rsplit("_", 1)[-1], "").format(lang=meta["lang"]),
                test_set=headline.name,
                test_set_label=headline.label or headline.name,
                performance=meta.get("performance", {}),
                size_mb=size,
                speeds={n: by_threads[n].get(name) for n in by_threads},
            )
        )
    return f"{pipelines_table(rows)}\n\nSpeeds measured on: {machines()}."


def sample() -> str:
    """The sample line as each bundled English pipeline writes it."""
    from spacy_punct import load_pipeline, punctuate

    lines = ["| pipeline | output |", "|---|---|"]
    for name in LANGUAGES["en"].pipelines:
        lines.append(f"| `{name}` | {next(iter(punctuate(load_pipeline(name), [SAMPLE]))).text} |")
    return "\n".join(lines)


def downstream() -> str:
    """NER F1 on GUM dev (cased) and translation BLEU / chrF on test2011 for
    each input (bare words, each bundled English pipeline, the written text)."""
    metrics = ROOT / "projects" / "benchmarks" / "metrics"
    ner = json.loads((metrics / "ner" / "gum_dev.json").read_text(encoding="utf8"))["scores"]
    translation = json.loads((metrics / "translation" / "test2011.json").read_text(encoding="utf8"))["scores"]
    rows = ["| input | NER F1, GUM dev | BLEU, test2011 | chrF, test2011 |", "|---|---:|---:|---:|"]
    names = [("bare lower-case words", "bare lower-case words", "raw windows")]
    names += [(f"`{name}`", name, name) for name in LANGUAGES["en"].pipelines]
    names.append(("the written text", None, "written sentences"))
    for label, ner_key, mt_key in names:
        f1 = f"{100 * ner[ner_key]['f']:.1f}" if ner_key in ner else "100.0"
        mt = translation[mt_key]
        rows.append(f"| {label} | {f1} | {mt['bleu']:.1f} | {mt['chrf']:.1f} |")
    return "\n".join(rows)


def speech() -> str:
    """Per recogniser: its word error rate and the micro F1 of its own marks,
    of `en_punct_trf` on its words and of `en_punct_trf --merge`, on the
    speech benchmark."""
    run = json.loads((ROOT / "projects" / "benchmarks" / "metrics" / "asr" / "speech.json").read_text(encoding="utf8"))
    rows = ["| recogniser | WER | its own marks | `en_punct_trf` | `--merge` |", "|---|---:|---:|---:|---:|"]
    for recogniser, row in run.items():
        if isinstance(row, dict) and "wer" in row:
            own, merged = row.get("recogniser"), row.get("en_punct_trf --merge")
            figures = [f"{s['micro_f']:.1f}" if s else "none" for s in (own, row["en_punct_trf"], merged)]
            rows.append(f"| {recogniser} | {row['wer']:.1f} | " + " | ".join(figures) + " |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the README's table is stale")
    args = parser.parse_args()
    try:
        text = table()
    except ContendedMeasurement as e:
        raise SystemExit(f"Error: {e}") from None
    write_between(ROOT / "README.md", START, END, text, args.check, "python scripts/report_readme.py")
    write_between(ROOT / "README.md", SAMPLE_START, SAMPLE_END, sample(), args.check, "python scripts/report_readme.py")
    write_between(ROOT / "README.md", SPEECH_START, SPEECH_END, speech(), args.check, "python scripts/report_readme.py")
    write_between(
        ROOT / "README.md",
        DOWNSTREAM_START,
        DOWNSTREAM_END,
        downstream(),
        args.check,
        "python scripts/report_readme.py",
    )


if __name__ == "__main__":
    main()
