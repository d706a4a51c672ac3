"""`spacy-punct punctuate` as a job: its input (text, JSONL records, a
recogniser's file, a folder of them, records on Ray), its output, the
pipeline (`auto`: the one of the language the input names or its words
tell) and how it runs, decided here. Errors are `UserError`s; notes and
progress go to the caller's `Report`."""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, Optional, Tuple

from spacy.language import Language

from ..decode import DecisionSettings
from ..errors import UserError
from ..formats import textio
from ..formats.input_formats import check_engine, ending, file_format
from ..formats.output_files import is_standard_stream, output_file, prepare_output, write_failed
from ..formats.output_formats import OutputWriter, make_writer
from ..formats.recognisers import file_transcript_format, make_format, own_marks, read_recognised
from ..formats.timed import RecordError, TimedWord
from ..inference.folders import FileDone, PipelineFor, folder_files, punctuate_folder, punctuate_folder_in_processes
from ..inference.options import PunctOptions
from ..inference.text_jobs import punctuated_output
from ..inference.transcripts import written_transcript
from ..languages import guess_language, language_entry
from ..pipelines.bundled import default_pipeline
from ..pipelines.loading import PipelineError, load_pipeline
from ..runtime.threads import DEFAULT_THREADS
from .inputs import Report, check_input, load_punctuator, open_input, transcript_format, use_threads

# the model name that chooses each input's bundled pipeline by the language it names or its words tell
AUTO = "auto"
# an input with this many marks of its own is told of --repair and --merge
OWN_MARKS_HINT = 3


@dataclass
class PunctuateJob:
    """One `punctuate` run (see `spacy-punct punctuate --help` for each field)."""

    model: str
    input: Optional[Path] = None
    output: Optional[Path] = None
    format: Optional[str] = None
    from_format: Optional[str] = None
    input_format: Optional[str] = None
    whole: bool = False
    encoding: Optional[str] = None
    batch_size: int = 64
    max_chars: int = 84
    max_seconds: float = 7.0
    threads: int = DEFAULT_THREADS
    processes: int = 1
    engine: str = "local"
    workers: int = 2
    options: PunctOptions = field(default_factory=PunctOptions)


def run_punctuate(job: PunctuateJob, report: Report) -> bool:
    """Run the job; False where some of a folder's files were left out
    (each named in a note, the count in the last)."""
    if job.engine not in ("local", "ray"):
        raise UserError(f"unknown --engine {job.engine!r}; choose local or ray.")
    if job.input is not None and job.input.is_dir() and (job.engine == "local" or not _record_files(job.input)):
        return _run_folder(job, report)
    if job.processes > 1:
        raise UserError(
            "--processes shares a folder's files among processes: give a folder (--engine ray scales records)."
        )
    if job.engine == "local":  # Ray reads a folder of record files too
        check_input(job.input)
    transcript = job.from_format
    if transcript is None and job.engine == "local" and job.input_format is None:
        transcript = transcript_format(job.input, job.encoding)
    writer = _writer(job.format or "text", job)
    if transcript is not None:
        if job.engine != "local":
            raise UserError(
                f"--engine {job.engine} reads records: a recogniser's file ({transcript}) is read by --engine local."
            )
        use_threads(job.threads)
        model = _named_language(job.input, transcript, job.encoding) if job.model == AUTO else job.model
        nlp, settings = _pipeline(model, job.options)
        _run_recognised_file(job, nlp, settings, transcript, None if job.format is None else writer, report)
        return True
    model = _text_language(job.input, job.encoding) if job.model == AUTO else job.model
    if job.input_format is not None and job.input_format not in ("text", "jsonl"):
        raise UserError(f"unknown --input-format {job.input_format!r}; choose text or jsonl.")
    if job.engine == "ray":
        count = _run_records_on_ray(job, model)
        report.note(f"Wrote {count} records to {job.output}")
        return True
    try:  # the one table of input formats (input_formats.py)
        input_format = check_engine(job.input or "-", "local", job.input_format)
    except ValueError as e:
        raise UserError(str(e)) from None
    if job.format is None and input_format == "jsonl":
        writer = make_writer("jsonl")  # records in, records out: every field kept
    if writer.timed and input_format != "jsonl":
        raise UserError(
            f"--format {job.format} needs word timings: give JSONL records of timed words with --input-format jsonl."
        )
    if not is_standard_stream(job.output):
        prepare_output(job.output, job.input)
    use_threads(job.threads)
    nlp, settings = _pipeline(model, job.options)
    if not job.options.chose_marks and input_format == "text" and not is_standard_stream(job.input):
        marks = _head_marks(job.input, job.encoding)  # text whose marks vanished part-way, as a recogniser's
        if marks >= OWN_MARKS_HINT and not (settings.repair or settings.keep_existing):
            report.note(
                f"{job.input} has marks of its own ({marks} in its first lines), which are replaced: --repair keeps "
                "them and every capital, and fills marks and case only where they are missing (--no-repair hides "
                "this note)."
            )
    _run_text(job, nlp, settings, writer, input_format == "jsonl", report)
    return True


def _language_note(name: str, said: Optional[str], lang: Optional[str]) -> Optional[str]:
    """What to tell a user whose recogniser's file says it is in another
    language than the pipeline's (None: it says none, or the same)."""
    if said is None or lang is None or said == lang:
        return None
    which = (
        f"spacy-punct punctuate {said} {name} reads it with the bundled pipeline"
        if default_pipeline(said)
        else f"no bundled pipeline reads {_language(said)}"
    )
    return f"note: {name} says it is in {_language(said)}, this pipeline reads {_language(lang)}: {which}."


def _pipeline(model: str, options: PunctOptions) -> Tuple[Language, DecisionSettings]:
    nlp = load_punctuator(model)
    return nlp, options.prepare(nlp)


def _writer(name: str, job: PunctuateJob) -> OutputWriter:
    try:
        return make_writer(name, max_chars=job.max_chars, max_seconds=job.max_seconds)
    except ValueError as e:
        raise UserError(str(e)) from None


# -- a folder ----------------------------------------------------------------


def _run_folder(job: PunctuateJob, report: Report) -> bool:
    """Each file of the folder into the same name under the new folder -o; a
    file that cannot be read is named and left out."""
    source = job.input
    assert source is not None
    if job.whole or job.input_format is not None:
        raise UserError(
            "a folder's files are read each as its name and content say: leave out --whole and --input-format."
        )
    target = _check_folder_output(source, job.output, job.from_format, job.format)
    use_threads(job.threads)
    options: Dict[str, Any] = dict(
        encoding=job.encoding, batch_size=job.batch_size, max_chars=job.max_chars, max_seconds=job.max_seconds,
        transcript_format=job.from_format, output_format=job.format,
    )  # fmt: skip
    settings: Optional[DecisionSettings]
    if job.processes > 1 and job.engine == "ray":
        raise UserError("--processes and --engine ray both share a folder's files: choose one (--workers for Ray's).")
    if job.processes > 1 or job.engine == "ray":
        if job.options.engine_settings:
            way = "--processes" if job.processes > 1 else "--engine ray"
            raise UserError(
                f"{way} loads each pipeline as saved: --window, --stride and --cpu-precision would be ignored."
            )
        loaded = None if job.model == AUTO else _pipeline(job.model, job.options)  # the options checked once, here
        settings, lang = (loaded[1], loaded[0].lang) if loaded else (None, None)
        changes = job.options.changes()

        def run(progress: Callable[[int], None]) -> Iterator[FileDone]:
            if job.engine == "ray":
                return _folder_on_ray(job, target, changes, options, progress)
            return punctuate_folder_in_processes(
                job.model, source, target, processes=job.processes, threads=job.threads,
                by_language=job.model == AUTO, changes=changes, progress=progress, **options,
            )  # fmt: skip

    else:
        chosen = _by_language(job.options) if job.model == AUTO else _pipeline(job.model, job.options)
        nlp, settings = chosen if isinstance(chosen, tuple) else (chosen, None)
        lang = nlp.lang if isinstance(nlp, Language) else None

        def run(progress: Callable[[int], None]) -> Iterator[FileDone]:
            return punctuate_folder(nlp, source, target, settings=settings, progress=progress, **options)

    done = left_out = words = marked = 0
    try:
        for file in run(report.advance):
            note = _language_note(str(source / file.path), file.language, lang)
            if note:
                report.note(note)
            if file.error is None:
                done, words = done + 1, words + file.words
                marked += file.marks >= OWN_MARKS_HINT
            else:
                left_out += 1
                report.note(f"{file.error} (left out)")
    except OSError as e:
        write_failed(target, e)
    keeping = settings is not None and (settings.repair or settings.keep_existing)
    if marked and not job.options.chose_marks and not keeping:
        report.note(
            f"{marked} of {done} files had marks of their own, which were replaced: --repair keeps them and every "
            "capital, and fills marks and case only where they are missing (--no-repair hides this note)."
        )
    summary = f"Punctuated {done} files ({words:,} words) into {target}"
    report.note(summary + (f"; {left_out} left out." if left_out else "."))
    return not left_out


def _by_language(options: PunctOptions) -> PipelineFor:
    """`auto`: each file's bundled pipeline by the language it names, each loaded once."""
    loaded: Dict[str, Tuple[Language, DecisionSettings]] = {}

    def choose(language: Optional[str]) -> Tuple[Language, Optional[DecisionSettings]]:
        if language is None:
            raise ValueError("it names no language, so auto has no pipeline for it.")
        if not default_pipeline(language):
            raise ValueError(f"it is in {_language(language)}, which no bundled pipeline reads.")
        if language not in loaded:
            loaded[language] = _pipeline(language, options)
        return loaded[language]

    return choose


def _check_folder_output(
    input: Path, output: Optional[Path], from_format: Optional[str], format: Optional[str]
) -> Path:
    """The output folder, or, before the pipeline loads, a refusal of one
    that is not given, holds files or lies inside the input folder, and of
    unknown formats."""
    if output is None or is_standard_stream(output):
        raise UserError(f"the input {input} is a folder: give -o, a new folder for the punctuated files.")
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise UserError(
            f"the output {output} exists and is not an empty folder: choose a new one (nothing was written)."
        )
    if output.resolve().is_relative_to(input.resolve()):
        raise UserError(
            f"the output {output} is inside the input folder {input}: choose one outside it (nothing was written)."
        )
    try:  # an unknown format fails before any file is read
        make_writer(format or "text")
        if from_format is not None:
            make_format(from_format)
    except ValueError as e:
        raise UserError(str(e)) from None
    return output


def _record_files(folder: Path) -> bool:
    """Whether `--engine ray` reads a folder as files of records (JSONL or
    Parquet, written to files of its own), not as files each punctuated under
    its name (a recogniser's files, text): by the files' endings, and the
    first JSON file's content."""
    files = folder_files(folder)
    if any(file_format(file) == "text" for file in files):
        return False
    first = next((file for file in files if ending(file) == ".json"), None)
    return first is None or file_transcript_format(folder / first) is None


def _folder_on_ray(
    job: PunctuateJob, target: Path, changes: Dict[str, Any], options: Dict[str, Any], progress: Callable[[int], None]
) -> Iterator[FileDone]:
    """A folder's files on Ray (`punctuate_folder_on_ray`), each file's words
    told to `progress` as it comes back."""
    try:
        from ..distributed import punctuate_folder_on_ray
    except ImportError as e:
        raise UserError(f"--engine ray needs the ray extra (pip install spacy-punct[ray]): {e}") from None
    assert job.input is not None
    for file in punctuate_folder_on_ray(
        job.model, job.input, target, workers=job.workers, threads=job.threads, by_language=job.model == AUTO,
        changes=changes, **options,
    ):  # fmt: skip
        progress(file.words)
        yield file


# -- records on Ray -------------------------------------------------------------


def _run_records_on_ray(job: PunctuateJob, model: str) -> int:
    """Records from files to a folder, on Ray, with the pipeline's saved
    settings; how many were written."""
    if job.encoding is not None:
        raise UserError("--engine ray reads JSONL (UTF-8) or Parquet records: --encoding would be ignored.")
    given = job.options.given()
    if given:
        raise UserError(
            f"--engine ray runs the pipeline with its saved settings: {', '.join(given)} would be ignored "
            "(save a pipeline with them instead)."
        )
    try:
        from ..distributed.engine import input_format, punctuate_files
    except ImportError as e:
        raise UserError(f"--engine ray needs the ray extra (pip install spacy-punct[ray]): {e}") from None
    if job.input is None or job.output is None:
        raise UserError("--engine ray reads records from INPUT (.jsonl or .parquet) and writes them to the folder -o.")
    if not job.input.exists():
        raise UserError(f"the input {job.input} does not exist.")
    if job.output.exists():
        raise UserError(f"the output folder {job.output} exists: choose a new one (nothing was written).")
    try:
        input_format(job.input)
        load_pipeline(model, threads=None)  # fail here, not in every actor
        return punctuate_files(
            model, job.input, job.output, workers=job.workers, batch_size=job.batch_size, threads=job.threads
        )
    except (PipelineError, ValueError) as e:
        raise UserError(str(e)) from None


# -- one recogniser's file ---------------------------------------------------------


def _run_recognised_file(
    job: PunctuateJob,
    nlp: Language,
    settings: DecisionSettings,
    kind_name: str,
    writer: Optional[OutputWriter],
    report: Report,
) -> None:
    """A recogniser's file punctuated as one text and written in its own
    format (or in `writer`'s, given); a file with marks of its own, where
    the caller chose nothing about them, is told how to keep them."""
    where = "standard input" if is_standard_stream(job.input) else str(job.input)
    try:
        reader = open_input(job.input, job.encoding, report)
        try:
            text = "".join(reader.read_as_written())  # line ends as written: CRLF is written back so
        finally:
            reader.close()
        kind, transcript = read_recognised(
            text, kind_name, name=where, max_chars=job.max_chars, max_seconds=job.max_seconds
        )
    except (textio.InputError, RecordError, ValueError) as e:
        raise UserError(str(e)) from None
    note = _language_note(where, transcript.language, nlp.lang)
    if note:
        report.note(note)
    marks = own_marks(transcript.words)
    if not job.options.chose_marks and marks >= OWN_MARKS_HINT and not (settings.repair or settings.keep_existing):
        report.note(
            f"{where} has {marks} marks of its own, which are replaced: --repair keeps them and every capital, "
            "and fills marks and case only where they are missing; --merge weighs them with the pipeline's "
            "(--no-repair hides this note)."
        )
    if not is_standard_stream(job.output):
        prepare_output(job.output, job.input)
    done = [0]

    def progress(words: int) -> None:
        report.advance(words - done[0])
        done[0] = words

    try:
        written, _ = written_transcript(
            nlp, text, kind, transcript, writer=writer, settings=settings, progress=progress
        )
        with output_file(job.output) as target:
            target.write(written)
    except (RecordError, ValueError) as e:
        raise UserError(f"{where}: {e}") from None
    except OSError as e:
        write_failed(None if is_standard_stream(job.output) else job.output, e)


# -- text and records ------------------------------------------------------------------


def _run_text(
    job: PunctuateJob, nlp: Language, settings: DecisionSettings, writer: OutputWriter, records: bool, report: Report
) -> None:
    """Text (a document a line, or --whole) or JSONL records, read and
    written as they go; a bad line stops the input, after the lines before it."""
    reader = open_input(job.input, job.encoding, report)
    try:
        with output_file(job.output) as target:
            for written in punctuated_output(
                nlp, reader, writer, whole=job.whole, records=records, batch_size=job.batch_size, settings=settings
            ):
                target.write(written.text)
                target.flush()
                report.advance(written.words)
    except (RecordError, ValueError) as e:
        raise UserError(f"{reader.name}: {e} The output written so far is kept.") from None
    except OSError as e:
        write_failed(None if is_standard_stream(job.output) else job.output, e)
    finally:
        reader.close()
    if reader.replaced:
        report.note(textio.replaced_message(reader))
    if reader.error:
        raise UserError(f"{reader.error}. The output of the lines before it is written.")


# -- auto: the input's language ------------------------------------------------------------


def _text_language(input: Optional[Path], encoding: Optional[str]) -> str:
    """`auto` for a text file: the language its first lines' words tell, which a bundled pipeline reads."""
    if input is None or is_standard_stream(input):
        raise UserError("auto tells a text's language by its first lines: give the file, not standard input.")
    try:
        language = guess_language(" ".join(textio.read_head(input, encoding)).split())
    except textio.InputError as e:
        raise UserError(str(e)) from None
    if language is None:
        raise UserError(
            f"{input}: its words tell no language a bundled pipeline reads, so auto has no pipeline: give one."
        )
    return language


def _named_language(input: Optional[Path], kind: str, encoding: Optional[str]) -> str:
    """`auto` for one recogniser's file: the language it names, which a bundled pipeline reads."""
    if input is None or is_standard_stream(input):
        raise UserError("auto reads the language a recogniser's file names: give the file, not standard input.")
    where = str(input)
    try:
        text = textio.read_text(input, encoding)[0]
        transcript = read_recognised(text, kind, name=where)[1]
    except (textio.InputError, RecordError, ValueError) as e:
        raise UserError(str(e)) from None
    language = transcript.language or guess_language(word.text for word in transcript.words)
    if language is None:
        raise UserError(
            f"{where} names no language and its words tell none, so auto has no pipeline for it: give one (en, hu, bn)."
        )
    if not default_pipeline(language):
        raise UserError(f"{where} is in {_language(language)}, which no bundled pipeline reads.")
    return language


def _language(code: str) -> str:
    """A language's name, or where the project knows none, its code."""
    name = language_entry(code).name
    return name if name != code else repr(code)


def _head_marks(input: Optional[Path], encoding: Optional[str]) -> int:
    """How many words of a text file's first lines carry a mark of their own."""
    try:
        head = textio.read_head(input, encoding) if input is not None else []
    except textio.InputError:
        return 0  # reading it names the problem
    return own_marks([TimedWord(word) for word in " ".join(head).split()])
