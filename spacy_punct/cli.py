"""The `spacy-punct` command line: thin wrappers over the library."""
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterator, List, NoReturn, Optional, TextIO, Tuple

import spacy
import typer
from spacy.language import Language
from spacy.tokens import DocBin
from tqdm import tqdm

from . import textio
from .captions import CAPTION_FORMATS, CaptionWord, CueBuilder, caption_header, doc_caption_words, format_cue
from .convert import CONVERTERS, ConversionError, ConversionStats, ConvertOptions
from .decode import check_settings
from .inference import PipelineError, RecordError, evaluate as evaluate_pipeline
from .inference import find_punctuator, load_pipeline, output_record, parse_record_line, punctuate_docs, punctuate_parts
from .inference import record_doc, record_line
from .labels import EMPTY, MARK_LABELS
from .threads import DEFAULT_THREADS, set_threads
from .training.corpus import PunctCorpus
from .word_records import read_docbins, strip_docs

app = typer.Typer(
    help="Punctuation restoration with spaCy.",
    no_args_is_help=True,
    context_settings={"max_content_width": 120},
)


@app.callback()
def main() -> None:
    """Punctuation restoration with spaCy."""


def fail(message: str) -> NoReturn:
    """Print an error and exit with status 1."""
    typer.secho(f"Error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(1)


def _parse_settings(values: List[str], option: str) -> Dict[str, float]:
    """LABEL=VALUE pairs of a repeated option."""
    settings: Dict[str, float] = {}
    for value in values:
        label, sep, number = value.partition("=")
        try:
            settings[label.strip().upper()] = float(number)
        except ValueError:
            fail(f"{option} takes LABEL=NUMBER (e.g. QUESTION=0.3), not {value!r}.")
        if not sep:
            fail(f"{option} takes LABEL=NUMBER (e.g. QUESTION=0.3), not {value!r}.")
    return settings


def _load(model: str, keep_existing: Optional[bool] = None, thresholds: Optional[List[str]] = None,
          margins: Optional[List[str]] = None, add_marks: Optional[bool] = None) -> Language:
    """Load a punctuating pipeline with decision settings from the command line."""
    settings: Dict[str, Any] = {}
    if keep_existing is not None:
        settings["keep_existing"] = keep_existing
    if add_marks is not None:
        settings["add_marks"] = add_marks
    if thresholds:
        settings["thresholds"] = _parse_settings(thresholds, "--threshold")
    if margins:
        settings["margins"] = _parse_settings(margins, "--margin")
    try:
        nlp = load_pipeline(model, threads=None)  # each command sets its --threads
        if settings:
            name, pipe = find_punctuator(nlp)
            check_settings(pipe.label_set, settings.get("thresholds"), settings.get("margins"), ("--threshold", "--margin"))
            for key, value in settings.items():
                setattr(pipe, key, value)
    except (PipelineError, ValueError) as e:
        fail(str(e))
    return nlp


def _apply_transformer_settings(nlp: Language, window: int, stride: int, cpu_precision: str) -> None:
    """Set the transformers' window, stride and CPU precision when asked to."""
    from .layers.autocast import set_cpu_precision
    from .windows import set_windows

    try:
        if window or stride:
            set_windows(nlp, window, stride)
        if cpu_precision:
            set_cpu_precision(nlp, cpu_precision)
    except ValueError as e:
        fail(str(e))


CPU_PRECISION_HELP = (
    "Transformers on a CPU: float32, bfloat16, or auto (bfloat16 where the CPU computes it natively); "
    "default: as configured."
)


THREADS_HELP = "Torch threads per process; 1 stays fast when other processes share the cores."
ENCODING_HELP = "The input's encoding, such as latin-1 or cp1252 (default: UTF-8, or UTF-16 with a byte-order mark)."


def _open_input(path: Optional[Path], encoding: Optional[str], keep_line_ends: bool = False) -> textio.TextReader:
    """A reader of the input file, or of standard input (no path, or `-`);
    at a terminal, a line on stderr says that input is awaited."""
    if path is not None and str(path) != "-":
        return textio.open_text(path, encoding, keep_line_ends)
    if sys.stdin.isatty():
        typer.echo("Reading standard input: one document per line; Ctrl-D ends it.", err=True)
    return textio.TextReader(sys.stdin.buffer, "standard input", encoding, keep_line_ends)


def _check_input(path: Optional[Path]) -> None:
    """Fail at once on an input file that is missing or a folder (`-` is
    standard input)."""
    if path is None or str(path) == "-":
        return
    if not path.exists():
        fail(f"the input {path} does not exist.")
    if path.is_dir():
        fail(f"the input {path} is a folder: give a file.")


def _show_progress(progress: Optional[bool], output: Optional[Path]) -> bool:
    """Whether to show progress on stderr: as asked, else when stderr is a
    terminal that the output is not written to (the bar would share its lines)."""
    if progress is not None:
        return progress
    return sys.stderr.isatty() and not (output is None and sys.stdout.isatty())


def _set_threads(threads: int) -> None:
    try:
        set_threads(threads)
    except ValueError as e:
        fail(str(e))


def _prepare_output(path: Optional[Path], *inputs: Optional[Path]) -> None:
    """Refuse an output that is one of the inputs or cannot be written;
    create its folder."""
    if path is None:
        return
    for source in inputs:
        if source is not None and str(source) != "-" and path.exists() and path.resolve() == source.resolve():
            fail(f"the output {path} is the input: choose another file (nothing was written).")
    if path.exists() and path.is_dir():
        fail(f"the output {path} is a folder; give a file name.")
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf8"):
            pass
    except OSError as e:
        fail(f"cannot write {path}: {e.strerror or e} (nothing was written).")
    if not existed:
        path.unlink()


@app.command(short_help="Convert a corpus to a DocBin of punctuated text.")
def convert(
    format: str = typer.Argument(..., help=f"Source format: {', '.join(CONVERTERS)}."),
    input: Path = typer.Argument(..., help="Input file, or a folder of input files.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language (its tokenizer and clitics)."),
    doc_length: int = typer.Option(2000, help="Words per document where the source marks no documents."),
    blocks: bool = typer.Option(False, help="text: one document per blank-line-separated block."),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
) -> None:
    """Convert a corpus to a DocBin of natural punctuated text."""
    if format not in CONVERTERS:
        fail(f"unknown format {format!r}; choose one of {', '.join(CONVERTERS)}.")
    _prepare_output(output, input)
    nlp = spacy.blank(lang)
    stats = ConversionStats()
    options = ConvertOptions(doc_length=doc_length, blocks=blocks, encoding=encoding)
    try:
        docs = list(CONVERTERS[format](input, nlp, stats, options))
    except ConversionError as e:
        fail(str(e))
    if not docs:
        fail(f"{input} holds no text to convert.")
    DocBin(docs=docs, store_user_data=True).to_disk(output)  # word timings, where the source has them
    typer.echo(f"Wrote {output}\n{stats.summary()}")
    warning = stats.warning()
    if warning:
        typer.secho(warning, err=True, fg="yellow")


@app.command(short_help="Count documents, words and labels of a DocBin.")
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


def _items(nlp: Language, reader: textio.TextReader, whole: bool, records: bool) -> Iterator[Tuple[Any, Any]]:
    """(text or doc, input record) pairs: one per line, or the whole input;
    with `records`, a JSON object per non-empty line."""
    if whole:
        text = reader.read()
        yield text, {"text": text}
        return
    for number, line in enumerate(reader, start=1):
        if not records:
            yield line, {"text": line}
            continue
        if not line.strip():
            continue
        record = parse_record_line(line, number)
        yield record_doc(nlp, record, number), record


@app.command(short_help="Punctuate text, records or timed words.")
def punctuate(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    input: Optional[Path] = typer.Argument(None, help="Text file, plain or gzip (default or -: standard input)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Output file (default: stdout)."),
    format: str = typer.Option("text", help="Output: text (the punctuated text), jsonl (one JSON record per document), or srt / vtt captions (timed words in JSONL input)."),
    max_chars: int = typer.Option(84, min=1, help="srt/vtt: characters per cue at most (a cue also ends at each sentence end)."),
    max_seconds: float = typer.Option(7.0, min=0.1, help="srt/vtt: seconds per cue at most."),
    input_format: Optional[str] = typer.Option(None, help="Input: text (one document per line) or jsonl (records with 'text' or timed 'words'); default: jsonl for a .jsonl or .jsonl.gz file, else text."),
    whole: bool = typer.Option(False, "--whole", help="The whole input is one document (default: one per line)."),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
    batch_size: int = typer.Option(64, min=1, help="Documents per batch."),
    keep_existing: Optional[bool] = typer.Option(None, "--keep-existing/--replace-existing", help="Keep punctuation already in the input, or let predictions replace it (default: as the pipeline says)."),
    add_marks: Optional[bool] = typer.Option(None, "--add-marks/--case-only", help="Write the predicted marks, or keep the input's punctuation as it is and restore case only (text that is punctuated already; default: as the pipeline says)."),
    threshold: List[str] = typer.Option([], help="LABEL=P: write LABEL's mark wherever its probability reaches P (repeatable)."),
    margin: List[str] = typer.Option([], help="LABEL=X: write LABEL's mark only with a relative margin over every other class above X (repeatable)."),
    window: int = typer.Option(0, help="Transformers: tokens per window (0: as configured)."),
    stride: int = typer.Option(0, help="Transformers: tokens between window starts (0: the window); window/stride predictions per token."),
    cpu_precision: str = typer.Option("", help=CPU_PRECISION_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="Show words done on stderr (default: when it is a terminal)."),
    engine: str = typer.Option("local", help="local: this process; ray: an actor pool on Ray (the ray extra; RAY_ADDRESS for a cluster) over JSONL or Parquet records in INPUT, written to the folder -o."),
    workers: int = typer.Option(2, min=1, help="--engine ray: actors, each with its own pipeline."),
) -> None:
    """Punctuate text: one document per line (empty lines stay empty, line ends
    as in the input: CRLF stays CRLF), read and
    written as it goes, so memory stays bounded on inputs of any size; lines
    of any length are punctuated in pieces."""
    _check_input(input)
    if format not in ("text", "jsonl", *CAPTION_FORMATS):
        fail(f"unknown --format {format!r}; choose text, jsonl, srt or vtt.")
    if input_format is None:
        input_format = "jsonl" if input is not None and input.name.endswith((".jsonl", ".jsonl.gz")) else "text"
    if input_format not in ("text", "jsonl"):
        fail(f"unknown --input-format {input_format!r}; choose text or jsonl.")
    if format in CAPTION_FORMATS and input_format != "jsonl":
        fail(f"--format {format} needs word timings: give JSONL records of timed words with --input-format jsonl.")
    if engine not in ("local", "ray"):
        fail(f"unknown --engine {engine!r}; choose local or ray.")
    if engine == "ray":
        settings = {"--keep-existing/--replace-existing": keep_existing is not None,
                    "--add-marks/--case-only": add_marks is not None, "--threshold": bool(threshold),
                    "--margin": bool(margin), "--window": bool(window), "--stride": bool(stride),
                    "--cpu-precision": bool(cpu_precision)}
        given = [option for option, is_set in settings.items() if is_set]
        if encoding is not None:
            fail("--engine ray reads JSONL (UTF-8) or Parquet records: --encoding would be ignored.")
        if given:
            fail(f"--engine ray runs the pipeline with its saved settings: {', '.join(given)} would be ignored "
                 "(save a pipeline with them instead).")
        _punctuate_on_ray(model, input, output, workers, batch_size, threads)
        return
    _prepare_output(output, input)
    _set_threads(threads)
    nlp = _load(model, keep_existing, threshold, margin, add_marks)
    _apply_transformer_settings(nlp, window, stride, cpu_precision)
    try:
        reader = _open_input(input, encoding, keep_line_ends=format == "text")
    except textio.InputError as e:
        fail(str(e))
    target: TextIO = output.open("w", encoding="utf8", newline="\n") if output else sys.stdout
    bar = tqdm(unit=" words", file=sys.stderr, disable=not _show_progress(progress, output), smoothing=0.1)
    try:
        items = _items(nlp, reader, whole, input_format == "jsonl")
        if format == "jsonl":
            # a long text's pieces are joined into one record
            results = ((doc, record_line(output_record(doc, record)) + "\n")
                       for doc, record in punctuate_docs(nlp, items, batch_size=batch_size))
        elif format in CAPTION_FORMATS:
            target.write(caption_header(format))
            results = _caption_texts(punctuate_docs(nlp, items, batch_size=batch_size), format, max_chars, max_seconds)
        else:
            # a long text is written piece by piece, as its pieces are done, its
            # lines ended as in the input (CRLF stays CRLF)
            results = ((doc, textio.restore_line_ends(doc.text + ("\n" if last else ""), reader.line_ends))
                       for doc, _, _, last in punctuate_parts(nlp, items, batch_size=batch_size))
        for doc, text in results:
            target.write(text)
            target.flush()
            bar.update(sum(1 for token in doc if token._.source_i is not None and not token.is_space))
    except (RecordError, ValueError) as e:
        fail(f"{reader.name}: {e} The output written so far is kept.")
    finally:
        bar.close()
        reader.close()
        if output:
            target.close()
    if reader.replaced:
        typer.secho(textio.replaced_message(reader), err=True)
    if reader.error:
        fail(f"{reader.error}. The output of the lines before it is written.")


def _caption_texts(results: Iterator[Tuple[Any, Any]], kind: str, max_chars: int,
                   max_seconds: float) -> Iterator[Tuple[Any, str]]:
    """(doc, its cues as text) per punctuated doc; cues numbered across docs."""
    builder = CueBuilder(max_chars, max_seconds)
    for number, (doc, _) in enumerate(results, start=1):
        found = [cue for word in doc_caption_words(doc, f"record {number}") for cue in builder.add(word)]
        yield doc, "".join(format_cue(cue, kind) for cue in found + builder.flush())


def _punctuate_on_ray(model: str, input: Optional[Path], output: Optional[Path], workers: int, batch_size: int,
                      threads: int) -> None:
    """`punctuate --engine ray`: records from files to a folder, on Ray."""
    try:
        from .distributed import input_format, punctuate_files
    except ImportError as e:
        fail(f"--engine ray needs the ray extra (pip install spacy-punct[ray]): {e}")
    if input is None or output is None:
        fail("--engine ray reads records from INPUT (.jsonl or .parquet) and writes them to the folder -o.")
    if output.exists():
        fail(f"the output folder {output} exists: choose a new one (nothing was written).")
    try:
        input_format(input)
        load_pipeline(model, threads=None)  # fail here, not in every actor
        count = punctuate_files(model, input, output, workers=workers, batch_size=batch_size, threads=threads)
    except (PipelineError, ValueError) as e:
        fail(str(e))
    typer.echo(f"Wrote {count} records to {output}")


@app.command(short_help="Punctuate a live stream of words from stdin.")
def stream(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    input: Optional[Path] = typer.Argument(None, help="A file of words (default or -: standard input)."),
    format: str = typer.Option("text", help="Output: text (sentences on lines), jsonl (one committed word per line, with timings), srt or vtt (cues as they complete)."),
    lookahead: int = typer.Option(4, min=0, help="Words read after a word before it is committed (with --entropy: at most this many)."),
    entropy: Optional[float] = typer.Option(None, min=0.0, help="Entropy decoding: commit a word once the entropy of its prediction (nats) is at most this."),
    min_lookahead: int = typer.Option(1, min=0, help="With --entropy: words read after a word before it may be committed."),
    left_context: int = typer.Option(50, min=1, help="Committed words the model still reads."),
    max_chars: int = typer.Option(84, min=1, help="srt/vtt: characters per cue at most."),
    max_seconds: float = typer.Option(7.0, min=0.1, help="srt/vtt: seconds per cue at most."),
    keep_existing: Optional[bool] = typer.Option(None, "--keep-existing/--replace-existing", help="Keep punctuation already in the words, or let predictions replace it."),
    add_marks: Optional[bool] = typer.Option(None, "--add-marks/--case-only", help="Write the predicted marks, or keep the words' punctuation and restore case only."),
    threshold: List[str] = typer.Option([], help="LABEL=P (repeatable), as for punctuate."),
    margin: List[str] = typer.Option([], help="LABEL=X (repeatable), as for punctuate."),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Read words as a recogniser writes them, one or more per line: plain
    words, or JSON (a {"word", "start", "end"} object, a list of them, a record
    with "words", Vosk's {"result": [...]}, Whisper's segments). Committed
    words are written as soon as they are decided, line-buffered; the rest at
    the end of the input. A bad line stops the stream with an error naming it,
    after the words read before it are written."""
    from .streaming import EntropyLookahead, FixedLookahead, Streamer
    from .timed import line_words

    _check_input(input)
    if format not in ("text", "jsonl", *CAPTION_FORMATS):
        fail(f"unknown --format {format!r}; choose text, jsonl, srt or vtt.")
    _set_threads(threads)
    nlp = _load(model, keep_existing, threshold, margin, add_marks)
    try:
        policy = EntropyLookahead(entropy, lookahead, min_lookahead) if entropy is not None else FixedLookahead(lookahead)
        streamer = Streamer(nlp, policy, left_context=left_context)
    except ValueError as e:
        fail(str(e))
    try:
        reader = _open_input(input, encoding)
    except textio.InputError as e:
        fail(str(e))
    writer = _StreamWriter(sys.stdout, format, CueBuilder(max_chars, max_seconds) if format in CAPTION_FORMATS else None)
    error = None
    try:
        for number, line in enumerate(reader, start=1):
            try:
                entries = line_words(line, f"line {number}")  # its errors name the line
            except RecordError as e:
                error = f"{reader.name}, {e}"
                break
            try:
                for entry in entries:
                    if writer.cues is not None and (isinstance(entry, str) or entry.get("start") is None):
                        word = entry if isinstance(entry, str) else entry.get("word", entry.get("text"))
                        raise RecordError(f"the word {word!r} has no timings; captions need word timings.")
                    writer.write(streamer.push(entry))
            except RecordError as e:
                error = f"{reader.name}, line {number}: {e}"
                break
        if error is None and reader.error:
            error = f"{reader.error}."
        writer.write(streamer.flush(close=error is None))
        writer.close()
    except RecordError as e:  # captions without timings
        error = f"{reader.name}: {e}"
    finally:
        reader.close()
    if reader.replaced:
        typer.secho(textio.replaced_message(reader), err=True)
    if error:
        fail(f"{error} The words before it were written.")


class _StreamWriter:
    """Writes committed words as text, JSONL or caption cues, flushing each line."""

    def __init__(self, target: TextIO, format: str, cues: Optional[CueBuilder]) -> None:
        self.target, self.format, self.cues = target, format, cues
        self.open_line = False
        if cues is not None:
            self._emit(caption_header(format))

    def write(self, words: List[Any]) -> None:
        for word in words:
            if self.format == "jsonl":
                self._emit(json.dumps(word.__dict__, ensure_ascii=False) + "\n")
            elif self.cues is not None:
                if word.start is None:
                    raise RecordError(f"word {word.index + 1} ({word.word!r}) has no timings; captions need word timings.")
                caption_word = CaptionWord(word.text, word.start, word.end, word.sentence_end)
                self._emit("".join(format_cue(cue, self.format) for cue in self.cues.add(caption_word)))
            elif word.text:  # a word that was only a replaced mark writes nothing
                self._emit((" " if self.open_line else "") + word.text + ("\n" if word.sentence_end else ""))
                self.open_line = not word.sentence_end

    def close(self) -> None:
        if self.cues is not None:
            self._emit("".join(format_cue(cue, self.format) for cue in self.cues.flush()))
        elif self.open_line:
            self._emit("\n")
            self.open_line = False

    def _emit(self, text: str) -> None:
        if text:
            self.target.write(text)
            self.target.flush()


@app.command(short_help="Save an int8 copy of a transformer pipeline.")
def quantize(
    model: str = typer.Argument(..., help="A transformer pipeline name or path with a punctuator."),
    output: Path = typer.Argument(..., help="The folder to write the quantized pipeline to (must not exist)."),
    dtype: str = typer.Option("qint8", help="qint8 (int8 linear layers) or float16."),
    weights_storage: str = typer.Option(
        "float32", help="How the encoder's weights are saved: float32, or int8 (a quarter of the size, one scale per row)."
    ),
) -> None:
    """Add an `int8_quantizer` before the transformers: at inference their
    linear layers run with int8 weights (PyTorch dynamic quantization, CPU);
    the float weights are what is saved (in `--weights-storage`), so the copy
    loads anywhere."""
    from .quantizer import add_quantizer, storage_overrides

    if output.exists():
        fail(f"{output} exists: choose a new folder (nothing was written).")
    nlp = _load(model)
    try:
        if weights_storage != "float32":
            nlp = load_pipeline(model, config=storage_overrides(nlp, weights_storage), threads=None)
        add_quantizer(nlp, dtype)
    except (PipelineError, ValueError) as e:
        fail(str(e))
    nlp.to_disk(output)
    typer.echo(f"Wrote {output} (pipeline: {', '.join(nlp.pipe_names)})")


@app.command(short_help="Score a pipeline on test sets.")
def evaluate(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    data: Path = typer.Argument(..., help="A .spacy test set, or a folder whose .spacy files are test sets.", exists=True),
    output_dir: Optional[Path] = typer.Option(None, "--output-dir", "-o", help="Write <test set>.json and .md here."),
    input_case: str = typer.Option(
        "lower", help="How the input words are written: lower (as most recognisers write), upper, title, or written (as in the test set)."
    ),
    max_length: int = typer.Option(0, help="Cut documents into chunks of this many words (0: whole documents)."),
    asr_noise: float = typer.Option(0.0, help="Simulate recognition errors: alter this share of the words (see spacy_punct.asr_noise.v1)."),
    asr_noise_words: bool = typer.Option(
        False, help="The simulated errors put other words of the text in place of the [UNK] placeholder."
    ),
    gold_marks: bool = typer.Option(
        False, help="Write the test set's marks where the punctuator's decisions go: the truecaser scored with perfect sentence ends."
    ),
    input_marks: bool = typer.Option(
        False, help="Read each document with its punctuation and add no mark (--case-only): the truecaser scored on punctuated text."
    ),
    seed: int = typer.Option(0, help="Seed of the simulated recognition errors."),
    window: int = typer.Option(0, help="Transformers: tokens per window (0: as configured)."),
    stride: int = typer.Option(0, help="Transformers: tokens between window starts (0: the window); window/stride predictions per token."),
    cpu_precision: str = typer.Option("", help=CPU_PRECISION_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Score a pipeline on test sets: per-class P/R/F1, micro and macro F1,
    slot error rate, confusion matrix, sentence boundaries and speed."""
    _set_threads(threads)
    nlp = _load(model)
    _apply_transformer_settings(nlp, window, stride, cpu_precision)
    test_sets = sorted(data.glob("*.spacy")) if data.is_dir() else [data]
    if not test_sets:
        fail(f"no .spacy files in {data}.")
    if output_dir:
        output_dir.mkdir(parents=True, exist_ok=True)
    suffix = (f".asr-noise-{asr_noise:g}" if asr_noise else "") + ("-words" if asr_noise and asr_noise_words else "")
    suffix += (f".{input_case}" if input_case != "lower" else "") + (".gold-marks" if gold_marks else "")
    suffix += ".input-marks" if input_marks else ""
    for test_set in test_sets:
        bar = tqdm(desc=test_set.name, unit=" words", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False)
        try:
            result = evaluate_pipeline(
                nlp, test_set, input_case=input_case, max_length=max_length, asr_noise=asr_noise,
                asr_noise_words=asr_noise_words, gold_marks=gold_marks, input_marks=input_marks, seed=seed,
                progress=bar.update,
            )
        except ValueError as e:
            fail(str(e))
        finally:
            bar.close()
        table = format_scores(result)
        typer.echo(f"{test_set}{' with ' + suffix[1:] if suffix else ''}\n{table}\n")
        if output_dir:
            name = test_set.stem + suffix
            (output_dir / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
            (output_dir / f"{name}.md").write_text(table + "\n", encoding="utf8")


@app.command(short_help="Time pipelines side by side: words per second.")
def benchmark(
    data: Path = typer.Argument(
        ..., help="A .spacy test set (its bare words cut into lines) or a text file (one document per line).", exists=True
    ),
    models: List[str] = typer.Argument(..., help="Pipeline names or paths, timed side by side."),
    words_per_line: int = typer.Option(40, help="A .spacy test set's words per line (0: whole documents)."),
    batch_size: int = typer.Option(64, help="Docs per batch of nlp.pipe."),
    rounds: int = typer.Option(3, help="Time each pipeline this many times, in turn; the best counts."),
    cpu_precision: str = typer.Option("", help=CPU_PRECISION_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the results as JSON here."),
) -> None:
    """Time `nlp.pipe` of one or more pipelines on the same lines, with the
    same batch size and threads, in alternating rounds; print words/s."""
    from .benchmark import benchmark_lines, compare_speeds, count_words
    from .layers.autocast import set_cpu_precision
    from .windows import transformer_names

    if len(set(models)) < len(models):
        fail("a pipeline is named twice: name each once.")
    _prepare_output(output, data)
    _set_threads(threads)
    pipelines = {model: _load(model) for model in models}
    if cpu_precision:
        try:
            for nlp in pipelines.values():
                if transformer_names(nlp):
                    set_cpu_precision(nlp, cpu_precision)
        except ValueError as e:
            fail(str(e))
    try:
        lines = benchmark_lines(next(iter(pipelines.values())), data, words_per_line, encoding)
    except (ValueError, OSError) as e:
        fail(str(e))
    n_words = count_words(lines)
    typer.echo(f"{data}: {len(lines)} lines, {n_words} words; threads {threads}, batch {batch_size}, best of {rounds}")
    bar = tqdm(total=rounds * len(models), desc="timings", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False)
    try:
        speeds = compare_speeds(pipelines, lines, batch_size=batch_size, rounds=rounds, progress=bar.update)
    except ValueError as e:
        fail(str(e))
    finally:
        bar.close()
    first = speeds[models[0]]
    rows = ["| pipeline | words/s | relative |", "|---|---:|---:|"]
    rows += [f"| {model} | {rate:,.0f} | {rate / first:.2f} |" for model, rate in speeds.items()]
    typer.echo("\n".join(rows))
    if output:
        result = {
            "data": str(data), "lines": len(lines), "words": n_words, "threads": threads, "batch_size": batch_size,
            "rounds": rounds, "words_per_second": speeds,
        }
        output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


def format_scores(scores: Dict[str, Any]) -> str:
    """A markdown table of the per-class and overall scores."""
    rows = ["| label | P | R | F1 | support |", "|---|---:|---:|---:|---:|"]
    if scores.get("gold_marks"):
        rows.insert(0, "The test set's marks where the punctuator's decisions go: its punctuation scores are its own.\n")
    if scores.get("input_marks"):
        rows.insert(0, "The input has the test set's marks, and the punctuator adds none: its punctuation scores are the input's.\n")
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
    if scores.get("case_f") is not None:
        rows += ["", "| case | P | R | F1 |", "|---|---:|---:|---:|"]
        for label, s in scores["case_per_type"].items():
            rows.append(f"| {label} | {100 * s['p']:.1f} | {100 * s['r']:.1f} | {100 * s['f']:.1f} |")
        rows.append(f"| **not lower-case** | {100 * scores['case_p']:.1f} | {100 * scores['case_r']:.1f} "
                    f"| {100 * scores['case_f']:.1f} |")
        rows += ["", f"not lower-case F1: sentence-initial {100 * scores['case_initial_f']:.1f} · "
                     f"other words (names, acronyms) {100 * scores['case_inner_f']:.1f}"]
    return "\n".join(rows)


@app.command(
    short_help="Train a pipeline (spacy train with a time limit).",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def train(
    ctx: typer.Context,
    config: Path = typer.Argument(..., help="The training config.", exists=True, dir_okay=False),
    output: Path = typer.Option(..., "--output", "-o", help="Where model-best and model-last go."),
    max_minutes: float = typer.Option(0, help="Stop training after this many minutes (0: as the config says)."),
    gpu_id: int = typer.Option(-1, help="GPU id, or -1 for the CPU."),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """`spacy train` with a time limit. Further options override the config,
    as with spacy train (e.g. --paths.train corpus/train.spacy)."""
    from spacy.cli._util import parse_config_overrides

    from .training.loop import check_corpora, train_for

    _set_threads(threads)
    overrides = parse_config_overrides(ctx.args)
    try:
        check_corpora(config, overrides)
    except ValueError as e:
        fail(f"{e} Nothing was written.")
    start = time.perf_counter()
    end = train_for(config, output, max_minutes, gpu_id, overrides)
    minutes = (time.perf_counter() - start) / 60
    reason = "time limit reached" if end.time_up else "config's stopping rule"
    summary: Dict[str, Any] = {"minutes": minutes, "ended_by": reason}
    if end.final is not None:
        summary["final_evaluation"] = end.final
        outcome = "saved as model-best" if end.final["kept"] == "model-last" else "model-best kept"
        typer.echo(f"model-last scored {end.final['model-last']:.4f} on the dev data against model-best's "
                   f"{end.final['model-best']:.4f}: {outcome}")
    (output / "training.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf8")
    typer.echo(f"Training ended after {minutes:.1f} minutes ({reason}); pipelines in {output}")


@app.command(short_help="Hold out the last documents as a dev set.")
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
    _prepare_output(train_output, input)
    _prepare_output(dev_output, input)
    try:
        docs = list(read_docbins(input, spacy.blank(lang).vocab))
    except ValueError as e:
        fail(str(e))
    if len(docs) < 2:
        fail(f"{input} has {len(docs)} document(s): too few to split.")
    n_dev = min(len(docs) - 1, max(1, round(len(docs) * dev_fraction)))
    for path, part in ((train_output, docs[:-n_dev]), (dev_output, docs[-n_dev:])):
        DocBin(docs=part, store_user_data=True).to_disk(path)
        typer.echo(f"Wrote {len(part)} docs, {sum(len(d) for d in part)} tokens to {path}")


@app.command(short_help="Tune decision thresholds and margins on dev data.")
def tune(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    dev: Path = typer.Argument(..., help="A .spacy dev set (never the test set).", exists=True),
    output: Path = typer.Argument(..., help="Where to save the pipeline with the tuned settings."),
    max_length: int = typer.Option(0, help="Cut documents into chunks of this many words (0: whole documents)."),
    thresholds: bool = typer.Option(True, help="Tune per-class probability thresholds."),
    margins: bool = typer.Option(True, help="Tune per-class margins (Cai & Wang)."),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Tune per-class decision thresholds and margins on dev data for the best
    micro F1, and save a copy of the pipeline that uses them."""
    from .tuning import collect_probs, tune_decisions

    if not (thresholds or margins):
        fail("nothing to tune: --no-thresholds and --no-margins.")
    if output.exists() and not output.is_dir():
        fail(f"the output {output} is a file; give a folder.")
    output.parent.mkdir(parents=True, exist_ok=True)
    _set_threads(threads)
    nlp = _load(model)
    name, pipe = find_punctuator(nlp)
    try:
        examples = list(PunctCorpus(dev, max_length=max_length)(nlp))
    except ValueError as e:
        fail(str(e))
    probs, gold = collect_probs(nlp, examples)
    chosen_thresholds, chosen_margins, before, after = tune_decisions(
        probs, gold, pipe.label_set, thresholds=thresholds, margins=margins
    )
    typer.echo(
        f"dev micro F1 {100 * before:.1f} -> {100 * after:.1f} with thresholds "
        f"{chosen_thresholds} and margins {chosen_margins}"
    )
    settings = {"thresholds": chosen_thresholds, "margins": chosen_margins}
    load_pipeline(model, config={"components": {name: settings}}, threads=None).to_disk(output)
    typer.echo(f"Saved {output}")


@app.command(short_help="Write a teacher pipeline's class probabilities on training docs.")
def distill(
    teacher: str = typer.Argument(..., help="The teacher: a pipeline name or path with a punctuator."),
    input: Path = typer.Argument(..., help="A .spacy file of punctuated training text, or a folder of them.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lowercase: bool = typer.Option(True, help="Show the teacher lower-cased words, as the student's reader does."),
    batch_size: int = typer.Option(8, help="Documents per batch."),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Write the teacher's class probabilities on the words of training docs
    (`token._.teacher_probs`): train a student on the output with the
    punctuator's `distill_weight` above 0."""
    from .training.distill import teacher_docs

    _prepare_output(output, input)
    _set_threads(threads)
    nlp = _load(teacher)
    bar = tqdm(unit=" docs", file=sys.stderr, disable=not sys.stderr.isatty())
    docs = DocBin(store_user_data=True)
    n_words = 0
    try:
        for doc in teacher_docs(nlp, read_docbins(input, nlp.vocab), lowercase=lowercase, batch_size=batch_size):
            docs.add(doc)
            n_words += len(doc)
            bar.update(1)
    except ValueError as e:
        fail(str(e))
    bar.close()
    docs.to_disk(output)
    typer.echo(f"Wrote {len(docs)} docs, {n_words} tokens with the teacher's probabilities to {output}")


@app.command(short_help="Write the gold form of a test set.")
def strip(
    input: Path = typer.Argument(..., help="A .spacy file of punctuated text, or a folder of them.", exists=True),
    output: Path = typer.Argument(..., help="The .spacy file to write."),
    lang: str = typer.Option("en", help="Language of the texts."),
    cased: bool = typer.Option(False, "--cased", help="Keep the case of the words."),
) -> None:
    """Write the gold form of a test set: bare words with their gold marks in
    `token._.punct`, the form that `spacy evaluate` reads."""
    _prepare_output(output, input)
    vocab = spacy.blank(lang).vocab
    try:
        docs = list(strip_docs(read_docbins(input, vocab), lowercase=not cased))
    except ValueError as e:
        fail(str(e))
    DocBin(docs=docs, store_user_data=True).to_disk(output)
    n_words = sum(len(doc) for doc in docs)
    typer.echo(f"Wrote {len(docs)} docs, {n_words} words to {output}")


if __name__ == "__main__":
    app()
