"""Where commands write: an output file refused before anything is written
where it is an input, a folder or cannot be written; written beside and
renamed once whole, so that the old file stays whole until then and an
interruption leaves it; a folder of outputs that holds none yet."""

import os
import signal
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, NoReturn, Optional, TextIO

from ..errors import UserError


def write_failed(path: Optional[Path], error: OSError) -> NoReturn:
    """Fail on an output that could not be written (a full disk), in one line."""
    where = path if path is not None else "standard output"
    raise UserError(f"cannot write {where}: {error.strerror or error}. The output written before it is kept.")


def prepare_output_folder(folder: Path, *inputs: Path) -> None:
    """Refuse an output folder that holds .spacy files already (nothing is
    overwritten) or lies inside an input folder (its files would be read as
    input next time); create it."""
    if folder.exists() and not folder.is_dir():
        raise UserError(f"the output {folder} is a file; give a folder, or a name ending in .spacy for one file.")
    for source in inputs:
        if source.is_dir() and folder.resolve().is_relative_to(source.resolve()):
            raise UserError(
                f"the output {folder} is inside the input folder {source}: choose a folder outside it (nothing was written)."
            )
    if folder.is_dir() and any(folder.glob("*.spacy")):
        raise UserError(
            f"the output folder {folder} holds .spacy files already: choose an empty folder (nothing was written)."
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot write {folder}: {e.strerror or e} (nothing was written).") from None


def prepare_docbin_output(path: Path, *inputs: Optional[Path]) -> None:
    """`prepare_output` for a DocBin, whose name must end in .spacy: spaCy's
    corpus readers find DocBins in a folder by that suffix."""
    if path.suffix != ".spacy":
        raise UserError(
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
            raise UserError(
                f"the output {path} is the input {source} (one file): choose another file (nothing was written)."
            )
    if path.exists() and path.is_dir():
        raise UserError(f"the output {path} is a folder; give a file name.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and not stat.S_ISREG(path.stat().st_mode):  # a device or a pipe, written as it is
            with path.open("a", encoding="utf8"):
                pass
        elif not os.access(path.parent, os.W_OK | os.X_OK):  # the output is written beside, then renamed
            raise PermissionError(13, os.strerror(13))
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e} (nothing was written).") from None


def is_standard_stream(path: Optional[Path]) -> bool:
    """Whether a file option names standard input or output: none given, or `-`."""
    return path is None or str(path) == "-"


@contextmanager
def output_file(path: Optional[Path]) -> Iterator[TextIO]:
    """Where a command writes its output: standard output (`is_standard_stream`), a
    device or pipe as it is, or else a new file beside `path`, renamed to it
    once the command ends (the old file stays whole until then, and two
    runs writing one output never mix: the last to finish wins). An error
    of the input (a `UserError`) still puts what was written in place, as the
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
    except BaseException:  # an error of the input: what was written is put in place
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
