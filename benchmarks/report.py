"""Write benchmarks/RESULTS.md from the measurements kept in the repository,
never typed: benchmarks/metrics/<run>/*.json (`spacy-punct evaluate`, and the
benchmark scripts' outputs: windows.json, streaming.json, speed.json, ...; a
run's training.json from `spacy-punct train`) and benchmarks/speed-*.json
(`spacy-punct benchmark`, pipelines side by side). Every section comes from
the files that are there now; plots need matplotlib (the benchmark extra).

    python benchmarks/report.py            # write RESULTS.md and its plots
    python benchmarks/report.py --check    # fail if RESULTS.md is not what the files give
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from spacy_punct.evaluation import score_table

ROOT = Path(__file__).resolve().parent.parent

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
    "en_punct_trf": "The bundled default English pipeline, `en_punct_trf` (int8, windows every 32 words)",
    "en_punct_sm": "The bundled fast English pipeline, `en_punct_sm`",
}

# micro F1 targets of the CPU recipes (issue: accuracy on real data)
TARGETS = {("en", "test2011"): 66.0, ("bn", "test_news"): 80.0, ("hu", "dev"): 60.0}


# the runs of the main section: the recipes on every corpus (the others get sections of their own)
MAIN_RUNS = ("en", "bn", "hu", "en-tiny-trf")
# metrics/<run>/*.json files that are not `spacy-punct evaluate` scores (by name, or name-<variant>)
NOT_SCORES = ("windows", "streaming", "stream_memory", "speed", "scaling", "frozen_layers", "train_step", "training",
              "cold-start")


def is_scores(path: Path) -> bool:
    """Whether a metrics file holds `spacy-punct evaluate` scores."""
    return path.stem not in NOT_SCORES and path.stem.partition("-")[0] not in NOT_SCORES


def pyplot():
    """matplotlib's pyplot, drawing to files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf8"))


def summary_table(metrics: Path, runs: Sequence[str]) -> List[str]:
    rows = [
        "| run | test set | micro F1 | target | macro F1 | training minutes | words/s |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        summary = metrics / run / "training.json"
        minutes = f"{load(summary)['minutes']:.1f}" if summary.exists() else ""
        for path in sorted((metrics / run).glob("*.json")) if (metrics / run).is_dir() else []:
            if not is_scores(path):
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


def run_section(run: str, metrics: Path) -> List[str]:
    lines = [f"## {RUNS.get(run, run)}", ""]
    summary = metrics / run / "training.json"
    if summary.exists():
        info = load(summary)
        ended = "the time limit" if info["ended_by"] == "time limit reached" else f"the {info['ended_by']}"
        lines += [f"Training: {info['minutes']:.1f} minutes on the CPU, ended by {ended}.", ""]
    for path in sorted((metrics / run).glob("*.json")):
        if not is_scores(path):
            continue
        lines += [f"### `{path.stem}`", "", score_table(load(path)), ""]
    return lines


def plot_confusion(scores: Dict[str, Any], output: Path, title: str) -> None:
    plt = pyplot()
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


def windows_section(windows: Dict[str, Any], output: Optional[Path], name: str = "predictions_per_token",
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
    if output is None:
        return lines + ["", f"![F1 against predictions per token]({name}.png)", ""]
    plt = pyplot()
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


def plot_streaming(runs: Dict[str, Dict[str, Any]], output: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for run, data in runs.items():
        line = ax.plot([r["lookahead"] for r in data["fixed"]], [100 * r["punct_f"] for r in data["fixed"]],
                       marker="o", label=f"{run}: fixed lookahead")[0]
        entropy = [r for r in data["streamed"] if r["policy"] == "entropy"]
        ax.plot([r["mean_lookahead"] for r in entropy], [100 * r["punct_f"] for r in entropy], marker="x",
                linestyle="--", color=line.get_color(), label=f"{run}: entropy decoding")
        ax.axhline(100 * data["offline"]["punct_f"], color=line.get_color(), linestyle=":", linewidth=1)
    ax.set_xlabel("lookahead (words; mean for entropy decoding)")
    ax.set_ylabel("micro F1 (test2011)")
    ax.set_title("Streaming: F1 against lookahead (dotted: offline)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(output / "streaming.png", dpi=120)
    plt.close(fig)


def streaming_section(runs: Dict[str, Dict[str, Any]], output: Optional[Path]) -> List[str]:
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
    if output is not None:
        plot_streaming(runs, output)
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


# what a speed file without "int8_layers" ran in int8 (measured before the heads' ReLU layers were)
ENCODER_INT8_LAYERS = "the encoder's linear layers"


def speed_section(speed: Dict[str, Any], title: str = "Transformer on the CPU") -> List[str]:
    best, precisions = speed["best"], list(speed["best"])
    rounds = len(speed["words_per_second"][precisions[0]]["plain"])
    lines = [
        f"## {title}: the spaCy pipeline against a plain Hugging Face pass",
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
        + f"int8: {speed.get('int8_layers', ENCODER_INT8_LAYERS)} in int8, each token's input quantized "
        "on its own (`int8_quantizer`).",
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
    stages = speed.get("stage_seconds")
    if stages:
        lines += [f"Seconds of each stage of the pipeline's pass (`stage_seconds`, the best of the rounds; a "
                  "component's predict is timed apart, its rest is annotations, decoding and the rewrite):", "",
                  "| stage | " + " | ".join(precisions) + " |", "|---|" + "---:|" * len(precisions)]
        names = list(dict.fromkeys(stage for p in precisions for stage in stages[p]))
        lines += [f"| {stage} | " + " | ".join(f"{stages[p][stage]:.3f}" if stage in stages[p] else ""
                                              for p in precisions) + " |"
                  for stage in names]
        lines.append("")
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


def plot_recipes(recipes: Dict[str, Any], threads: int, output: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, run in recipes.items():
        ax.scatter(run["words_per_second"], 100 * run["punct_f"])
        ax.annotate(name, (run["words_per_second"], 100 * run["punct_f"]), textcoords="offset points", xytext=(5, 4))
    ax.set_xscale("log")
    ax.set_xlabel(f"words/s (nlp.pipe, {threads} threads, log scale)")
    ax.set_ylabel("test2011 micro F1")
    ax.set_title("Accuracy against speed, every recipe")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(output / "f1_vs_speed.png", dpi=120)
    plt.close(fig)


def recipes_section(summary: Dict[str, Any], output: Optional[Path]) -> List[str]:
    """Every recipe's test2011 F1 against its words/s, measured side by side."""
    recipes = summary["recipes"]
    if output is not None:
        plot_recipes(recipes, summary["threads"], output)
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


def cold_start_section(run: Dict[str, Any], name: str) -> List[str]:
    """The command line's cold start (`benchmarks/cold_start.py`)."""
    seconds = run["seconds"]
    return [f"## Cold start of {name}", "",
            f"`{run['command']}` in {run['runs']} new processes: {min(seconds):.2f} to {max(seconds):.2f} s "
            f"to the first line out, median {run['median_seconds']:.2f} s; "
            f"{run['max_peak_memory_mib']:,.0f} MiB resident at most.", ""]


def side_by_side_section(speed_files: Sequence[Path]) -> List[str]:
    """Pipelines' words/s measured side by side by `spacy-punct benchmark -o`."""
    lines = ["## Speed, side by side (`spacy-punct benchmark`)", ""]
    for path in speed_files:
        run = load(path)
        names = list(run["words_per_second"])
        lines += [f"`{path.name}`: {run['threads']} thread{'s' if run['threads'] > 1 else ''}.", "",
                  "| pipeline | words/s |", "|---|---:|"]
        lines += [f"| {name} | {run['words_per_second'][name]:,.0f} |" for name in names] + [""]
    return lines


def report(metrics: Path, speeds: Sequence[Path], plots: Optional[Path]) -> str:
    """RESULTS.md from the measurement files; plots are written to `plots`
    (None: not drawn)."""
    runs = [run for run in RUNS if _has_scores(metrics / run)]
    lines = [
        "# Benchmark results",
        "",
        "Written by `python benchmarks/report.py` from the measurement files in `benchmarks/metrics/` and "
        "`benchmarks/speed-*.json` (`spacy project run report`; `--check` in the tests keeps it in step with them).",
        "Test sets are read as whole documents, lower-cased, without punctuation; `asr-noise-0.1` is test2011",
        "with 10% of the words altered by `spacy_punct.asr_noise.v1` (substituted by, or preceded by, an unknown",
        "word, or deleted; seed 0). Earlier runs of the benchmark workflow, whose measurement files were not kept,",
        "are in [docs/experiments/benchmark-runs.md](../docs/experiments/benchmark-runs.md).",
        "",
    ]
    if runs:
        lines += summary_table(metrics, runs)
    for run in runs:
        lines += run_section(run, metrics)
    english = metrics / "en" / "test2011.json"
    if english.exists():
        if plots is not None:
            plot_confusion(load(english), plots, "English test2011, CPU recipe")
        lines += ["## English confusion matrix (test2011, CPU recipe)", "", "![confusion matrix](confusion_en.png)", ""]
    if (metrics / "en-tiny-trf" / "windows.json").exists():
        lines += windows_section(load(metrics / "en-tiny-trf" / "windows.json"), plots)
    streams = {run: load(metrics / run / "streaming.json") for run in RUNS if (metrics / run / "streaming.json").exists()}
    if streams:
        lines += streaming_section(streams, plots)
        if (metrics / "en" / "stream_memory.json").exists():
            lines += memory_lines(load(metrics / "en" / "stream_memory.json"))
    small = metrics / "en-small-trf"
    if (small / "windows.json").exists():
        lines += windows_section(load(small / "windows.json"), plots, "predictions_per_token_small_trf",
                                 "Predictions per token, small pretrained transformer (en_small_trf)")
    if (small / "speed.json").exists():
        lines += speed_section(load(small / "speed.json"))
    for path in sorted((metrics / "en_punct_trf").glob("speed-*.json")):
        speed = load(path)
        lines += speed_section(speed, f"The bundled en_punct_trf, {speed['threads']} thread(s)")
    for bundle in ("en_punct_trf", "en_punct_sm"):
        if (metrics / bundle / "cold-start.json").exists():
            lines += cold_start_section(load(metrics / bundle / "cold-start.json"), bundle)
    if (small / "train_step.json").exists():
        frozen = small / "frozen_layers.json"
        lines += train_step_section(load(small / "train_step.json"), load(frozen) if frozen.exists() else None)
    if (metrics / "recipes.json").exists():
        lines += recipes_section(load(metrics / "recipes.json"), plots)
    if (metrics / "ray" / "scaling.json").exists():
        lines += scaling_section(load(metrics / "ray" / "scaling.json"))
    if speeds:
        lines += side_by_side_section(speeds)
    return "\n".join(lines).rstrip("\n") + "\n"


def _has_scores(folder: Path) -> bool:
    return folder.is_dir() and any(is_scores(p) for p in folder.glob("*.json"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", type=Path, default=ROOT / "benchmarks" / "metrics")
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks")
    parser.add_argument("--check", action="store_true", help="fail if RESULTS.md is stale; write nothing")
    args = parser.parse_args()
    results = args.output / "RESULTS.md"
    speeds = sorted(args.output.glob("speed-*.json"))
    text = report(args.metrics, speeds, None if args.check else args.output)
    if args.check:
        if not results.exists() or results.read_text(encoding="utf8") != text:
            sys.exit(f"{results} is stale: run python benchmarks/report.py")
        print(f"{results} is up to date.")
        return
    results.write_text(text, encoding="utf8")
    print(f"Wrote {results}")


if __name__ == "__main__":
    main()
