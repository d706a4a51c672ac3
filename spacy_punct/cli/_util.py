"""What the commands share: the app, errors, loading, inputs, outputs, threads."""

import os
import signal
import stat
import sys
import tempfile
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, NoReturn, Optional, TextIO

import typer
from spacy.language import Language
from tqdm import tqdm

from ..decode import DecisionSettings, check_settings
from ..formats import textio
from ..formats.recognisers import file_transcript_format
from ..languages import language_entry
from ..layers import transformer
from ..pipelines.loading import PipelineError, find_punctuator, load_for_long_run
from ..runtime.threads import set_threads

app = typer.Typer(
    help="Punctuation restoration with spaCy.",
    no_args_is_help=True,
    context_settings={"max_content_width": 120},
    # plain help: Rich's tables cut long option names on narrow terminals (--replace-exist…)
    rich_markup_mode=None,
)


@app.callback()
def main() -> None:
    """Punctuation restoration with spaCy."""
    warnings.showwarning = _show_warning


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:  # type: ignore[no-untyped-def]
    """A warning on the command line: one line on stderr, no source line."""
    typer.secho(f"Warning: {message}", err=True, fg=typer.colors.YELLOW)


def fail(message: str) -> NoReturn:
    """Print an error and exit with status 1."""
    typer.secho(f"Error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(1)


def blank_pipeline(lang: str) -> Language:
    """spaCy's blank pipeline of language `lang` (--lang), or a one-line error."""
    import spacy

    try:
        return spacy.blank(lang)
    except ImportError:
        fail(f"--lang {lang}: not a language spaCy knows (a code such as en, hu or bn).")


def parse_settings(values: List[str], option: str) -> Dict[str, float]:
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


def load_or_fail(model: str) -> Language:
    """Load a punctuating pipeline, or fail with a one-line error."""
    try:
        return load_for_long_run(model, threads=None)  # each command sets its --threads
    except (PipelineError, ValueError) as e:
        fail(str(e))


def decision_settings(
    nlp: Language,
    keep_existing: Optional[bool] = None,
    thresholds: Optional[List[str]] = None,
    margins: Optional[List[str]] = None,
    add_marks: Optional[bool] = None,
    repair: Optional[bool] = None,
    end_threshold: Optional[float] = None,
    merge: Optional[bool] = None,
) -> DecisionSettings:
    """The pipeline's decision settings with those given on the command line."""
    language = language_entry(nlp.lang or "")
    if add_marks is False and not language.cased:
        fail(f"--case-only: {language.name} has no case, so the text would come out as it went in.")
    try:
        pipe = find_punctuator(nlp)[1]
        given_thresholds = parse_settings(thresholds, "--threshold") if thresholds else None
        given_margins = parse_settings(margins, "--margin") if margins else None
        check_settings(pipe.label_set, given_thresholds, given_margins, ("--threshold", "--margin"))
        settings = pipe.settings.replace(
            keep_existing=keep_existing,
            add_marks=add_marks,
            thresholds=given_thresholds,
            margins=given_margins,
            repair=repair,
            end_threshold=end_threshold,
            merge=merge,
        )
    except (PipelineError, ValueError) as e:
        fail(str(e))
    return settings


def apply_transformer_settings(nlp: Language, window: int, stride: int, cpu_precision: str) -> None:
    """`layers.transformer.apply_transformer_settings`, or a one-line error."""
    try:
        transformer.apply_transformer_settings(nlp, window, stride, cpu_precision)
    except ValueError as e:
        fail(str(e))


WINDOW_HELP = "Transformers: tokens per window (0: as configured)."
STRIDE_HELP = "Transformers: tokens between window starts (0: the window); window/stride predictions per token."
CPU_PRECISION_HELP = (
    "Transformers on a CPU: float32, bfloat16, or auto (bfloat16 where the CPU computes it natively); "
    "default: as configured."
)


REPAIR_HELP = (
    "Half-punctuated text (a recogniser's output whose marks vanished part-way): keep every mark and capital "
    "it has, fill marks and case only where they are missing (default: as the pipeline says)."
)
MERGE_HELP = (
    "A recogniser's punctuated output (Whisper's): read its marks as evidence, weighed by how often such a mark is "
    "right, and decide every mark and the case again."
)
END_THRESHOLD_HELP = (
    "Decide the sentence end first: a sentence ends where the final marks' probabilities together reach P; "
    "--threshold then reads each class's share of its group (0: off; default: as the pipeline says)."
)
THREADS_HELP = "Torch threads per process; 1 stays fast when other processes share the cores."
ENCODING_HELP = "The input's encoding, such as latin-1 or cp1252 (default: UTF-8, or UTF-16 with a byte-order mark)."


def open_input(path: Optional[Path], encoding: Optional[str]) -> textio.TextReader:
    """A reader of the input file, or of standard input (no path, or `-`);
    at a terminal, a line on stderr says that input is awaited."""
    if path is not None and str(path) != "-":
        return textio.open_text(path, encoding)
    if sys.stdin.isatty():
        typer.echo("Reading standard input: one document per line; Ctrl-D ends it.", err=True)
    return textio.TextReader(sys.stdin.buffer, "standard input", encoding)


def check_input(path: Optional[Path]) -> None:
    """Fail at once on an input file that is missing or a folder (`-` is
    standard input)."""
    if path is None or str(path) == "-":
        return
    if not path.exists():
        fail(f"the input {path} does not exist.")
    if path.is_dir():
        fail(f"the input {path} is a folder: give a file.")


def show_progress(progress: Optional[bool], output: Optional[Path]) -> bool:
    """Whether to show progress on stderr: as asked, else when stderr is a
    terminal that the output is not written to (the bar would share its lines)."""
    if progress is not None:
        return progress
    return sys.stderr.isatty() and not (output is None and sys.stdout.isatty())


LOG_PROGRESS_SECONDS = 60.0


class _LogLines:
    """A stream for tqdm that is not a terminal (a log file): each refresh on
    a line of its own, instead of carriage returns that pile up on one line."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        line = text.replace("\r", "").strip()
        if line:
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


def progress_bar(show: bool, **options: Any) -> tqdm:
    """A progress bar on stderr (tqdm `options`): live at a terminal,
    otherwise a line every minute, so a long job sent to a log shows its
    pace; nothing where `show` is false."""
    if not show or sys.stderr.isatty():
        return tqdm(file=sys.stderr, disable=not show, **options)
    return tqdm(file=_LogLines(sys.stderr), mininterval=LOG_PROGRESS_SECONDS, ascii=True, **options)


def set_threads_or_fail(threads: int) -> None:
    try:
        set_threads(threads)
    except ValueError as e:
        fail(str(e))


GPU_HELP = "GPU id to load the pipeline on, or -1 for the CPU."


def use_gpu_or_fail(gpu_id: int) -> None:
    """Run what is loaded next on GPU `gpu_id` (-1: the CPU), or fail in one line."""
    if gpu_id < 0:
        return
    import spacy

    try:
        spacy.require_gpu(gpu_id)
    except (ValueError, ImportError) as e:
        fail(f"GPU {gpu_id} is not available ({' '.join(str(e).split())}).")


def write_failed(path: Optional[Path], error: OSError) -> NoReturn:
    """Fail on an output that could not be written (a full disk), in one line."""
    where = path if path is not None else "standard output"
    fail(f"cannot write {where}: {error.strerror or error}. The output written before it is kept.")


def prepare_output_folder(folder: Path, *inputs: Path) -> None:
    """Refuse an output folder that holds .spacy files already (nothing is
    overwritten) or lies inside an input folder (its files would be read as
    input next time); create it."""
    if folder.exists() and not folder.is_dir():
        fail(f"the output {folder} is a file; give a folder, or a name ending in .spacy for one file.")
    for source in inputs:
        if source.is_dir() and folder.resolve().is_relative_to(source.resolve()):
            fail(
                f"the output {folder} is inside the input folder {source}: choose a folder outside it (nothing was written)."
            )
    if folder.is_dir() and any(folder.glob("*.spacy")):
        fail(f"the output folder {folder} holds .spacy files already: choose an empty folder (nothing was written).")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot write {folder}: {e.strerror or e} (nothing was written).")


def prepare_docbin_output(path: Path, *inputs: Optional[Path]) -> None:
    """`prepare_output` for a DocBin, whose name must end in .spacy: spaCy's
    corpus readers find DocBins in a folder by that suffix."""
    if path.suffix != ".spacy":
        fail(
            f"the output {path} does not end in .spacy: name it {path.with_suffix('.spacy').name}, "
            "as spaCy's readers find DocBins by that suffix (nothing was written)."
        )
    prepare_output(path, *inputs)


def prepare_output(path: Optional[Path], *inputs: Optional[Path]) -> None:
    """Refuse an output that is one of the inputs or cannot be written;
    create its folder."""
    if path is None:
        return
    for source in inputs:
        if (
            source is not None
            and str(source) != "-"
            and path.exists()
            and source.exists()
            and os.path.samefile(path, source)
        ):
            # the same file by another name too: a hard link or a symbolic one
            fail(f"the output {path} is the input {source} (one file): choose another file (nothing was written).")
    if path.exists() and path.is_dir():
        fail(f"the output {path} is a folder; give a file name.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and not stat.S_ISREG(path.stat().st_mode):  # a device or a pipe, written as it is
            with path.open("a", encoding="utf8"):
                pass
        elif not os.access(path.parent, os.W_OK | os.X_OK):  # the output is written beside, then renamed
            raise PermissionError(13, os.strerror(13))
    except OSError as e:
        fail(f"cannot write {path}: {e.strerror or e} (nothing was written).")


def is_standard_stream(path: Optional[Path]) -> bool:
    """Whether a file option names standard input or output: none given, or `-`."""
    return path is None or str(path) == "-"


@contextmanager
def output_file(path: Optional[Path]) -> Iterator[TextIO]:
    """Where a command writes its output: standard output (`is_standard_stream`), a
    device or pipe as it is, or else a new file beside `path`, renamed to it
    once the command ends (the old file stays whole until then, and two
    runs writing one output never mix: the last to finish wins). An error
    of the input (`fail`) still puts what was written in place, as the
    message says; an interruption (Ctrl-C, SIGTERM) leaves the old file."""
    if is_standard_stream(path):
        yield sys.stdout
        return
    assert path is not None
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        with path.open("w", encoding="utf8", newline="\n") as device:
            yield device
        return
    descriptor, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    # mkstemp makes the file for its owner alone: give it the mode of the file it replaces, or the umask's
    os.fchmod(descriptor, stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_umask())
    target = os.fdopen(descriptor, "w", encoding="utf8", newline="\n")
    previous = signal.signal(signal.SIGTERM, _terminate) if _in_main_thread() else None
    try:
        yield target
    except (KeyboardInterrupt, SystemExit):
        _discard(target, partial)
        raise
    except BaseException:  # typer.Exit from `fail` included: what was written is put in place
        _close_quietly(target)
        os.replace(partial, path)
        raise
    else:
        target.close()
        os.replace(partial, path)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _umask() -> int:
    """The process's umask (read by setting it, and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _terminate(signum: int, frame: Any) -> NoReturn:
    raise SystemExit(128 + signum)


def _discard(target: TextIO, partial: str) -> None:
    _close_quietly(target)
    try:
        os.unlink(partial)
    except OSError:
        pass


def _close_quietly(target: TextIO) -> None:
    """Close an output whose failed write was reported already."""
    try:
        target.close()
    except OSError:
        pass


def transcript_format(input: Optional[Path], encoding: Optional[str]) -> Optional[str]:
    """The recogniser's format of an input file, found from its start and
    name (None: text or records, or standard input)."""
    if input is None or is_standard_stream(input) or not input.is_file():
        return None
    return file_transcript_format(input, encoding)
