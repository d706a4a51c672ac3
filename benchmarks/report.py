"""Write benchmarks/RESULTS.md and its plots from what the project's benchmark
workflow measured: metrics/<run>/*.json (spacy-punct evaluate),
training/<run>/training.json and log.jsonl (spacy-punct train),
metrics/<run>/windows.json (benchmarks/windows.py) and
metrics/<run>/streaming.json (benchmarks/streaming.py).

RESULTS.md is made of sections between `<!-- section: NAME -->` lines; a
section whose measurements are not there is kept as it was, so that a part of
the benchmark can be run again alone.

Usage: python benchmarks/report.py [--metrics metrics] [--training training] [--output benchmarks]
"""
import argparse
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RUNS = {
    "en": "English, CPU recipe (configs/en_cpu.cfg)",
    "bn": "Bangla, CPU recipe (configs/bn_cpu.cfg)",
    "hu": "Hungarian, CPU recipe (configs/hu_cpu.cfg)",
    "en-tiny-trf": "English, transformer recipe (configs/en_trf.cfg) on a small BERT trained from scratch",
    "en-small-trf": "English, small pretrained transformer on CPU (configs/en_small_trf.cfg, all-MiniLM-L6-v2)",
    "en-distilled": "English, CPU recipe distilled from the small pretrained transformer (distill_weight 0.8)",
    "en-edge": "English, CPU recipe trained for the stream edge (30-word chunks, 0-4 words of right context)",
    "en-cased": "English, CPU recipe with the truecaser (configs/en_cpu.cfg)",
    "hu-cased": "Hungarian, CPU recipe with the truecaser (configs/hu_cpu.cfg)",
}

# micro F1 targets of the CPU recipes (issue: accuracy on real data)
TARGETS = {("en", "test2011"): 66.0, ("bn", "test_news"): 80.0, ("hu", "dev"): 60.0}


# the runs of the main section: the recipes on every corpus (the others get sections of their own)
MAIN_RUNS = ("en", "bn", "hu", "en-tiny-trf")
# metrics/<run>/*.json files that are not `spacy-punct evaluate` scores
NOT_SCORES = ("windows", "streaming", "stream_memory", "speed", "scaling", "frozen_layers", "train_step")


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf8"))


def scores_table(scores: Dict[str, Any]) -> List[str]:
    if scores.get("gold_marks"):
        return [
            "The test set's marks where the punctuator's decisions go (`spacy-punct evaluate --gold-marks`): "
            "the components before it, scored as with a perfect punctuator."
        ] + case_rows(scores)
    if scores.get("input_marks"):
        return [
            "The test set read with its own punctuation, lower-cased, and no mark added "
            "(`spacy-punct evaluate --input-marks`): the truecaser on punctuated text."
        ] + case_rows(scores)
    rows = ["| class | P | R | F1 | support |", "|---|---:|---:|---:|---:|"]
    for label, s in scores["punct_per_type"].items():
        rows.append(f"| {label} | {100 * s['p']:.1f} | {100 * s['r']:.1f} | {100 * s['f']:.1f} | {s['support']} |")
    support = sum(s["support"] for s in scores["punct_per_type"].values())
    rows.append(
        f"| **micro** | **{100 * scores['punct_p']:.1f}** | **{100 * scores['punct_r']:.1f}** "
        f"| **{100 * scores['punct_f']:.1f}** | {support} |"
    )
    rows.append(f"| macro | | | {100 * scores['punct_macro_f']:.1f} | |")
    rows.append("")
    rows.append(
        f"Slot error rate {100 * scores['punct_ser']:.1f} · sentence boundaries F1 "
        f"{100 * scores['sents_f']:.1f} · {scores['words']:,} words at {scores['words_per_second']:,.0f} words/s "
        "(one process, whole documents, scoring included)"
    )
    return rows + case_rows(scores)


def case_rows(scores: Dict[str, Any]) -> List[str]:
    if scores.get("case_f") is None:
        return []
    rows = ["", "| case | P | R | F1 |", "|---|---:|---:|---:|"]
    for label, s in scores["case_per_type"].items():
        rows.append(f"| {label} | {100 * s['p']:.1f} | {100 * s['r']:.1f} | {100 * s['f']:.1f} |")
    rows.append(f"| **not lower-case** | **{100 * scores['case_p']:.1f}** | **{100 * scores['case_r']:.1f}** "
                f"| **{100 * scores['case_f']:.1f}** |")
    return rows + ["", f"Not lower-case words, F1: sentence-initial {100 * scores['case_initial_f']:.1f}, "
                       f"the others (names, acronyms) {100 * scores['case_inner_f']:.1f}."]


def summary_table(metrics: Path, training: Path, runs: Sequence[str]) -> List[str]:
    rows = [
        "| run | test set | micro F1 | target | macro F1 | training minutes | words/s |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        summary = training / run / "training.json"
        minutes = f"{load(summary)['minutes']:.1f}" if summary.exists() else ""
        for path in sorted((metrics / run).glob("*.json")) if (metrics / run).is_dir() else []:
            if path.stem in NOT_SCORES:
                continue
            scores = load(path)
            if scores.get("gold_marks") or scores.get("input_marks"):  # punctuation scores of the test set itself
                continue
            target = TARGETS.get((run, path.stem))
            rows.append(
                f"| {run} | {path.stem} | {100 * scores['punct_f']:.1f} | {target or ''} "
                f"| {100 * scores['punct_macro_f']:.1f} | {minutes} | {scores['words_per_second']:,.0f} |"
            )
    return rows + [""]


def run_section(run: str, metrics: Path, training: Path) -> List[str]:
    lines = [f"## {RUNS.get(run, run)}", ""]
    summary = training / run / "training.json"
    if summary.exists():
        info = load(summary)
        ended = "the time limit" if info["ended_by"] == "time limit reached" else f"the {info['ended_by']}"
        lines += [f"Training: {info['minutes']:.1f} minutes on the CPU, ended by {ended}.", ""]
    for path in sorted((metrics / run).glob("*.json")):
        if path.stem in NOT_SCORES:
            continue
        lines += [f"### `{path.stem}`", ""] + scores_table(load(path)) + [""]
    return lines


def plot_training(training: Path, output: Path) -> bool:
    logs = {run: training / run / "log.jsonl" for run in RUNS if (training / run / "log.jsonl").exists()}
    if not logs:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    for run, path in logs.items():
        entries = [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]
        # spaCy's logger writes scores in percent
        ax.plot([e["step"] for e in entries], [e["scores"]["punct_f"] for e in entries], label=run)
    ax.set_xlabel("training step")
    ax.set_ylabel("held-out micro F1")
    ax.set_title("Held-out micro F1 during training")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(output / "dev_f1.png", dpi=120)
    plt.close(fig)
    return True


def plot_confusion(scores: Dict[str, Any], output: Path, title: str) -> None:
    confusion = scores["punct_confusion"]
    labels = list(confusion)
    matrix = [[confusion[gold][guess] for guess in labels] for gold in labels]
    fig, ax = plt.subplots(figsize=(5, 4.5))
    shares = [[count / max(1, sum(row)) for count in row] for row in matrix]
    ax.imshow(shares, cmap="Blues", vmin=0, vmax=1)
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            ax.text(j, i, f"{count}", ha="center", va="center", color="white" if shares[i][j] > 0.5 else "black")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(output / "confusion_en.png", dpi=120)
    plt.close(fig)


def windows_section(windows: Dict[str, Any], output: Path, name: str = "predictions_per_token",
                    title: str = "Predictions per token (transformer path)") -> List[str]:
    rows = windows["rows"]
    lines = [
        f"## {title}",
        "",
        f"Windows of {windows['window']} tokens. *pooled*: one window every window/k tokens, the token's "
        "hidden states averaged over the windows that read it (the listener's `reduce_mean`), one prediction. "
        "*averaged*: k passes of non-overlapping windows shifted by window/k, class probabilities averaged. "
        "Both cost k transformer passes per token.",
        "",
        "| predictions per token | method | micro F1 | macro F1 | words/s |",
        "|---:|---|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['predictions_per_token']} | {row['method']} | {100 * row['punct_f']:.1f} "
            f"| {100 * row['punct_macro_f']:.1f} | {row['words_per_second']:,.0f} |"
        )
    fig, ax = plt.subplots(figsize=(6, 4))
    for method in ("pooled", "averaged"):
        points = [r for r in rows if r["method"] == method]
        ax.plot([r["predictions_per_token"] for r in points], [100 * r["punct_f"] for r in points], marker="o", label=method)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("predictions per token")
    ax.set_ylabel("micro F1 (test2011)")
    ax.set_title("F1 against predictions per token")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(output / f"{name}.png", dpi=120)
    plt.close(fig)
    return lines + ["", f"![F1 against predictions per token]({name}.png)", ""]


def streaming_section(runs: Dict[str, Dict[str, Any]], output: Path) -> List[str]:
    lines = [
        "## Streaming: F1 against lookahead, latency per word",
        "",
        "IWSLT test2011 streamed word by word (`benchmarks/streaming.py`): each word is committed after *l* more "
        "words (fixed lookahead) or once the entropy of its prediction is at most *h* nats (entropy decoding, "
        "at least 1 and at most 8 words ahead; mean lookahead shown). Offline: the same model on whole documents. "
        "Latency: the time of each `Streamer.push` (the model reads the left context and the pending words).",
        "",
        "| model | words | decoding | micro F1 | offline F1 | mean lookahead | p50 ms | p95 ms |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    fig, ax = plt.subplots(figsize=(6, 4))
    for run, data in runs.items():
        offline = 100 * data["offline"]["punct_f"]
        for row in data["fixed"]:
            lines.append(f"| {run} | {data['words']:,} | lookahead {row['lookahead']} | {100 * row['punct_f']:.1f} "
                         f"| {offline:.1f} | {row['lookahead']} | | |")
        subset_offline = 100 * data["offline_stream_words"]["punct_f"]
        for row in data["streamed"]:
            what = f"lookahead {row['value']}" if row["policy"] == "fixed" else f"entropy h = {row['value']}"
            lines.append(f"| {run} | {data['stream_words']:,} | {what} (Streamer) | {100 * row['punct_f']:.1f} "
                         f"| {subset_offline:.1f} | {row['mean_lookahead']:.2f} | {row['latency_ms_p50']:.1f} "
                         f"| {row['latency_ms_p95']:.1f} |")
        line = ax.plot([r["lookahead"] for r in data["fixed"]], [100 * r["punct_f"] for r in data["fixed"]],
                       marker="o", label=f"{run}: fixed lookahead")[0]
        entropy = [r for r in data["streamed"] if r["policy"] == "entropy"]
        ax.plot([r["mean_lookahead"] for r in entropy], [100 * r["punct_f"] for r in entropy], marker="x",
                linestyle="--", color=line.get_color(), label=f"{run}: entropy decoding")
        ax.axhline(offline, color=line.get_color(), linestyle=":", linewidth=1)
    ax.set_xlabel("lookahead (words; mean for entropy decoding)")
    ax.set_ylabel("micro F1 (test2011)")
    ax.set_title("Streaming: F1 against lookahead (dotted: offline)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(output / "streaming.png", dpi=120)
    plt.close(fig)
    threads = sorted({data["threads"] for data in runs.values()})
    lines += ["", f"Torch threads: {', '.join(map(str, threads))}; left context: "
              + ", ".join(f"{run} {data['left_context']} words" for run, data in runs.items()) + ".", "",
              "![F1 against lookahead](streaming.png)", ""]
    return lines


def memory_lines(memory: Dict[str, Any]) -> List[str]:
    samples = memory["samples"]
    rss = ", ".join(f"{s['rss_mb']:.0f}" for s in samples)
    return [
        f"Memory over a long stream (`benchmarks/stream_memory.py`, the CPU recipe, lookahead "
        f"{memory['lookahead']}): resident MB after every {samples[0]['words']:,} words, up to "
        f"{samples[-1]['words']:,}" + ("" if memory.get("done", True) else f" (of {memory['words']:,} planned)")
        + f": {rss}; {memory['growth_mb_after_first_sample']:+.1f} MB from the first sample to the last, "
        f"{samples[-1]['seconds'] / samples[-1]['words'] * 1000:.2f} ms per word on average (a low-priority "
        "process beside the other benchmarks, so not a latency figure).",
        "",
    ]


SPEED_PATHS = {"pipeline": "spaCy pipeline", "plain_model": "plain model (PyTorch)", "plain": "plain pass (encoder only)"}


def speed_section(speed: Dict[str, Any]) -> List[str]:
    best, precisions = speed["best"], list(speed["best"])
    rounds = len(speed["words_per_second"][precisions[0]]["plain"])
    lines = [
        "## Transformer on the CPU: the spaCy pipeline against a plain Hugging Face pass",
        "",
        f"`benchmarks/trf_speed.py`, {speed['words']:,} words of test2011 in {speed['lines']:,} lines, batch "
        f"{speed['batch_size']}, {speed['threads']} torch threads, the same weights; the best of {rounds} "
        "alternating rounds. The plain pass is the tokenizer and the encoder only; the plain model is the same "
        "model in plain PyTorch: the encoder, word pieces averaged per word and the pipeline's heads (context "
        "encoder included) with its weights (in float32 its punctuation probabilities differ from the "
        f"pipeline's by {speed['plain_model_difference']['float32']:.0e} at most); the pipeline adds "
        "alignment, decoding and the rewrite. "
        + ("bfloat16: the encoder under CPU autocast (`cpu_precision`; this CPU has bfloat16 instructions); "
           if "bfloat16" in precisions else "No bfloat16: this CPU lacks bfloat16 instructions. ")
        + "int8: dynamic quantization of the encoder's linear layers (`int8_quantizer`).",
        "",
        "| path | " + " | ".join(f"{p} words/s" for p in precisions) + " |",
        "|---|" + "---:|" * len(precisions),
    ]
    for path, name in SPEED_PATHS.items():
        cells = [f"{best[precisions[0]][path]:,.0f}"]
        cells += [f"{best[p][path]:,.0f} (×{speed['speedup'][p][path]:.2f})" for p in precisions[1:]]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("| pipeline's test2011 micro F1 | " + " | ".join(f"{100 * speed['f1'][p]:.1f}" for p in precisions) + " |")
    shares = ", ".join(
        f"{100 * speed['pipeline_vs_plain_model'][p]:.0f}% of the plain model's and "
        f"{100 * speed['pipeline_vs_plain'][p]:.0f}% of the plain pass's in {p}"
        for p in precisions
    )
    lines += ["", f"The pipeline reads {shares}.", ""]
    return lines


def train_step_section(steps: Dict[str, Any], frozen: Optional[Dict[str, Any]]) -> List[str]:
    """Training-step seconds of the small pretrained recipe (benchmarks/train_step.py,
    benchmarks/frozen_layers.py)."""
    rounds = f"best of {steps['rounds']} alternating rounds of {steps['steps']} steps"
    lines = [
        "## Training steps of the small pretrained recipe (configs/en_small_trf.cfg)",
        "",
        "`benchmarks/train_step.py`: reading the corpus and `nlp.update` on 1,000 words with the recipe's "
        f"encoder cut to a number of layers and a given attention dropout, {steps['threads']} threads, {rounds}.",
        "",
        "| layers | attention dropout | seconds a step | steps a minute | against the first |",
        "|---:|---:|---:|---:|---:|",
    ]
    first = next(iter(steps["best"].values()))
    for variant, seconds in steps["best"].items():
        layers, dropout = variant.split(":")
        lines.append(f"| {layers} | {dropout} | {seconds:.3f} | {60 / seconds:.0f} | ×{first / seconds:.2f} |")
    if frozen:
        lines += [
            "",
            f"`benchmarks/frozen_layers.py`: the six-layer encoder alone, forward and backward over "
            f"{frozen['windows']} windows of {frozen['pieces']} pieces, {frozen['threads']} threads, "
            "its lowest layers frozen:",
            "",
            "| layers frozen | seconds a step | against none |",
            "|---:|---:|---:|",
        ]
        none = frozen["seconds"]["0"]
        lines += [f"| {n} | {s:.3f} | ×{none / s:.2f} |" for n, s in frozen["seconds"].items()]
    return lines + [""]


def scaling_section(scaling: Dict[str, Any]) -> List[str]:
    lines = [
        "## Ray Data: measured on this machine, projected to a cluster",
        "",
        f"`benchmarks/ray_scaling.py`: {scaling['words']:,} words in {scaling['records']:,} JSONL records (test2011 "
        "in 40-word lines, repeated), JSONL in and out, the CPU recipe. *single process*: `spacy-punct punctuate "
        "--input-format jsonl --format jsonl`, start included; *workers*: `punctuate_files` on a local Ray with "
        f"2 CPUs, one thread per actor, start included; 1 and 2 workers alternating, best of {scaling['rounds']}.",
        "",
        "| run | words/s | seconds |",
        "|---|---:|---:|",
    ]
    for name, run in scaling["runs"].items():
        lines.append(f"| {name} | {run['words_per_second']:,.0f} | {run['seconds']:.1f} |")
    lines += [
        "",
        f"Scaling efficiency with 2 workers: {scaling['scaling_efficiency_2_workers']:.2f} over whole runs; "
        f"{scaling['steady_scaling_efficiency_2_workers']:.2f} at the steady rate, the fixed start of a run "
        f"({scaling['fixed_seconds']['1']:.1f} s with 1 worker, {scaling['fixed_seconds']['2']:.1f} s with 2) taken "
        f"out: {scaling['steady_words_per_second']['1']:,.0f} and {scaling['steady_words_per_second']['2']:,.0f} "
        "words/s.",
        "",
        "**Projection** (not measured): the fixed start once, then each worker at one worker's steady rate, "
        "one core per worker on enough machines.",
        "",
        "| workers | words | hours | words/s |",
        "|---:|---:|---:|---:|",
    ]
    for row in scaling["projection"]:
        lines.append(f"| {row['workers']} | {row['words']:,} | {row['hours']:.2f} | {row['words_per_second']:,.0f} |")
    return lines + [""]


def recipes_section(summary: Dict[str, Any], output: Path) -> List[str]:
    """Every recipe's test2011 F1 against its words/s, measured side by side."""
    recipes = summary["recipes"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, run in recipes.items():
        ax.scatter(run["words_per_second"], 100 * run["punct_f"])
        ax.annotate(name, (run["words_per_second"], 100 * run["punct_f"]), textcoords="offset points", xytext=(5, 4))
    ax.set_xscale("log")
    ax.set_xlabel(f"words/s (nlp.pipe, {summary['threads']} threads, log scale)")
    ax.set_ylabel("test2011 micro F1")
    ax.set_title("Accuracy against speed, every recipe")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(output / "f1_vs_speed.png", dpi=120)
    plt.close(fig)
    lines = [
        "## Every recipe: accuracy against speed",
        "",
        f"`benchmarks/recipes.py`: IWSLT test2011 as whole documents (micro F1, and with 10% simulated recognition "
        f"errors), and `nlp.pipe` over test2011 cut into {summary['lines']:,} lines of 40 words "
        f"({summary['words']:,} words, batch {summary['batch_size']}, {summary['threads']} threads), the recipes "
        f"alternating, best of {summary['rounds']} rounds.",
        "",
        "| recipe | micro F1 | QUESTION | + noise | words/s |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, run in recipes.items():
        lines.append(f"| {name} | {100 * run['punct_f']:.1f} | {100 * run['question_f']:.1f} | "
                     f"{100 * run['punct_f_asr_noise_0.1']:.1f} | {run['words_per_second']:,.0f} |")
    return lines + ["", "![F1 against words/s](f1_vs_speed.png)", ""]


def read_sections(path: Path) -> Dict[str, List[str]]:
    """The sections of an existing RESULTS.md (a file without markers is one
    section, "main")."""
    if not path.exists():
        return {}
    sections: Dict[str, List[str]] = {}
    name = "main"
    for line in path.read_text(encoding="utf8").split("\n"):
        if line.startswith("<!-- section: "):
            name = line[len("<!-- section: ") : -len(" -->")]
            sections[name] = []
        else:
            sections.setdefault(name, []).append(line)
    return sections


def write_sections(path: Path, sections: Dict[str, List[str]]) -> None:
    text = "\n".join(f"<!-- section: {name} -->\n" + "\n".join(lines) for name, lines in sections.items())
    path.write_text(text.rstrip("\n") + "\n", encoding="utf8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", type=Path, default=Path("metrics"))
    parser.add_argument("--training", type=Path, default=Path("training"))
    parser.add_argument("--output", type=Path, default=Path("benchmarks"))
    args = parser.parse_args()
    args.output.mkdir(parents=True, exist_ok=True)
    results = args.output / "RESULTS.md"
    sections = read_sections(results)
    if all(_has_scores(args.metrics / run) for run in MAIN_RUNS):
        sections["main"] = main_section(args)
    for run in RUNS:
        if run not in MAIN_RUNS and _has_scores(args.metrics / run):
            sections[f"run-{run}"] = summary_table(args.metrics, args.training, [run]) + run_section(
                run, args.metrics, args.training
            )
    streams = {run: load(args.metrics / run / "streaming.json") for run in RUNS
               if (args.metrics / run / "streaming.json").exists()}
    if streams:
        sections["streaming"] = streaming_section(streams, args.output)
        memory = args.metrics / "en" / "stream_memory.json"
        if memory.exists():
            sections["streaming"] += memory_lines(load(memory))
    small_windows = args.metrics / "en-small-trf" / "windows.json"
    if small_windows.exists():
        sections["windows-small-trf"] = windows_section(
            load(small_windows), args.output, "predictions_per_token_small_trf",
            "Predictions per token, small pretrained transformer (en_small_trf)")
    speed = args.metrics / "en-small-trf" / "speed.json"
    if speed.exists():
        sections["trf-speed"] = speed_section(load(speed))
    train_step = args.metrics / "en-small-trf" / "train_step.json"
    if train_step.exists():
        frozen = args.metrics / "en-small-trf" / "frozen_layers.json"
        sections["train-step-small-trf"] = train_step_section(
            load(train_step), load(frozen) if frozen.exists() else None)
    recipes = args.metrics / "recipes.json"
    if recipes.exists():
        sections["recipes"] = recipes_section(load(recipes), args.output)
    scaling = args.metrics / "ray" / "scaling.json"
    if scaling.exists():
        sections["ray-scaling"] = scaling_section(load(scaling))
    write_sections(results, sections)
    print(f"Wrote {results}")


def _has_scores(folder: Path) -> bool:
    return folder.is_dir() and any(p.stem not in NOT_SCORES for p in folder.glob("*.json"))


def main_section(args) -> List[str]:
    lines = [
        "# Benchmark results",
        "",
        "Written by `spacy project run benchmark` (`benchmarks/report.py`); every figure below was measured "
        "by that workflow on a 2-core CPU, models trained on the training portions only.",
        "Test sets are read as whole documents, lower-cased, without punctuation; `asr-noise-0.1` is test2011",
        "with 10% of the words altered by `spacy_punct.asr_noise.v1` (substituted by, or preceded by, an unknown",
        "word, or deleted; seed 0).",
        "",
    ] + summary_table(args.metrics, args.training, MAIN_RUNS)
    for run in MAIN_RUNS:
        if _has_scores(args.metrics / run):
            lines += run_section(run, args.metrics, args.training)
    english = args.metrics / "en" / "test2011.json"
    if english.exists():
        plot_confusion(load(english), args.output, "English test2011, CPU recipe")
        lines += ["## English confusion matrix (test2011, CPU recipe)", "", "![confusion matrix](confusion_en.png)", ""]
    windows = args.metrics / "en-tiny-trf" / "windows.json"
    if windows.exists():
        lines += windows_section(load(windows), args.output)
    if plot_training(args.training, args.output):
        lines += ["## Held-out F1 during training", "", "![held-out F1 during training](dev_f1.png)", ""]
    return lines


if __name__ == "__main__":
    main()
