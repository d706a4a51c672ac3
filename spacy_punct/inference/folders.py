"""A folder of inputs punctuated into another, file by file, under the same
names: each recogniser's file in its own format (or the writer's), each
text or JSONL file as `punctuate` writes one. Recognisers' files are
punctuated a group at a time, their texts in shared batches, so that many
short files go as fast as one long one. A file that cannot be read is named
and left out, its output removed, and the others go on."""

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.language import Language

from ..decode import DecisionSettings
from ..formats.input_formats import check_engine
from ..formats.output_formats import make_writer
from ..formats.recognisers import Transcript, TranscriptFormat, file_transcript_format, own_marks, read_recognised
from ..formats.textio import InputError, open_text, read_head
from ..formats.timed import RecordError
from ..languages import guess_language
from .text_jobs import punctuated_output
from .transcripts import punctuate_transcripts, write_transcript

# a pipeline and its decision settings (None: its own) for the language a file names (None: it names none)
PipelineFor = Callable[[Optional[str]], Tuple[Language, Optional[DecisionSettings]]]

# recognisers' files punctuated together: at most this many words, or files
GROUP_WORDS = 20_000
GROUP_FILES = 256

_ERRORS = (RecordError, InputError, ValueError, UnicodeDecodeError)


@dataclass(frozen=True)
class FileDone:
    """A file of the folder: its path within it, its words punctuated, why
    it was left out (None: it was written), the language a recogniser's file
    says it is in (a code), where it says one, and how many of its words
    carry a mark of their own."""

    path: Path
    words: int = 0
    error: Optional[str] = None
    language: Optional[str] = None
    marks: int = 0


@dataclass
class _Read:
    """A recogniser's file read and waiting for its group."""

    path: Path
    text: str
    kind: TranscriptFormat
    transcript: Transcript


def folder_files(folder: Path) -> List[Path]:
    """The files of a folder and its subfolders, by name, as paths within it
    (hidden files and folders, such as `.git`, left out)."""
    return sorted(
        path.relative_to(folder)
        for path in folder.rglob("*")
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    )


def punctuate_folder(
    nlp: Union[Language, PipelineFor],
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
    files: Optional[Sequence[Path]] = None,
) -> Iterator[FileDone]:
    """Each file of `source` (`folder_files`, or `files`, paths within it)
    punctuated into the same path
    under `target`, in order of name, as it is done. `transcript_format`:
    read every file as that recogniser's (default: each found from its
    content and name, else text or JSONL records by its name);
    `output_format`: write every file so (default: a recogniser's file in
    its own format, others as text or JSONL as read). `progress`: called
    with the words done of each file. `nlp`: the pipeline, or a function
    that gives each file's pipeline and settings by the language the file
    names (`PipelineFor`; a ValueError leaves the file out)."""
    choose: PipelineFor = (lambda language: (nlp, settings)) if isinstance(nlp, Language) else nlp
    options: Dict[str, Any] = dict(max_chars=max_chars, max_seconds=max_seconds)
    group: List[_Read] = []
    chosen: Tuple[Optional[Language], Optional[DecisionSettings]] = (None, None)  # the group's

    def done() -> Iterator[FileDone]:
        if group:
            pipe, pipe_settings = chosen
            assert pipe is not None
            yield from _group_done(pipe, group, target, pipe_settings, output_format, batch_size, options, progress)

    for path in folder_files(source) if files is None else files:
        try:
            kind = transcript_format or file_transcript_format(source / path, encoding)
            read = _read_transcript(source, path, kind, encoding, options) if kind is not None else None
            language = read.transcript.language if read is not None else None
            if language is None and not isinstance(
                nlp, Language
            ):  # chosen by language: a file naming none by its words
                said = (
                    (w.text for w in read.transcript.words)
                    if read
                    else " ".join(read_head(source / path, encoding)).split()
                )
                language = guess_language(said)
                if read is not None:
                    read.transcript.language = language
            pipe, pipe_settings = choose(language)
        except _ERRORS as e:
            yield from done()
            yield FileDone(path, 0, _named(e, source / path))
            continue
        if read is not None:
            if group and pipe is not chosen[0]:  # a group is punctuated by one pipeline
                yield from done()
            group.append(read)
            chosen = (pipe, pipe_settings)
            if len(group) >= GROUP_FILES or sum(len(r.transcript.words) for r in group) >= GROUP_WORDS:
                yield from done()
            continue
        yield from done()
        partial = _partial(_output_path(target, path))
        try:
            words = _punctuate_text_file(
                pipe, source / path, partial, pipe_settings, output_format, encoding, batch_size, progress
            )
        except _ERRORS as e:
            partial.unlink(missing_ok=True)
            yield FileDone(path, 0, _named(e, source / path))
            continue
        os.replace(partial, target / path)
        yield FileDone(path, words)
    yield from done()


def _read_transcript(source: Path, path: Path, kind: str, encoding: Optional[str], options: Dict[str, Any]) -> _Read:
    reader = open_text(source / path, encoding)
    try:
        text = "".join(reader.read_as_written())
    finally:
        reader.close()
    found, transcript = read_recognised(text, kind, name=str(source / path), **options)
    return _Read(path, text, found, transcript)


def _group_done(
    nlp: Language,
    group: List[_Read],
    target: Path,
    settings: Optional[DecisionSettings],
    output_format: Optional[str],
    batch_size: int,
    options: Dict[str, Any],
    progress: Optional[Callable[[int], None]],
) -> Iterator[FileDone]:
    """The waiting files punctuated together and written (the group emptied);
    should the group fail, each file alone, so that one bad file is the only
    one left out."""
    files, group[:] = list(group), []
    if not files:
        return
    try:
        done = punctuate_transcripts(
            nlp, [(r.transcript, r.kind.separate_groups) for r in files], settings=settings, batch_size=batch_size
        )
    except _ERRORS:
        if len(files) == 1:
            raise
        for read in files:
            try:
                yield from _group_done(nlp, [read], target, settings, output_format, batch_size, options, progress)
            except _ERRORS as e:
                yield FileDone(read.path, 0, _named(e, read.path))
        return
    for read, (docs, words) in zip(files, done):
        out = _output_path(target, read.path)
        writer = None if output_format is None else make_writer(output_format, **options)
        try:
            written = write_transcript(read.text, read.kind, read.transcript, docs, words, writer)
        except _ERRORS as e:
            yield FileDone(read.path, 0, _named(e, read.path))
            continue
        partial = _partial(out)
        partial.write_text(written, encoding="utf8", newline="")
        os.replace(partial, out)
        if progress is not None:
            progress(len(words))
        yield FileDone(read.path, len(words), language=read.transcript.language, marks=own_marks(read.transcript.words))


def _punctuate_text_file(
    nlp: Language,
    path: Path,
    out: Path,
    settings: Optional[DecisionSettings],
    output_format: Optional[str],
    encoding: Optional[str],
    batch_size: int,
    progress: Optional[Callable[[int], None]],
) -> int:
    """A text or JSONL file punctuated into `out` as it is read (bounded
    memory on any size); its number of words."""
    records = check_engine(path, "local") == "jsonl"
    writer = make_writer(output_format or ("jsonl" if records else "text"))
    if writer.timed and not records:
        raise ValueError("captions need word timings, which a text file has not.")
    reader = open_text(path, encoding)
    words = 0
    try:
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
    finally:
        reader.close()
    return words


def _output_path(target: Path, path: Path) -> Path:
    out = target / path
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def _partial(out: Path) -> Path:
    """Where a file is written before it is whole (then renamed to `out`)."""
    return out.with_name(f".{out.name}.partial")


def _named(error: Exception, path: Path) -> str:
    """An error's message, led by the file's name where it does not name it."""
    message = str(error)
    return message if str(path) in message else f"{path}: {message}"


def punctuate_folder_in_processes(
    model: str,
    source: Path,
    target: Path,
    *,
    processes: int,
    threads: int = 1,
    by_language: bool = False,
    changes: Optional[Dict[str, Any]] = None,
    progress: Optional[Callable[[int], None]] = None,
    **options: Any,
) -> Iterator[FileDone]:
    """`punctuate_folder` in `processes` spawned processes side by side, each
    with its own copy of the pipeline `model` (a name or path) on `threads`
    torch threads, each taking runs of files in turn; the results come in
    order of name, as each run is done. `by_language`: each file read by
    the bundled pipeline of the language it names, as `model` is ignored;
    `changes`: the pipelines' decision settings changed (`DecisionSettings.replace`);
    `options`: `punctuate_folder`'s."""
    import concurrent.futures
    import multiprocessing

    names = folder_files(source)
    size = max(1, min(GROUP_FILES, -(-len(names) // (4 * processes))))  # a few runs a process, to share the work
    runs = [names[start : start + size] for start in range(0, len(names), size)]
    context = multiprocessing.get_context("spawn")  # a fork after torch ran with threads hangs
    setup = (model, by_language, changes or {}, threads, source, target, options)
    with concurrent.futures.ProcessPoolExecutor(
        processes, mp_context=context, initializer=_start, initargs=setup
    ) as pool:
        for done in pool.map(_run_files, runs):
            if progress is not None:
                progress(sum(file.words for file in done))
            yield from done


_PROCESS: Dict[str, Any] = {}  # in a process of `punctuate_folder_in_processes`: what it was set up with


def _start(
    model: str, by_language: bool, changes: Dict[str, Any], threads: int, source: Path, target: Path,
    options: Dict[str, Any],
) -> None:  # fmt: skip
    """A process's pipelines and what it punctuates with them."""
    _PROCESS.update(
        choose=pipeline_chooser(model, by_language, changes, threads), source=source, target=target, options=options
    )


def pipeline_chooser(model: str, by_language: bool, changes: Dict[str, Any], threads: int) -> PipelineFor:
    """Each file's pipeline and settings, each pipeline loaded once (`model`
    loaded now): `model`, or with `by_language` the bundled pipeline of the
    language a file names (a ValueError where none reads it); `changes`:
    the decision settings changed (`DecisionSettings.replace`)."""
    from ..pipelines.bundled import default_pipeline
    from ..pipelines.loading import find_punctuator, load_pipeline

    loaded: Dict[str, Tuple[Language, Optional[DecisionSettings]]] = {}

    def pipeline(name: str) -> Tuple[Language, Optional[DecisionSettings]]:
        if name not in loaded:
            nlp = load_pipeline(name, threads=threads)
            loaded[name] = (nlp, find_punctuator(nlp)[1].settings.replace(**changes))
        return loaded[name]

    def choose(language: Optional[str]) -> Tuple[Language, Optional[DecisionSettings]]:
        if not by_language:
            return pipeline(model)
        if language is None:
            raise ValueError("it names no language, so no pipeline is chosen for it.")
        if not default_pipeline(language):
            raise ValueError(f"it is in {language!r}, which no bundled pipeline reads.")
        return pipeline(language)

    if not by_language:
        pipeline(model)  # loaded before the first run
    return choose


def _run_files(files: List[Path]) -> List[FileDone]:
    """A run of files punctuated in this process."""
    return list(
        punctuate_folder(_PROCESS["choose"], _PROCESS["source"], _PROCESS["target"], files=files, **_PROCESS["options"])
    )
