"""A job's input and pipeline: a file or standard input, checked before
anything is read; the pipeline loaded for a long run on the threads asked."""

import sys
from pathlib import Path
from typing import Optional, Protocol

from spacy.language import Language

from ..errors import UserError
from ..formats import textio
from ..formats.output_files import is_standard_stream
from ..formats.recognisers import file_transcript_format
from ..pipelines.loading import PipelineError, load_for_long_run
from ..runtime.threads import set_threads


class Report(Protocol):
    """What the caller shows of a job: notes (a line each, never mixed with
    the output) and progress (words done)."""

    def note(self, text: str) -> None: ...

    def advance(self, words: int) -> None: ...


def check_input(path: Optional[Path]) -> None:
    """Refuse at once an input file that is missing or a folder (`-` is standard input)."""
    if path is None or str(path) == "-":
        return
    if not path.exists():
        raise UserError(f"the input {path} does not exist.")
    if path.is_dir():
        raise UserError(f"the input {path} is a folder: give a file.")


def open_input(path: Optional[Path], encoding: Optional[str], report: Report) -> textio.TextReader:
    """A reader of the input file, or of standard input (no path, or `-`);
    at a terminal, a note says that input is awaited."""
    try:
        if not is_standard_stream(path):
            assert path is not None
            return textio.open_text(path, encoding)
    except textio.InputError as e:
        raise UserError(str(e)) from None
    if sys.stdin.isatty():
        report.note("Reading standard input: one document per line; Ctrl-D ends it.")
    return textio.TextReader(sys.stdin.buffer, "standard input", encoding)


def load_punctuator(model: str) -> Language:
    """A punctuating pipeline for a long run, or a `UserError`."""
    try:
        return load_for_long_run(model, threads=None)  # the job sets its threads
    except (PipelineError, ValueError) as e:
        raise UserError(str(e)) from None


def use_threads(threads: int) -> None:
    try:
        set_threads(threads)
    except ValueError as e:
        raise UserError(str(e)) from None


def transcript_format(input: Optional[Path], encoding: Optional[str]) -> Optional[str]:
    """The recogniser's format of an input file, found from its start and
    name (None: text or records, or standard input)."""
    if input is None or is_standard_stream(input) or not input.is_file():
        return None
    return file_transcript_format(input, encoding)
