"""A folder of inputs punctuated into another, file by file, under the same
names: each recogniser's file in its own format (or the writer's), each
text or JSONL file as `punctuate` writes one. A file that cannot be read is
named and left out, its output removed, and the others go on."""

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, List, Optional, Tuple

from spacy.language import Language

from ..decode import DecisionSettings
from ..formats.input_formats import check_engine
from ..formats.output_formats import make_writer
from ..formats.recognisers import file_transcript_format, read_recognised
from ..formats.textio import InputError, open_text
from ..formats.timed import RecordError
from .text_jobs import punctuated_output
from .transcripts import written_transcript


@dataclass(frozen=True)
class FileDone:
    """A file of the folder: its path within it, its words punctuated, why
    it was left out (None: it was written), and the language a recogniser's
    file says it is in (a code), where it says one."""

    path: Path
    words: int = 0
    error: Optional[str] = None
    language: Optional[str] = None


def folder_files(folder: Path) -> List[Path]:
    """The files of a folder and its subfolders, by name, as paths within it
    (hidden files and folders, such as `.git`, left out)."""
    return sorted(
        path.relative_to(folder)
        for path in folder.rglob("*")
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    )


def punctuate_folder(
    nlp: Language,
    source: Path,
    target: Path,
    *,
    settings: Optional[DecisionSettings] = None,
    transcript_format: Optional[str] = None,
    output_format: Optional[str] = None,
    encoding: Optional[str] = None,
    batch_size: int = 64,
    max_chars: int = 84,
    max_seconds: float = 7.0,
    progress: Optional[Callable[[int], None]] = None,
) -> Iterator[FileDone]:
    """Each file of `source` (`folder_files`) punctuated into the same path
    under `target`, as it is done. `transcript_format`: read every file as
    that recogniser's (default: each found from its content and name, else
    text or JSONL records by its name); `output_format`: write every file
    so (default: a recogniser's file in its own format, others as text or
    JSONL as read). `progress`: called with the words done of each file."""
    for path in folder_files(source):
        out = target / path
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(f".{out.name}.partial")
        try:
            words, language = _punctuate_file(
                nlp, source / path, partial, settings, transcript_format, output_format, encoding, batch_size,
                max_chars, max_seconds, progress,
            )  # fmt: skip
        except (RecordError, InputError, ValueError, UnicodeDecodeError) as e:
            partial.unlink(missing_ok=True)
            yield FileDone(path, 0, str(e))
            continue
        os.replace(partial, out)
        yield FileDone(path, words, language=language)


def _punctuate_file(
    nlp: Language,
    path: Path,
    out: Path,
    settings: Optional[DecisionSettings],
    transcript_format: Optional[str],
    output_format: Optional[str],
    encoding: Optional[str],
    batch_size: int,
    max_chars: int,
    max_seconds: float,
    progress: Optional[Callable[[int], None]],
) -> Tuple[int, Optional[str]]:
    """One file punctuated into `out`; its number of words, and the language
    it says it is in."""
    writer = None if output_format is None else make_writer(output_format, max_chars=max_chars, max_seconds=max_seconds)
    kind = transcript_format or file_transcript_format(path, encoding)
    reader = open_text(path, encoding)
    try:
        if kind is not None:
            text = "".join(reader.read_as_written())
            found, transcript = read_recognised(
                text, kind, name=str(path), max_chars=max_chars, max_seconds=max_seconds
            )
            written, words = written_transcript(nlp, text, found, transcript, writer=writer, settings=settings)
            out.write_text(written, encoding="utf8", newline="")
            if progress is not None:
                progress(words)
            return words, transcript.language
        records = check_engine(path, "local") == "jsonl"
        writer = writer or make_writer("jsonl" if records else "text")
        if writer.timed and not records:
            raise ValueError(f"{path}: captions need word timings, which a text file has not.")
        words = 0
        with out.open("w", encoding="utf8", newline="") as target:
            for piece in punctuated_output(
                nlp, reader, writer, records=records, batch_size=batch_size, settings=settings
            ):
                target.write(piece.text)
                words += piece.words
                if progress is not None and piece.words:
                    progress(piece.words)
        if reader.error:
            raise InputError(reader.error)
        return words, None
    finally:
        reader.close()
