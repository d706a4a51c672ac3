"""What the commands share: the app, errors, loading, inputs, outputs, threads."""

import functools
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, NoReturn, Optional, TextIO, TypeVar

import typer
from spacy.language import Language
from tqdm import tqdm

from ..decode import DecisionSettings, check_settings
from ..errors import UserError
from ..formats import textio
from ..formats.output_files import is_standard_stream
from ..formats.recognisers import file_transcript_format
from ..languages import language_entry
from ..layers import transformer
from ..pipelines.loading import PipelineError, find_punctuator, load_for_long_run
from ..runtime.threads import set_threads

CommandFunction = TypeVar("CommandFunction", bound=Callable[..., Any])


class _App(typer.Typer):
    """The command line: a command that meets a user's mistake
    (`errors.UserError`, raised anywhere below it) prints it in one line and
    exits with status 1."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[CommandFunction], CommandFunction]:
        register = super().command(*args, **kwargs)

        def decorator(function: CommandFunction) -> CommandFunction:
            @functools.wraps(function)
            def run(*call_args: Any, **call_kwargs: Any) -> Any:
                try:
                    return function(*call_args, **call_kwargs)
                except UserError as e:
                    fail(str(e))

            register(run)
            return function

        return decorator


app = _App(
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


def transcript_format(input: Optional[Path], encoding: Optional[str]) -> Optional[str]:
    """The recogniser's format of an input file, found from its start and
    name (None: text or records, or standard input)."""
    if input is None or is_standard_stream(input) or not input.is_file():
        return None
    return file_transcript_format(input, encoding)
