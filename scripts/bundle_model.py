"""Put a trained pipeline into the package as a bundled pipeline
(the output folder's name is its name, `<lang>_<name>`), then write its
model card: the data, their licences and the scores measured on the bundled
pipeline itself (`spacy-punct evaluate` JSON files). A transformer pipeline
is bundled with its encoder's weights stored in int8 and an int8 quantizer
(`--int8`).

    python scripts/bundle_model.py pipeline training/en/model-best spacy_punct/models/en_punct_sm
    python scripts/bundle_model.py score en_punct_sm projects/benchmarks/metrics/en_punct_sm
    python scripts/bundle_model.py card spacy_punct/models/en_punct_sm projects/benchmarks/metrics/en_punct_sm
    python scripts/bundle_model.py repair-head training/en_sm_repair spacy_punct/models/en_punct_sm
    python scripts/bundle_model.py decisions spacy_punct/models/hu_punct_trf --thresholds QUESTION=0.15,PERIOD=0.6 --lone-words join

`score` runs `spacy-punct evaluate` on each test set the language registry
lists for the pipeline's language (those converted to corpus/<lang>/eval/).
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from spacy_punct.evaluation.score_tables import scores_by_test_set
from spacy_punct.languages import LanguageEntry, language_entry

# the terms of a source's licence that reach weights learned from it
_INHERITED_TERMS = ("NC", "ND", "SA")
_CC_LICENCE = re.compile(r"CC BY(?:-[A-Z]{2})*(?: \d\.\d)?")


def pipeline_licence(sources: List[Dict[str, str]]) -> str:
    """The licence field of a pipeline: every Creative Commons licence of its
    sources whose terms (non-commercial, no derivatives, share-alike) the
    weights inherit, together (`CC BY-NC-ND 4.0 AND CC BY-NC-SA 4.0`)."""
    found: List[str] = []
    for source in sources:
        for licence in _CC_LICENCE.findall(source["license"]):
            if any(term in licence.split()[1].split("-") for term in _INHERITED_TERMS) and licence not in found:
                found.append(licence)
    return " AND ".join(found) if found else "MIT"


def licence_text(meta: Dict[str, Any]) -> str:
    """The LICENSE file of a pipeline folder: its licence and where it comes from."""
    sources = "\n".join(f"- {s['name']}: {s['license']} ({s['url']})" for s in meta["sources"])
    licence = meta["license"]
    terms = ["with credit to the sources (BY)"]
    if "NC" in licence:
        terms.append("for non-commercial use only (NC)")
    if "ND" in licence:
        terms.append("as it is, without adaptations (ND)")
    if "SA" in licence:
        terms.append("adaptations under the same terms (SA)")
    about = textwrap.fill(
        "Its weights were learned from the sources below and are shared under the terms of every licence above "
        f"together: {'; '.join(terms)}. The code of spacy-punct that runs it is MIT-licensed (the package's "
        "LICENSE file). Train your own pipeline on your own data for other uses.",
        width=78,
        break_on_hyphens=False,
    )
    return f"""The spacy-punct pipeline {meta["lang"]}_{meta["name"]} {meta["version"]}: {licence}

{about}

{sources}
"""


def write_licence(output: Path) -> None:
    """Set the licence field of the pipeline folder's meta.json from its
    sources, and write its LICENSE file."""
    meta = json.loads((output / "meta.json").read_text(encoding="utf8"))
    meta["license"] = pipeline_licence(meta["sources"])
    (output / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf8")
    (output / "LICENSE").write_text(licence_text(meta), encoding="utf8")


def scores_table(metrics: Path, entry: LanguageEntry) -> str:
    """The pipeline's scores on its language's test sets that were measured."""
    measured = [
        (test_set.about, json.loads((metrics / f"{test_set.name}.json").read_text(encoding="utf8")))
        for test_set in entry.test_sets
        if (metrics / f"{test_set.name}.json").exists()
    ]
    return scores_by_test_set(measured, entry.cased)


def performance(metrics: Path, entry: LanguageEntry) -> Dict[str, Any]:
    scores = {}
    for test_set in entry.test_sets:
        path = metrics / f"{test_set.name}.json"
        if path.exists():
            s = json.loads(path.read_text(encoding="utf8"))
            scores[test_set.name] = {
                key: s[key] for key in ("punct_f", "punct_p", "punct_r", "case_f") if s.get(key) is not None
            }
            scores[test_set.name].update(
                {f"{label.lower()}_f": per["f"] for label, per in s["punct_per_type"].items() if per.get("support", 1)}
            )  # none of a class's marks: no score
            scores[test_set.name]["words_per_second"] = s["words_per_second"]
    return scores


def model_card(
    meta: Dict[str, Any], metrics: Path, about: str, entry: LanguageEntry, replaced: Optional[Path] = None
) -> str:
    sources = "\n".join(f"- {s['name']}: {s['license']} ({s['url']})" for s in meta["sources"])
    case_note = (
        (
            '; "not lower-case F1" scores the\ntruecaser on the cased test set (words written exactly as '
            "in the reference)"
        )
        if entry.cased
        else ""
    )
    return f"""# The bundled {entry.name} pipeline `{meta["lang"]}_{meta["name"]}`

{meta["description"]}

Pipeline: {", ".join(meta["pipeline"])} (spacy-punct {meta["spacy_punct_version"]}, spaCy {meta["spacy_version"]}).
{about}

## Data

{sources}

The weights learned from these texts inherit their terms: this pipeline is for
non-commercial use ({meta["license"]}; its LICENSE file). Train your own on your data with the same
recipe for other uses (README, "Training on the real corpora").

## Scores

Measured with `spacy-punct evaluate` on lower-cased, unpunctuated input (one
process, whole documents, scoring included; {meta.get("speed_threads", 1)} thread(s)):

{scores_table(metrics, entry)}

Micro F1 over COMMA, PERIOD and QUESTION (a dash: the test set has none of
that mark){case_note}.
{replaced_scores(replaced, entry)}"""


def replaced_scores(replaced: Optional[Path], entry: LanguageEntry) -> str:
    """The card's section on the pipeline this one replaced: its scores,
    measured the same way (its metrics folder, kept aside before the new
    pipeline's scores were written)."""
    if replaced is None:
        return ""
    return f"""
## The pipeline it replaced

Its scores, measured the same way before it was replaced:

{scores_table(replaced, entry)}
"""


def bundle_pipeline(
    model: Path,
    output: Path,
    int8: bool,
    keep_float: List[str],
    stride: int,
    encoder_name: Optional[str] = None,
    window: int = 0,
    weight_bits: int = 7,
    thresholds: Optional[Dict[str, float]] = None,
    end_threshold: float = 0.0,
    lone_words: str = "keep",
) -> None:
    """Write the trained pipeline `model` to `output`, set to close each text's
    last sentence; with `int8`, its encoder's weights stored in int8 and an
    int8 quantizer before it (its linear layers matching `keep_float` left
    in float32, the others run with weights of `weight_bits` bits); with `window`, its transformers' windows that many words
    long; with `stride`, one every `stride` words (each word of a long text
    read in window / stride windows); with
    `encoder_name`, the name its config gives its transformers' encoder (a
    model trained from a local folder of weights names that folder; a
    saved pipeline loads its encoder from its own files, whatever the name);
    with `thresholds`, `end_threshold` and `lone_words` ("join": no sentence
    of one word between two ends the punctuator wrote), its punctuators'
    decision settings (chosen on dev data, as `spacy-punct tune` does)."""
    from spacy.util import load_config

    from spacy_punct import load_pipeline
    from spacy_punct.components.quantizer import add_quantizer, storage_overrides
    from spacy_punct.layers.windows import transformer_names

    config = load_config(model / "config.cfg")
    # the bundled pipeline punctuates whole texts: each ends with a sentence
    names = [name for name, c in config["components"].items() if c.get("factory") == "punctuator"]
    settings: Dict[str, Any] = {"close_last_sentence": True}
    if thresholds:
        settings["thresholds"] = dict(thresholds)
    if end_threshold:
        settings["end_threshold"] = end_threshold
    if lone_words == "join":
        settings["lone_word_sentences"] = False
    overrides: Dict[str, Any] = {"components": {name: dict(settings) for name in names}}
    nlp = load_pipeline(model, config=overrides)
    transformers = {name: {"model": {}} for name in transformer_names(nlp)}
    if int8:
        for name, settings in storage_overrides(nlp, "int8")["components"].items():
            transformers[name]["model"].update(settings["model"])
    spans = {key: value for key, value in (("window", window), ("stride", stride)) if value}
    if spans:
        for name in transformers:
            transformers[name]["model"]["get_spans"] = dict(spans)
    if encoder_name:
        for name in transformers:
            transformers[name]["model"]["name"] = encoder_name
    if any(settings["model"] for settings in transformers.values()):
        overrides["components"].update(transformers)
        nlp = load_pipeline(model, config=overrides)
    if int8:
        add_quantizer(nlp, keep_float=keep_float, weight_bits=weight_bits)
    if output.name.startswith(f"{nlp.lang}_"):
        # `en_punct_trf`: the name its scores and card are filed under, whatever the run was called
        nlp.meta["name"] = output.name[len(nlp.lang) + 1 :]
    # written beside it first: the pipeline it replaces is kept until the new one is whole
    written = output.with_name(output.name + ".new")
    if written.exists():
        shutil.rmtree(written)
    output.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(written)
    if output.exists():
        shutil.rmtree(output)
    written.rename(output)
    size = sum(path.stat().st_size for path in output.rglob("*") if path.is_file())
    print(f"Bundled {model} as {output} ({size / 1e6:.1f} MB)")


def set_decisions(output: Path, thresholds: Dict[str, float], end_threshold: float, lone_words: str = "keep") -> None:
    """Give the bundled pipeline at `output` these decision settings (its
    punctuators' thresholds, replacing theirs, end threshold and lone
    words), chosen on dev data after it was bundled; nothing else of it
    changes."""
    from spacy.util import load_config

    from spacy_punct.decode import DecisionSettings

    try:
        DecisionSettings(thresholds=thresholds, end_threshold=end_threshold)
    except ValueError as e:
        sys.exit(f"Error: {e}")
    config = load_config(output / "config.cfg")
    names = [name for name, c in config["components"].items() if c.get("factory") == "punctuator"]
    if not names:
        sys.exit(f"Error: {output} has no punctuator")
    for name in names:
        config["components"][name]["thresholds"] = dict(thresholds)
        config["components"][name]["end_threshold"] = end_threshold
        config["components"][name]["lone_word_sentences"] = lone_words == "keep"
    config.to_disk(output / "config.cfg")
    print(f"{output}: thresholds {thresholds or 'none'}, end threshold {end_threshold}, lone words {lone_words}")


def parse_thresholds(text: str) -> Dict[str, float]:
    """`QUESTION=0.15,PERIOD=0.6` as {"QUESTION": 0.15, "PERIOD": 0.6}."""
    thresholds = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        label, _, value = item.partition("=")
        try:
            thresholds[label.strip().upper()] = float(value)
        except ValueError:
            sys.exit(f"Error: --thresholds takes LABEL=P,LABEL=P, not {text!r}")
    return thresholds


SPACY_VERSIONS = ">=3.8.2,<3.9.0"


# a test set's name with a suffix of spacy-punct evaluate: the options that write it
_VARIANTS = (
    (re.compile(r"\.asr-noise-(?P<level>[0-9.]+)$"), lambda match: ["--asr-noise", match["level"]]),
    (re.compile(r"\.spoken-numbers$"), lambda match: ["--spoken-numbers"]),
)


def _base_and_options(name: str) -> Tuple[str, List[str]]:
    for pattern, options in _VARIANTS:
        match = pattern.search(name)
        if match:
            return name[: match.start()], options(match)
    return name, []


def evaluate_commands(pipeline: str, metrics: Path, threads: int, corpus: Path = Path("corpus")) -> List[List[str]]:
    """The `spacy-punct evaluate` command of each test set of the pipeline's
    language whose file was converted (a `.asr-noise-X` name: the base set
    with that share of the words altered; `.spoken-numbers`: with its numbers
    written as words)."""
    lang = Path(pipeline).name.split("_", 1)[0]
    commands = []
    for test_set in language_entry(lang).test_sets:
        base, options = _base_and_options(test_set.name)
        path = corpus / lang / "eval" / f"{base}.spacy"
        if path.exists():
            commands.append(
                [
                    "spacy-punct",
                    "evaluate",
                    pipeline,
                    str(path),
                    "--output-dir",
                    str(metrics),
                    "--threads",
                    str(threads),
                ]
                + options
            )
    return commands


def write_card(
    output: Path,
    metrics: Path,
    description: str,
    about: str,
    threads: int,
    iwslt: str,
    replaced: Optional[Path] = None,
) -> None:
    """Write the bundled pipeline's meta.json and MODEL_CARD.md, with the scores
    in `metrics` (spacy-punct evaluate's JSON files, of this pipeline) and the
    sources its language's registry entry names; with `replaced`, the scores
    of the pipeline it replaced beside them."""
    from spacy_punct import __version__

    meta = json.loads((output / "meta.json").read_text(encoding="utf8"))
    lang, name = output.name.split("_", 1)
    entry = language_entry(lang)
    tasks = "punctuation (COMMA, PERIOD, QUESTION)" + (" and truecasing" if "truecaser" in meta["pipeline"] else "")
    sources = [
        {"name": source.name.format(iwslt=iwslt), "url": source.url, "license": source.license}
        for source in entry.sources
        if not source.pipelines or output.name in source.pipelines
    ]
    if "transformer" in meta["pipeline"] and entry.encoder:
        sources.append({"name": entry.encoder.name, "url": entry.encoder.url, "license": entry.encoder.license})
    meta.update(
        lang=lang,
        name=name,
        version=__version__,
        description=f"{entry.name} {tasks} for lower-case, unpunctuated text such as speech-recognition output; "
        f"{description}.",
        sources=sources,
        performance=performance(metrics, entry),
        # the spaCy versions spacy-punct supports (setup.py), not only the one that saved it
        spacy_version=SPACY_VERSIONS,
        speed_threads=threads,
        spacy_punct_version=__version__,
    )
    meta["license"] = pipeline_licence(sources)
    (output / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf8")
    write_licence(output)
    about = about.replace("{language}", entry.name)  # a recipe's text for any language names it
    (output / "MODEL_CARD.md").write_text(model_card(meta, metrics, about, entry, replaced), encoding="utf8")
    print(f"Wrote {output / 'MODEL_CARD.md'} and its meta.json")


def copy_repair_head(model: Path, output: Path) -> None:
    """The repair head of `model` (the bundled pipeline with a head fitted)
    into the bundle: the head's weights and its shape in the punctuator's cfg;
    the punctuator's own weights must be the bundle's."""
    source, target = model / "punctuator", output / "punctuator"
    if not (source / "repair_model").is_file():
        sys.exit(f"Error: {model} has no repair head: run spacy-punct fit-repair first")
    if (source / "model").read_bytes() != (target / "model").read_bytes():
        sys.exit(f"Error: the punctuator of {model} is not that of {output}: fit the head on the bundle itself")
    shutil.copyfile(source / "repair_model", target / "repair_model")
    shutil.copyfile(source / "cfg", target / "cfg")
    print(f"Wrote {target / 'repair_model'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pipeline = commands.add_parser("pipeline", help="write the bundled pipeline")
    pipeline.add_argument("model", type=Path, help="the trained pipeline (model-best)")
    pipeline.add_argument("output", type=Path, help="the bundled pipeline's folder in the package")
    pipeline.add_argument(
        "--int8",
        action="store_true",
        help="a transformer pipeline: its encoder's weights stored in int8, its linear layers run in int8",
    )
    pipeline.add_argument(
        "--keep-float",
        action="append",
        default=[],
        metavar="PATTERN",
        help="with --int8: linear layers whose names match this regular expression stay float32",
    )
    pipeline.add_argument(
        "--weight-bits",
        type=int,
        default=7,
        choices=(7, 8),
        help="with --int8: the bits of the int8 layers' weights at inference",
    )
    pipeline.add_argument(
        "--window", type=int, default=0, help="a transformer pipeline: words per window (0: as trained)"
    )
    pipeline.add_argument(
        "--stride",
        type=int,
        default=0,
        help="a transformer pipeline: words between the starts of its windows (0: as trained)",
    )
    pipeline.add_argument(
        "--thresholds",
        default="",
        help="the punctuator's decision thresholds, LABEL=P,LABEL=P (chosen on dev data; none: as trained)",
    )
    pipeline.add_argument(
        "--end-threshold",
        type=float,
        default=0.0,
        help="the punctuator's end threshold: the sentence end decided first (chosen on dev data; 0: off)",
    )
    pipeline.add_argument(
        "--lone-words",
        choices=("keep", "join"),
        default="keep",
        help="join: no sentence of one word (but an interjection) between two ends the punctuator wrote",
    )
    pipeline.add_argument(
        "--encoder-name",
        default=None,
        help="a transformer pipeline: the encoder's name in the bundled config (its hub name)",
    )
    decisions = commands.add_parser("decisions", help="set a bundled pipeline's decision settings, chosen on dev data")
    decisions.add_argument("output", type=Path, help="the bundled pipeline's folder in the package")
    decisions.add_argument("--thresholds", default="", help="LABEL=P,LABEL=P (replacing the pipeline's; none: none)")
    decisions.add_argument("--end-threshold", type=float, default=0.0, help="the sentence end decided first (0: off)")
    decisions.add_argument(
        "--lone-words",
        choices=("keep", "join"),
        default="keep",
        help="join: no sentence of one word (but an interjection) between two ends the punctuator wrote",
    )
    score = commands.add_parser("score", help="score the bundled pipeline on its language's test sets")
    score.add_argument("pipeline", help="the bundled pipeline's name, or a folder named like one (a candidate bundle)")
    score.add_argument("metrics", type=Path, help="the folder for the spacy-punct evaluate JSON files")
    score.add_argument("--threads", type=int, default=1, help="the threads to measure words/s with")
    card = commands.add_parser("card", help="write the bundled pipeline's meta.json and model card from its scores")
    card.add_argument("output", type=Path, help="the bundled pipeline's folder in the package")
    card.add_argument("metrics", type=Path, help="folder of spacy-punct evaluate JSON files for it")
    card.add_argument("--about", default="", help="a line on how it was trained ({language}: the language's name)")
    card.add_argument("--description", default="the CPU recipe (configs/en_cpu.cfg)", help="the recipe, in words")
    card.add_argument("--threads", type=int, default=1, help="the threads the scores' words/s were measured with")
    card.add_argument("--iwslt", default="dev2012 less its last tenth", help="the part of IWSLT it was trained on")
    card.add_argument(
        "--replaced", type=Path, help="the metrics folder of the pipeline it replaced: its scores go into the card too"
    )
    licence = commands.add_parser(
        "licence", help="write the pipeline's licence field and LICENSE file from its sources"
    )
    licence.add_argument("output", type=Path, help="the bundled pipeline's folder in the package")
    repair = commands.add_parser(
        "repair-head", help="give a bundled pipeline the repair head `spacy-punct fit-repair` trained on it"
    )
    repair.add_argument("model", type=Path, help="the pipeline fit-repair wrote")
    repair.add_argument("output", type=Path, help="the bundled pipeline's folder in the package")
    args = parser.parse_args()
    if args.command == "repair-head":
        copy_repair_head(args.model, args.output)
        return
    if args.command == "pipeline":
        if not (args.model / "config.cfg").is_file():
            sys.exit(f"Error: {args.model} is not a pipeline folder (no config.cfg)")
        model, output = args.model.resolve(), args.output.resolve()
        if output == model or output in model.parents:
            sys.exit(f"Error: {args.output} holds the trained pipeline {args.model}: give another output folder")
        if output.exists() and not (output / "config.cfg").is_file():
            sys.exit(
                f"Error: {args.output} exists and is not a pipeline folder: give a new folder, or a bundled "
                "pipeline's to replace it"
            )
        bundle_pipeline(
            args.model,
            args.output,
            args.int8,
            args.keep_float,
            args.stride,
            args.encoder_name,
            args.window,
            args.weight_bits,
            parse_thresholds(args.thresholds),
            args.end_threshold,
            args.lone_words,
        )
    elif args.command == "decisions":
        set_decisions(args.output, parse_thresholds(args.thresholds), args.end_threshold, args.lone_words)
    elif args.command == "score":
        commands_run = evaluate_commands(args.pipeline, args.metrics, args.threads)
        if not commands_run:
            sys.exit(f"Error: none of the test sets of {args.pipeline}'s language is in corpus/: convert them first.")
        for command in commands_run:
            print(" ".join(command), flush=True)
            if subprocess.run(command).returncode:
                sys.exit(f"Error: {' '.join(command)} failed.")
    elif args.command == "licence":
        write_licence(args.output)
    else:
        write_card(args.output, args.metrics, args.description, args.about, args.threads, args.iwslt, args.replaced)


if __name__ == "__main__":
    main()
