"""What the commands share: the app, errors, loading, inputs, outputs, threads."""

import functools
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional, TextIO, TypeVar

import typer
from spacy.language import Language
from tqdm import tqdm

from ..errors import UserError

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


class BarReport:
    """A job's `Report` on the command line: notes on stderr above the
    words-done bar (`progress_bar`), which closes with the block."""

    def __init__(self, bar: tqdm) -> None:
        self.bar = bar

    def note(self, text: str) -> None:
        self.bar.write(text, file=sys.stderr)

    def advance(self, words: int) -> None:
        self.bar.update(words)

    def __enter__(self) -> "BarReport":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.bar.close()


def progress_bar(show: bool, **options: Any) -> tqdm:
    """A progress bar on stderr (tqdm `options`): live at a terminal,
    otherwise a line every minute, so a long job sent to a log shows its
    pace; nothing where `show` is false."""
    if not show or sys.stderr.isatty():
        return tqdm(file=sys.stderr, disable=not show, **options)
    return tqdm(file=_LogLines(sys.stderr), mininterval=LOG_PROGRESS_SECONDS, ascii=True, **options)


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
