"""`spacy-punct evaluate`: score a pipeline on test sets."""

import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer
from spacy.language import Language
from tqdm import tqdm

from ..evaluation.repair import repair_table, score_repair
from ..evaluation.score_tables import score_table
from ..evaluation.scoring import RUN_FILE, run_record
from ..evaluation.scoring import evaluate as evaluate_pipeline
from ..inference.options import PunctOptions
from ..jobs.inputs import load_punctuator, use_threads
from ..runtime.threads import DEFAULT_THREADS
from ..word_records import read_docbins
from ._util import (
    CPU_PRECISION_HELP,
    GPU_HELP,
    STRIDE_HELP,
    THREADS_HELP,
    WINDOW_HELP,
    app,
    fail,
    use_gpu_or_fail,
)


@app.command(short_help="Score a pipeline on test sets.")
def evaluate(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    data: Path = typer.Argument(
        ..., help="A .spacy test set, or a folder whose .spacy files are test sets.", exists=True
    ),
    output_dir: Optional[Path] = typer.Option(
        None,
        "--output-dir",
        "-o",
        help="Write <test set>.json and .md here, and run.json (the pipeline, its description and targets): projects/benchmarks/metrics/<run> for the report.",
    ),
    input_case: str = typer.Option(
        "lower",
        help="How the input words are written: lower (as most recognisers write), upper, title, or written (as in the test set).",
    ),
    max_length: int = typer.Option(0, help="Cut documents into chunks of this many words (0: whole documents)."),
    asr_noise: float = typer.Option(
        0.0, help="Simulate recognition errors: alter this share of the words (see spacy_punct.asr_noise.v1)."
    ),
    asr_noise_words: bool = typer.Option(
        False, help="The simulated errors put other words of the text in place of the [UNK] placeholder."
    ),
    spoken_numbers: bool = typer.Option(
        False,
        help="English: write the numbers as a recogniser does (1995 as nineteen ninety five, 25% as twenty five percent).",
    ),
    gold_marks: bool = typer.Option(
        False,
        help="Write the test set's marks where the punctuator's decisions go: the truecaser scored with perfect sentence ends.",
    ),
    input_marks: bool = typer.Option(
        False,
        help="Read each document with its punctuation and add no mark (--case-only): the truecaser scored on punctuated text.",
    ),
    keep_quotes: bool = typer.Option(
        False,
        help="Read each document with its quotes, brackets and dashes (the marks no prediction replaces) and punctuate it.",
    ),
    repair: bool = typer.Option(
        False,
        help="Score the repair mode: runs of 1-6 sentences (about half the words) lose their marks and case, the "
        "rest stay as written; F1 on the stripped runs against plain mode on the fully stripped text, and the "
        "intact runs' marks and case kept.",
    ),
    seed: int = typer.Option(0, help="Seed of the simulated recognition errors and of --repair's runs."),
    repair_within: float = typer.Option(
        0.0,
        min=0.0,
        max=1.0,
        help="With --repair: the share of the runs' edges that fall within a sentence, as where a recogniser's "
        "marks vanish mid-sentence (0: whole sentences).",
    ),
    window: int = typer.Option(0, min=0, help=WINDOW_HELP),
    stride: int = typer.Option(0, min=0, help=STRIDE_HELP),
    cpu_precision: str = typer.Option("", help=CPU_PRECISION_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
    gpu_id: int = typer.Option(-1, help=GPU_HELP),
) -> None:
    """Score a pipeline on test sets: per-class P/R/F1, micro and macro F1,
    slot error rate, confusion matrix, sentence boundaries and speed."""
    use_threads(threads)
    use_gpu_or_fail(gpu_id)
    nlp = load_punctuator(model)
    PunctOptions(window=window, stride=stride, cpu_precision=cpu_precision).apply_encoder_options(nlp)
    test_sets = sorted(data.glob("*.spacy")) if data.is_dir() else [data]
    if not test_sets:
        fail(f"no .spacy files in {data}.")
    if output_dir:
        output_dir.mkdir(parents=True, exist_ok=True)
        (output_dir / RUN_FILE).write_text(json.dumps(run_record(nlp, model), indent=2) + "\n", encoding="utf8")
    suffix = (f".asr-noise-{asr_noise:g}" if asr_noise else "") + ("-words" if asr_noise and asr_noise_words else "")
    suffix = (".spoken-numbers" if spoken_numbers else "") + suffix
    suffix += (f".{input_case}" if input_case != "lower" else "") + (".gold-marks" if gold_marks else "")
    suffix += (".input-marks" if input_marks else "") + (".keep-quotes" if keep_quotes else "")
    if repair:
        _evaluate_repair(nlp, test_sets, output_dir, seed, repair_within)
        return
    for test_set in test_sets:
        bar = tqdm(desc=test_set.name, unit=" words", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False)
        try:
            result = evaluate_pipeline(
                nlp,
                test_set,
                input_case=input_case,
                max_length=max_length,
                asr_noise=asr_noise,
                asr_noise_words=asr_noise_words,
                spoken_numbers=spoken_numbers,
                gold_marks=gold_marks,
                input_marks=input_marks,
                keep_quotes=keep_quotes,
                seed=seed,
                progress=bar.update,
            )
        except ValueError as e:
            fail(str(e))
        finally:
            bar.close()
        _report(test_set, suffix, result, score_table(result), output_dir)


def _evaluate_repair(
    nlp: Language, test_sets: List[Path], output_dir: Optional[Path], seed: int, within: float
) -> None:
    """`evaluate --repair`: each test set's repair scores."""
    for test_set in test_sets:
        bar = tqdm(desc=test_set.name, unit=" words", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False)
        try:
            docs = list(read_docbins(test_set, nlp.vocab))
            result = score_repair(nlp, docs, seed=seed, within=within, progress=bar.update)
        except ValueError as e:
            fail(str(e))
        finally:
            bar.close()
        suffix = ".repair" + (f"-within-{within:g}" if within else "")
        _report(test_set, suffix, result, repair_table(result), output_dir)


def _report(test_set: Path, suffix: str, result: Dict[str, Any], table: str, output_dir: Optional[Path]) -> None:
    """Print a test set's table; write it and its JSON as <set><suffix>.md and .json."""
    typer.echo(f"{test_set}{' with ' + suffix[1:] if suffix else ''}\n{table}\n")
    if output_dir:
        name = test_set.stem + suffix
        (output_dir / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
        (output_dir / f"{name}.md").write_text(table + "\n", encoding="utf8")
