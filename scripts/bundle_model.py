"""Put a trained English pipeline into the package as the bundled `en`
pipeline, with its model card: the data, their licences and the measured
scores (from `spacy-punct evaluate` JSON files).

    python scripts/bundle_model.py training/en/model-best metrics/en spacy_punct/models/en
"""
import argparse
import json
import shutil
from pathlib import Path
from typing import Any, Dict, List

LICENSE = "CC BY-NC-SA 4.0"
SOURCES = [
    {"name": "IWSLT 2011/2012 TED talks (dev2012 less its last tenth)", "url": "https://www.ted.com",
     "license": "CC BY-NC-ND 4.0"},
    {"name": "UD English GUM (train)", "url": "https://github.com/UniversalDependencies/UD_English-GUM",
     "license": "CC BY 4.0 / CC BY-NC-SA 4.0, by source"},
]
TEST_SETS = {
    "test2011": "IWSLT test2011 (TED, reference transcripts)",
    "test2011.asr-noise-0.1": "IWSLT test2011, 10% of the words altered (simulated recognition errors)",
    "gum_dev": "UD English GUM dev (16 genres, spoken and written)",
}


def score_rows(metrics: Path) -> List[str]:
    rows = ["| test set | micro F1 | COMMA | PERIOD | QUESTION | not lower-case F1 | words/s |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for name, about in TEST_SETS.items():
        path = metrics / f"{name}.json"
        if not path.exists():
            continue
        s = json.loads(path.read_text(encoding="utf8"))
        per = s["punct_per_type"]
        case = f"{100 * s['case_f']:.1f}" if s.get("case_f") is not None else ""
        rows.append(
            f"| {about} | {100 * s['punct_f']:.1f} | {100 * per['COMMA']['f']:.1f} | {100 * per['PERIOD']['f']:.1f} "
            f"| {100 * per['QUESTION']['f']:.1f} | {case} | {s['words_per_second']:,.0f} |"
        )
    return rows


def performance(metrics: Path) -> Dict[str, Any]:
    scores = {}
    for name in TEST_SETS:
        path = metrics / f"{name}.json"
        if path.exists():
            s = json.loads(path.read_text(encoding="utf8"))
            scores[name] = {key: s[key] for key in ("punct_f", "punct_p", "punct_r", "case_f") if s.get(key) is not None}
    return scores


def model_card(meta: Dict[str, Any], metrics: Path, about: str) -> str:
    sources = "\n".join(f"- {s['name']}: {s['license']} ({s['url']})" for s in SOURCES)
    return f"""# The bundled English pipeline (`en`)

{meta['description']}

Pipeline: {', '.join(meta['pipeline'])} (spacy-punct {meta['spacy_punct_version']}, spaCy {meta['spacy_version']}).
{about}

## Data

{sources}

The weights learned from these texts inherit their terms: this pipeline is for
non-commercial use ({LICENSE}). Train your own on your data with the same
recipe for other uses (README, "Training on the real corpora").

## Scores

Measured with `spacy-punct evaluate` on lower-cased, unpunctuated input (one
process, one thread, whole documents, scoring included):

{chr(10).join(score_rows(metrics))}

Micro F1 over COMMA, PERIOD and QUESTION; "not lower-case F1" scores the
truecaser on the cased test set (words written exactly as in the reference).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, help="the trained pipeline (model-best)")
    parser.add_argument("metrics", type=Path, help="folder of spacy-punct evaluate JSON files for it")
    parser.add_argument("output", type=Path, help="the bundled pipeline's folder in the package")
    parser.add_argument("--about", default="", help="a line on how it was trained")
    args = parser.parse_args()
    from spacy.util import load_config

    from spacy_punct import __version__, load_pipeline

    meta_path = args.model / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf8"))
    meta.update(
        name="punct_en",
        version=__version__,
        description="English punctuation (COMMA, PERIOD, QUESTION) and truecasing for lower-case, "
        "unpunctuated text such as speech-recognition output; the CPU recipe (configs/en_cpu.cfg).",
        license=LICENSE,
        sources=SOURCES,
        performance=performance(args.metrics),
        spacy_punct_version=__version__,
    )
    if args.output.exists():
        shutil.rmtree(args.output)
    # the bundled pipeline punctuates whole texts: each ends with a sentence
    config = load_config(args.model / "config.cfg")
    names = [name for name, c in config["components"].items() if c.get("factory") == "punctuator"]
    load_pipeline(args.model, config={"components": {name: {"close_last_sentence": True} for name in names}}).to_disk(
        args.output
    )
    (args.output / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf8")
    (args.output / "MODEL_CARD.md").write_text(model_card(meta, args.metrics, args.about), encoding="utf8")
    size = sum(path.stat().st_size for path in args.output.rglob("*") if path.is_file())
    print(f"Bundled {args.model} as {args.output} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
