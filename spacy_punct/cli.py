"""The `spacy-punct` command line."""
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterator, NoReturn, Optional, TextIO

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from tqdm import tqdm

from .convert import CONVERTERS, ConversionError, ConversionStats, ConvertOptions
from .corpus import PunctCorpus, read_docbins, strip_docs
from .labels import EMPTY, MARK_LABELS
from .punctuator import find_punctuator

app = typer.Typer(help="Punctuation restoration with spaCy.", no_args_is_help=True)


@app.callback()
def main() -> None:
    """Punctuation restoration with spaCy."""


def fail(message: str) -> NoReturn:
    """Print an error and exit with status 1."""
    typer.secho(f"Error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(1)


def load_punctuating_pipeline(model: str) -> Language:
    """Load a pipeline and check that it has a punctuator."""
    try:
        nlp = spacy.load(model)
    except OSError as e:
        fail(f"cannot load pipeline {model!r}: {e}")
    try:
        find_punctuator(nlp)
    except ValueError as e:
        fail(f"pipeline {model!r}: {e}")
    return nlp


def apply_windows(nlp: Language, window: int, stride: int) -> None:
    """Set the transformers' window and stride when asked to."""
    from .windows import set_windows

    if window or stride:
        try:
            set_windows(nlp, window, stride or window)
        except ValueError as e:
            fail(str(e))


@app.command()
def convert(
    format: str = typer.Argument(..., help=f"Source format: {', '.join(CONVERTERS)}."),
    input: Path = typer.Argument(..., help="Input file, or a folder of input files.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language (its tokenizer and clitics)."),
    doc_length: int = typer.Option(2000, help="Words per document where the source marks no documents."),
    blocks: bool = typer.Option(False, help="text: one document per blank-line-separated block."),
) -> None:
    """Convert a corpus to a DocBin of natural punctuated text."""
    if format not in CONVERTERS:
        fail(f"unknown format {format!r}; choose one of {', '.join(CONVERTERS)}.")
    nlp = spacy.blank(lang)
    stats = ConversionStats()
    options = ConvertOptions(doc_length=doc_length, blocks=blocks)
    try:
        docs = list(CONVERTERS[format](input, nlp, stats, options))
    except ConversionError as e:
        fail(str(e))
    if not docs:
        fail(f"{input} holds no text to convert.")
    output.parent.mkdir(parents=True, exist_ok=True)
    DocBin(docs=docs).to_disk(output)
    typer.echo(f"Wrote {output}\n{stats.summary()}")


@app.command()
def stats(
    data: Path = typer.Argument(..., help="A .spacy file or a folder of them.", exists=True),
    lang: str = typer.Option("en", help="Language of the texts."),
) -> None:
    """Count documents, words and labels as the training reader reads them."""
    nlp = spacy.blank(lang)
    counts: Counter = Counter()
    n_docs = 0
    try:
        for example in PunctCorpus(data, max_length=0, lowercase=False)(nlp):
            n_docs += 1
            counts.update(MARK_LABELS.get(t._.punct, EMPTY) for t in example.reference)
    except ValueError as e:
        fail(str(e))
    typer.echo(f"documents: {n_docs}\nwords: {sum(counts.values())}")
    for label, n in sorted(counts.items()):
        typer.echo(f"{label}: {n}")


def _read_documents(stream: TextIO, whole: bool, progress: Optional[int]) -> Iterator[str]:
    """Lines (or the whole stream) as documents, with a progress bar over lines."""
    if whole:
        yield stream.read()
        return
    for line in tqdm(stream, total=progress, unit=" lines", disable=progress is None, file=sys.stderr):
        yield line.rstrip("\r\n")


def _as_json(text: str, doc: Doc) -> Dict[str, Any]:
    return {
        "text": text,
        "punctuated": doc.text,
        "sentences": [sent.text for sent in doc.sents] if len(doc) else [],
        "tokens": [
            {
                "text": token.text,
                "start": token.idx,
                "end": token.idx + len(token.text),
                "source": token._.source_i,
                "source_start": token._.source_idx,
                "punct": token._.punct,
            }
            for token in doc
        ],
    }


@app.command()
def punctuate(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    input: Optional[Path] = typer.Argument(None, help="Text file (default: stdin).", exists=True, dir_okay=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Output file (default: stdout)."),
    format: str = typer.Option("text", help="text: the punctuated text; jsonl: one JSON object per document."),
    whole: bool = typer.Option(False, "--whole", help="The whole input is one document (default: one per line)."),
    batch_size: int = typer.Option(64, help="Documents per batch."),
    window: int = typer.Option(0, help="Transformers: tokens per window (0: as configured)."),
    stride: int = typer.Option(0, help="Transformers: tokens between window starts; window/stride predictions per token."),
) -> None:
    """Punctuate text. One document per line (empty lines stay empty) keeps
    memory bounded on files of any size."""
    if format not in ("text", "jsonl"):
        fail(f"unknown format {format!r}; choose text or jsonl.")
    nlp = load_punctuating_pipeline(model)
    apply_windows(nlp, window, stride)
    find_punctuator(nlp)[1].rewrite = True
    if input is None:
        source: TextIO = sys.stdin
        total = None
    else:
        with input.open(encoding="utf8", errors="replace", newline="") as counted:
            total = sum(1 for _ in counted)
        source = input.open(encoding="utf8", errors="replace", newline="")
    target = output.open("w", encoding="utf8") if output else sys.stdout
    try:
        texts = _read_documents(source, whole, None if whole or input is None else total)
        for doc, text in nlp.pipe(((t, t) for t in texts), as_tuples=True, batch_size=batch_size):
            if format == "jsonl":
                target.write(json.dumps(_as_json(text, doc), ensure_ascii=False) + "\n")
            else:
                target.write(doc.text + "\n")
    finally:
        if output:
            target.close()
        if input is not None:
            source.close()


@app.command()
def evaluate(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    data: Path = typer.Argument(..., help="A .spacy test set, or a folder whose .spacy files are test sets.", exists=True),
    output_dir: Optional[Path] = typer.Option(None, "--output-dir", "-o", help="Write <test set>.json and .md here."),
    lowercase: bool = typer.Option(True, help="Lower-case the input words, as ASR output is."),
    max_length: int = typer.Option(0, help="Cut documents into chunks of this many words (0: whole documents)."),
    asr_noise: float = typer.Option(
        0.0, help="Simulate recognition errors: alter this share of the words (see spacy_punct.asr_noise.v1)."
    ),
    seed: int = typer.Option(0, help="Seed of the simulated recognition errors."),
    window: int = typer.Option(0, help="Transformers: tokens per window (0: as configured)."),
    stride: int = typer.Option(0, help="Transformers: tokens between window starts; window/stride predictions per token."),
) -> None:
    """Score a pipeline on test sets: per-class P/R/F1, micro and macro F1,
    slot error rate, confusion matrix, sentence boundaries and speed."""
    from .augment import create_asr_noise_augmenter

    nlp = load_punctuating_pipeline(model)
    apply_windows(nlp, window, stride)
    test_sets = sorted(data.glob("*.spacy")) if data.is_dir() else [data]
    if not test_sets:
        fail(f"no .spacy files in {data}.")
    if not 0.0 <= asr_noise <= 1.0:
        fail(f"--asr-noise must be between 0 and 1, not {asr_noise}.")
    augmenter = create_asr_noise_augmenter(level=asr_noise) if asr_noise else None
    suffix = f".asr-noise-{asr_noise:g}" if asr_noise else ""
    for test_set in test_sets:
        random.seed(seed)
        try:
            corpus = PunctCorpus(test_set, lowercase=lowercase, max_length=max_length, augmenter=augmenter)
            examples = list(corpus(nlp))
        except ValueError as e:
            fail(str(e))
        if not examples:
            fail(f"{test_set} holds no documents.")
        start = time.perf_counter()
        scores = nlp.evaluate(examples)
        seconds = time.perf_counter() - start
        n_words = sum(len(eg.reference) for eg in examples)
        result = {key: value for key, value in scores.items() if key.startswith(("punct_", "sents_"))}
        result.update({"words": n_words, "words_per_second": n_words / seconds})
        table = format_scores(result)
        name = test_set.stem + suffix
        typer.echo(f"{test_set}{' with ' + suffix[1:] if suffix else ''}\n{table}\n")
        if output_dir:
            output_dir.mkdir(parents=True, exist_ok=True)
            (output_dir / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
            (output_dir / f"{name}.md").write_text(table + "\n", encoding="utf8")


def format_scores(scores: Dict[str, Any]) -> str:
    """A markdown table of the per-class and overall scores."""
    rows = ["| label | P | R | F1 | support |", "|---|---:|---:|---:|---:|"]
    for label, s in scores["punct_per_type"].items():
        rows.append(f"| {label} | {100 * s['p']:.1f} | {100 * s['r']:.1f} | {100 * s['f']:.1f} | {s['support']} |")
    support = sum(s["support"] for s in scores["punct_per_type"].values())
    rows.append(
        f"| **overall (micro)** | {100 * scores['punct_p']:.1f} | {100 * scores['punct_r']:.1f} "
        f"| {100 * scores['punct_f']:.1f} | {support} |"
    )
    rows.append("")
    rows.append(
        f"macro F1 {100 * scores['punct_macro_f']:.1f} · SER {100 * scores['punct_ser']:.1f} · "
        f"sentence boundaries P/R/F1 {100 * scores['sents_p']:.1f}/{100 * scores['sents_r']:.1f}/"
        f"{100 * scores['sents_f']:.1f} · {scores['words']} words, {scores['words_per_second']:.0f} words/s"
    )
    return "\n".join(rows)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def train(
    ctx: typer.Context,
    config: Path = typer.Argument(..., help="The training config.", exists=True, dir_okay=False),
    output: Path = typer.Option(..., "--output", "-o", help="Where model-best and model-last go."),
    max_minutes: float = typer.Option(0, help="Stop training after this many minutes (0: as the config says)."),
    gpu_id: int = typer.Option(-1, help="GPU id, or -1 for the CPU."),
) -> None:
    """`spacy train` with a time limit. Further options override the config,
    as with spacy train (e.g. --paths.train corpus/train.spacy). Writes the
    training time to <output>/training.json and, with spacy.ConsoleLogger.v3,
    the evaluations to <output>/log.jsonl."""
    from spacy.cli._util import parse_config_overrides

    from .training import train_for

    start = time.perf_counter()
    stopped = train_for(config, output, max_minutes, gpu_id, parse_config_overrides(ctx.args))
    minutes = (time.perf_counter() - start) / 60
    reason = "time limit reached" if stopped else "config's stopping rule"
    summary = {"minutes": minutes, "ended_by": reason}
    (output / "training.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf8")
    typer.echo(f"Training ended after {minutes:.1f} minutes ({reason}); pipelines in {output}")


@app.command()
def split(
    input: Path = typer.Argument(..., help="A .spacy file (or folder) to split.", exists=True),
    train_output: Path = typer.Argument(..., help="The .spacy file for the training part."),
    dev_output: Path = typer.Argument(..., help="The .spacy file for the held-out part."),
    dev_fraction: float = typer.Option(0.1, help="Share of the documents held out (the last ones)."),
    lang: str = typer.Option("en", help="Language of the texts."),
) -> None:
    """Hold out the last documents of a corpus as a dev set."""
    if not 0 < dev_fraction < 1:
        fail(f"--dev-fraction must be between 0 and 1, not {dev_fraction}.")
    try:
        docs = list(read_docbins(input, spacy.blank(lang).vocab))
    except ValueError as e:
        fail(str(e))
    if len(docs) < 2:
        fail(f"{input} has {len(docs)} document(s): too few to split.")
    n_dev = min(len(docs) - 1, max(1, round(len(docs) * dev_fraction)))
    for path, part in ((train_output, docs[:-n_dev]), (dev_output, docs[-n_dev:])):
        path.parent.mkdir(parents=True, exist_ok=True)
        DocBin(docs=part, store_user_data=True).to_disk(path)
        typer.echo(f"Wrote {len(part)} docs, {sum(len(d) for d in part)} tokens to {path}")


@app.command()
def tune(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    dev: Path = typer.Argument(..., help="A .spacy dev set (never the test set).", exists=True),
    output: Path = typer.Argument(..., help="Where to save the pipeline with the tuned thresholds."),
    max_length: int = typer.Option(0, help="Cut documents into chunks of this many words (0: whole documents)."),
) -> None:
    """Tune one decision threshold per class on dev data for the best micro F1,
    and save a copy of the pipeline that uses them."""
    from .tuning import collect_probs, tune_thresholds

    nlp = load_punctuating_pipeline(model)
    name, pipe = find_punctuator(nlp)
    try:
        examples = list(PunctCorpus(dev, max_length=max_length)(nlp))
    except ValueError as e:
        fail(str(e))
    probs, gold = collect_probs(nlp, examples)
    thresholds, before, after = tune_thresholds(probs, gold, pipe.labels)
    typer.echo(f"dev micro F1 {100 * before:.1f} -> {100 * after:.1f} with thresholds {thresholds}")
    tuned = spacy.load(model, config={"components": {name: {"thresholds": thresholds}}})
    tuned.to_disk(output)
    typer.echo(f"Saved {output}")


@app.command()
def strip(
    input: Path = typer.Argument(..., help="A .spacy file of punctuated text, or a folder of them.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language of the texts."),
    cased: bool = typer.Option(False, "--cased", help="Keep the case of the words."),
) -> None:
    """Write the gold form of a test set: bare words with their gold marks in
    `token._.punct`, the form that `spacy evaluate` reads."""
    vocab = spacy.blank(lang).vocab
    try:
        docs = list(strip_docs(read_docbins(input, vocab), lowercase=not cased))
    except ValueError as e:
        fail(str(e))
    output.parent.mkdir(parents=True, exist_ok=True)
    DocBin(docs=docs, store_user_data=True).to_disk(output)
    n_words = sum(len(doc) for doc in docs)
    typer.echo(f"Wrote {len(docs)} docs, {n_words} words to {output}")


if __name__ == "__main__":
    app()
