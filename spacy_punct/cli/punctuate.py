"""`spacy-punct punctuate`: punctuate text, records or timed words: files, standard input, Ray."""

import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import typer
from spacy.language import Language

from ..decode import DecisionSettings
from ..formats import textio
from ..formats.input_formats import check_engine, ending, file_format
from ..formats.output_files import is_standard_stream, output_file, prepare_output, write_failed
from ..formats.output_formats import OutputWriter, make_writer
from ..formats.recognisers import file_transcript_format, make_format, own_marks, read_recognised
from ..formats.timed import RecordError, TimedWord
from ..inference.folders import FileDone, PipelineFor, folder_files, punctuate_folder, punctuate_folder_in_processes
from ..inference.text_jobs import punctuated_output
from ..inference.transcripts import written_transcript
from ..languages import guess_language, language_entry
from ..pipelines.bundled import default_pipeline
from ..pipelines.loading import PipelineError, load_pipeline
from ..runtime.threads import DEFAULT_THREADS
from ._util import (
    CPU_PRECISION_HELP,
    ENCODING_HELP,
    END_THRESHOLD_HELP,
    MERGE_HELP,
    REPAIR_HELP,
    STRIDE_HELP,
    THREADS_HELP,
    WINDOW_HELP,
    app,
    apply_transformer_settings,
    check_input,
    decision_settings,
    fail,
    load_or_fail,
    open_input,
    parse_settings,
    progress_bar,
    set_threads_or_fail,
    show_progress,
    transcript_format,
)


@app.command(short_help="Punctuate text, records or timed words.")
def punctuate(
    model: str = typer.Argument(
        ...,
        help="A pipeline name or path with a punctuator, or auto: each recogniser's file read by the bundled pipeline of the language it names (Whisper's 'language').",
    ),
    input: Optional[Path] = typer.Argument(
        None,
        help="Text file, plain or gzip (default or -: standard input), a recogniser's file, or a folder of them: each file into the same name under the new folder -o.",
    ),
    output: Optional[Path] = typer.Option(
        None, "--output", "-o", help="Output file (default or -: stdout), written beside and renamed once whole."
    ),
    format: Optional[str] = typer.Option(
        None,
        help="Output: text (the punctuated text; the default for text), jsonl (one JSON record per document; the default for JSONL records), or srt / vtt captions (timed words in JSONL input); a recogniser's file is written in its own format unless this is given.",
    ),
    from_format: Optional[str] = typer.Option(
        None,
        "--from",
        help="The input is a recogniser's file: whisper (openai-whisper, faster-whisper, WhisperX JSON), whisper-cpp (whisper.cpp's -oj, -ojf), deepgram, google (Speech-to-Text), assemblyai, azure (batch transcription), amazon (Transcribe), speechmatics, rev (Rev AI), transformers (Hugging Face pipeline, insanely-fast-whisper), tsv (openai-whisper's), csv (whisper.cpp's), timestamped ([00:00.000 --> 00:02.000]  text lines), lrc (whisper.cpp's -olrc), sbv (YouTube's SubViewer), youtube (youtube-transcript-api's snippets), json3 (YouTube's timed text, yt-dlp's --sub-format json3), vosk, ctm (Kaldi), nemo (manifest), srt or vtt (default: found from the file's content and name).",
    ),
    max_chars: int = typer.Option(
        84, min=1, help="srt/vtt/sbv: characters per cue at most (a cue also ends at each sentence end)."
    ),
    max_seconds: float = typer.Option(7.0, min=0.1, help="srt/vtt/sbv: seconds per cue at most."),
    input_format: Optional[str] = typer.Option(
        None,
        help="Input: text (one document per line) or jsonl (records with 'text' or timed 'words'); default: jsonl for a .jsonl, .json or .jsonl.gz file, else text.",
    ),
    whole: bool = typer.Option(False, "--whole", help="The whole input is one document (default: one per line)."),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
    batch_size: int = typer.Option(64, min=1, help="Documents per batch."),
    keep_existing: Optional[bool] = typer.Option(
        None,
        "--keep-existing/--replace-existing",
        help="Keep punctuation already in the input, or let predictions replace it (default: as the pipeline says).",
    ),
    repair: Optional[bool] = typer.Option(None, "--repair/--no-repair", help=REPAIR_HELP),
    merge: bool = typer.Option(False, "--merge", help=MERGE_HELP),
    add_marks: Optional[bool] = typer.Option(
        None,
        "--add-marks/--case-only",
        help="Write the predicted marks, or keep the input's punctuation as it is and restore case only (text that is punctuated already; default: as the pipeline says).",
    ),
    threshold: List[str] = typer.Option(
        [], help="LABEL=P: write LABEL's mark wherever its probability reaches P (repeatable)."
    ),
    margin: List[str] = typer.Option(
        [], help="LABEL=X: write LABEL's mark only with a relative margin over every other class above X (repeatable)."
    ),
    end_threshold: Optional[float] = typer.Option(None, help=END_THRESHOLD_HELP),
    window: int = typer.Option(0, min=0, help=WINDOW_HELP),
    stride: int = typer.Option(0, min=0, help=STRIDE_HELP),
    cpu_precision: str = typer.Option("", help=CPU_PRECISION_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
    processes: int = typer.Option(
        1, min=1, help="A folder: processes side by side, each with its own pipeline on --threads threads."
    ),
    progress: Optional[bool] = typer.Option(
        None, "--progress/--no-progress", help="Show words done on stderr (default: when it is a terminal)."
    ),
    engine: str = typer.Option(
        "local",
        help="local: this process; ray: an actor pool on Ray (the ray extra; RAY_ADDRESS for a cluster) over JSONL or Parquet records in INPUT, written to the folder -o, or over a folder's files, each written under its name.",
    ),
    workers: int = typer.Option(2, min=1, help="--engine ray: actors, each with its own pipeline."),
) -> None:
    """Punctuate text: one document per line (empty lines stay empty, line ends
    as in the input: CRLF stays CRLF), read and
    written as it goes, so memory stays bounded on inputs of any size; lines
    up to textio.MAX_LINE_CHARS (20 million characters) are punctuated in
    pieces; a longer one stops the input, after the lines before it."""
    if input is not None and input.is_dir() and (engine == "local" or (engine == "ray" and not _record_files(input))):
        if whole or input_format is not None:
            fail("a folder's files are read each as its name and content say: leave out --whole and --input-format.")
        folder = _check_folder_output(input, output, from_format, format)
        set_threads_or_fail(threads)

        def pipeline(name: str) -> Tuple[Language, DecisionSettings]:
            nlp = load_or_fail(name)
            settings = decision_settings(
                nlp, keep_existing, threshold, margin, add_marks, repair, end_threshold, merge or None
            )
            apply_transformer_settings(nlp, window, stride, cpu_precision)
            return nlp, settings

        options: Dict[str, Any] = dict(
            encoding=encoding, batch_size=batch_size, max_chars=max_chars, max_seconds=max_seconds,
            transcript_format=from_format, output_format=format,
        )  # fmt: skip
        hint = keep_existing is None and repair is None and add_marks is None and not merge
        if processes > 1 and engine == "ray":
            fail("--processes and --engine ray both share a folder's files: choose one (--workers for Ray's).")
        if processes > 1 or engine == "ray":
            if window or stride or cpu_precision:
                way = "--processes" if processes > 1 else "--engine ray"
                fail(f"{way} loads each pipeline as saved: --window, --stride and --cpu-precision would be ignored.")
            loaded = None if model == AUTO else pipeline(model)  # the options checked once, here
            settings, lang = (loaded[1], loaded[0].lang) if loaded else (None, None)
            changes = dict(
                keep_existing=keep_existing, add_marks=add_marks, repair=repair, end_threshold=end_threshold,
                thresholds=parse_settings(threshold, "--threshold") if threshold else None,
                margins=parse_settings(margin, "--margin") if margin else None,
            )  # fmt: skip

            def run(progress: Callable[[int], None]) -> Iterator[FileDone]:
                if engine == "ray":
                    return _folder_on_ray(model, input, folder, workers, threads, changes, options, progress)
                return punctuate_folder_in_processes(
                    model, input, folder, processes=processes, threads=threads, by_language=model == AUTO,
                    changes=changes, progress=progress, **options,
                )  # fmt: skip

        else:
            chosen = _by_language(pipeline) if model == AUTO else pipeline(model)
            nlp, settings = chosen if isinstance(chosen, tuple) else (chosen, None)
            lang = nlp.lang if isinstance(nlp, Language) else None

            def run(progress: Callable[[int], None]) -> Iterator[FileDone]:
                return punctuate_folder(nlp, input, folder, settings=settings, progress=progress, **options)

        _punctuate_folder(run, input, folder, lang, settings, progress, hint)
        return
    if processes > 1:
        fail("--processes shares a folder's files among processes: give a folder (--engine ray scales records).")
    if engine != "ray":  # Ray reads a folder of record files too
        check_input(input)
    transcript = from_format or (
        transcript_format(input, encoding) if engine == "local" and input_format is None else None
    )
    try:
        writer = make_writer(format or "text", max_chars=max_chars, max_seconds=max_seconds)
    except ValueError as e:
        fail(str(e))
    if transcript is not None:
        if engine != "local":
            fail(f"--engine {engine} reads records: a recogniser's file ({transcript}) is read by --engine local.")
        set_threads_or_fail(threads)
        nlp = load_or_fail(_named_language(input, transcript, encoding) if model == AUTO else model)
        settings = decision_settings(
            nlp, keep_existing, threshold, margin, add_marks, repair, end_threshold, merge or None
        )
        apply_transformer_settings(nlp, window, stride, cpu_precision)
        _punctuate_recognised_file(
            nlp,
            input,
            output,
            transcript,
            None if format is None else writer,
            settings,
            progress,
            encoding,
            max_chars,
            max_seconds,
            hint=keep_existing is None and repair is None and add_marks is None and not merge,
        )
        return
    if model == AUTO:
        model = _text_language(input, encoding)
    if input_format is not None and input_format not in ("text", "jsonl"):
        fail(f"unknown --input-format {input_format!r}; choose text or jsonl.")
    if engine == "local":
        try:  # the one table of input formats (input_formats.py)
            input_format = check_engine(input or "-", "local", input_format)
        except ValueError as e:
            fail(str(e))
    if engine == "local" and format is None and input_format == "jsonl":
        writer = make_writer("jsonl")  # records in, records out: every field kept
    if engine == "local" and writer.timed and input_format != "jsonl":
        fail(f"--format {format} needs word timings: give JSONL records of timed words with --input-format jsonl.")
    if engine not in ("local", "ray"):
        fail(f"unknown --engine {engine!r}; choose local or ray.")
    if engine == "ray":
        options = {
            "--keep-existing/--replace-existing": keep_existing is not None,
            "--repair/--no-repair": repair is not None,
            "--merge": merge,
            "--add-marks/--case-only": add_marks is not None,
            "--threshold": bool(threshold),
            "--margin": bool(margin),
            "--end-threshold": end_threshold is not None,
            "--window": bool(window),
            "--stride": bool(stride),
            "--cpu-precision": bool(cpu_precision),
        }
        given = [option for option, is_set in options.items() if is_set]
        if encoding is not None:
            fail("--engine ray reads JSONL (UTF-8) or Parquet records: --encoding would be ignored.")
        if given:
            fail(
                f"--engine ray runs the pipeline with its saved settings: {', '.join(given)} would be ignored "
                "(save a pipeline with them instead)."
            )
        _punctuate_on_ray(model, input, output, workers, batch_size, threads)
        return
    if not is_standard_stream(output):
        prepare_output(output, input)
    set_threads_or_fail(threads)
    nlp = load_or_fail(model)
    settings = decision_settings(nlp, keep_existing, threshold, margin, add_marks, repair, end_threshold, merge or None)
    apply_transformer_settings(nlp, window, stride, cpu_precision)
    chose = keep_existing is not None or repair is not None or add_marks is not None or merge
    if not chose and input_format == "text" and not is_standard_stream(input) and not settings.repair:
        marks = _head_marks(input, encoding)  # text whose marks vanished part-way, as a recogniser's
        if marks >= OWN_MARKS_HINT and not settings.keep_existing:
            typer.secho(
                f"{input} has marks of its own ({marks} in its first lines), which are replaced: --repair keeps "
                "them and every capital, and fills marks and case only where they are missing (--no-repair hides "
                "this note).",
                err=True,
            )
    try:
        reader = open_input(input, encoding)
    except textio.InputError as e:
        fail(str(e))
    bar = _words_bar(progress, output)
    try:
        with output_file(output) as target:
            for written in punctuated_output(
                nlp,
                reader,
                writer,
                whole=whole,
                records=input_format == "jsonl",
                batch_size=batch_size,
                settings=settings,
            ):
                target.write(written.text)
                target.flush()
                bar.update(written.words)
    except (RecordError, ValueError) as e:
        fail(f"{reader.name}: {e} The output written so far is kept.")
    except OSError as e:
        write_failed(None if is_standard_stream(output) else output, e)
    finally:
        bar.close()
        reader.close()
    if reader.replaced:
        typer.secho(textio.replaced_message(reader), err=True)
    if reader.error:
        fail(f"{reader.error}. The output of the lines before it is written.")


def _punctuate_folder(
    run: Callable[[Callable[[int], None]], Iterator[FileDone]],
    input: Path,
    output: Path,
    lang: Optional[str],
    settings: Optional[DecisionSettings],
    progress: Optional[bool],
    hint: bool,
) -> None:
    """`punctuate MODEL FOLDER -o FOLDER`: each file (as `run` punctuates
    them, told the words done) into the same name under the output folder; a
    file that cannot be read is named and left out. `lang`: the pipeline's
    language (None: each file's own, with `auto`); `hint`: the user chose
    nothing about the files' own marks, so where some have them, the end
    says how to keep them."""
    bar = _words_bar(progress, output)
    done = left_out = words = marked = 0
    try:
        for file in run(bar.update):
            note = language_note(str(input / file.path), file.language, lang)
            if note:
                bar.write(note, file=sys.stderr)
            if file.error is None:
                done, words = done + 1, words + file.words
                marked += file.marks >= OWN_MARKS_HINT
            else:
                left_out += 1
                bar.write(f"{file.error} (left out)", file=sys.stderr)
    except OSError as e:
        write_failed(output, e)
    finally:
        bar.close()
    repairing = settings is not None and (settings.repair or settings.keep_existing or settings.merge)
    if hint and marked and not repairing:
        typer.echo(
            f"{marked} of {done} files had marks of their own, which were replaced: --repair keeps them and every "
            "capital, and fills marks and case only where they are missing (--no-repair hides this note).",
            err=True,
        )
    summary = f"Punctuated {done} files ({words:,} words) into {output}"
    typer.echo(summary + (f"; {left_out} left out." if left_out else "."), err=True)
    if left_out:
        raise typer.Exit(1)


def _by_language(pipeline: Callable[[str], Tuple[Language, DecisionSettings]]) -> PipelineFor:
    """`auto`: each file's bundled pipeline by the language it names, each loaded once."""
    loaded: Dict[str, Tuple[Language, DecisionSettings]] = {}

    def choose(language: Optional[str]) -> Tuple[Language, Optional[DecisionSettings]]:
        if language is None:
            raise ValueError("it names no language, so auto has no pipeline for it.")
        if not default_pipeline(language):
            raise ValueError(f"it is in {_language(language)}, which no bundled pipeline reads.")
        if language not in loaded:
            loaded[language] = pipeline(language)
        return loaded[language]

    return choose


def _text_language(input: Optional[Path], encoding: Optional[str]) -> str:
    """`auto` for a text file: the language its first lines' words tell, which a bundled pipeline reads."""
    if input is None or is_standard_stream(input):
        fail("auto tells a text's language by its first lines: give the file, not standard input.")
    try:
        language = guess_language(" ".join(textio.read_head(input, encoding)).split())
    except textio.InputError as e:
        fail(str(e))
    if language is None:
        fail(f"{input}: its words tell no language a bundled pipeline reads, so auto has no pipeline: give one.")
    return language


def _named_language(input: Optional[Path], kind: str, encoding: Optional[str]) -> str:
    """`auto` for one recogniser's file: the language it names, which a bundled pipeline reads."""
    where = "standard input" if input is None or is_standard_stream(input) else str(input)
    if input is None or is_standard_stream(input):
        fail("auto reads the language a recogniser's file names: give the file, not standard input.")
    try:
        text = textio.read_text(input, encoding)[0]
        transcript = read_recognised(text, kind, name=where)[1]
        language = transcript.language
    except (textio.InputError, RecordError, ValueError) as e:
        fail(str(e))
    language = language or guess_language(word.text for word in transcript.words)
    if language is None:
        fail(
            f"{where} names no language and its words tell none, so auto has no pipeline for it: give one (en, hu, bn)."
        )
    if not default_pipeline(language):
        fail(f"{where} is in {_language(language)}, which no bundled pipeline reads.")
    return language


def _check_folder_output(
    input: Path, output: Optional[Path], from_format: Optional[str], format: Optional[str]
) -> Path:
    """The output folder, or, before the pipeline loads, a refusal of one
    that is not given, holds files or lies inside the input folder, and of
    unknown formats."""
    if output is None or is_standard_stream(output):
        fail(f"the input {input} is a folder: give -o, a new folder for the punctuated files.")
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        fail(f"the output {output} exists and is not an empty folder: choose a new one (nothing was written).")
    if output.resolve().is_relative_to(input.resolve()):
        fail(f"the output {output} is inside the input folder {input}: choose one outside it (nothing was written).")
    try:  # an unknown format fails before any file is read
        make_writer(format or "text")
        if from_format is not None:
            make_format(from_format)
    except ValueError as e:
        fail(str(e))
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
    model: str, source: Path, target: Path, workers: int, threads: int, changes: Dict[str, Any],
    options: Dict[str, Any], progress: Callable[[int], None],
) -> Iterator[FileDone]:  # fmt: skip
    """A folder's files on Ray (`punctuate_folder_on_ray`), each file's words
    told to `progress` as it comes back; one line for a missing extra."""
    try:
        from ..distributed import punctuate_folder_on_ray
    except ImportError as e:
        fail(f"--engine ray needs the ray extra (pip install spacy-punct[ray]): {e}")
    for file in punctuate_folder_on_ray(
        model, source, target, workers=workers, threads=threads, by_language=model == AUTO, changes=changes, **options
    ):
        progress(file.words)
        yield file


def _punctuate_on_ray(
    model: str, input: Optional[Path], output: Optional[Path], workers: int, batch_size: int, threads: int
) -> None:
    """`punctuate --engine ray`: records from files to a folder, on Ray."""
    try:
        from ..distributed.engine import input_format, punctuate_files
    except ImportError as e:
        fail(f"--engine ray needs the ray extra (pip install spacy-punct[ray]): {e}")
    if input is None or output is None:
        fail("--engine ray reads records from INPUT (.jsonl or .parquet) and writes them to the folder -o.")
    if not input.exists():
        fail(f"the input {input} does not exist.")
    if output.exists():
        fail(f"the output folder {output} exists: choose a new one (nothing was written).")
    try:
        input_format(input)
        load_pipeline(model, threads=None)  # fail here, not in every actor
        count = punctuate_files(model, input, output, workers=workers, batch_size=batch_size, threads=threads)
    except (PipelineError, ValueError) as e:
        fail(str(e))
    typer.echo(f"Wrote {count} records to {output}")


def language_note(name: str, said: Optional[str], lang: Optional[str]) -> Optional[str]:
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


def _language(code: str) -> str:
    """A language's name, or where the project knows none, its code."""
    name = language_entry(code).name
    return name if name != code else repr(code)


# the model name that chooses each recogniser's file's bundled pipeline by the language it names
AUTO = "auto"

# a recogniser's file with this many marks of its own is told of --repair
OWN_MARKS_HINT = 3


def _head_marks(input: Optional[Path], encoding: Optional[str]) -> int:
    """How many words of a text file's first lines carry a mark of their own."""
    try:
        head = textio.read_head(input, encoding) if input is not None else []
    except textio.InputError:
        return 0  # reading it names the problem
    return own_marks([TimedWord(word) for word in " ".join(head).split()])


def _punctuate_recognised_file(
    nlp: Language,
    input: Optional[Path],
    output: Optional[Path],
    name: str,
    writer: Optional[OutputWriter],
    settings: DecisionSettings,
    progress: Optional[bool],
    encoding: Optional[str],
    max_chars: int,
    max_seconds: float,
    hint: bool,
) -> None:
    """A recogniser's file punctuated as one text and written in its own
    format (or in `writer`'s, given). `hint`: the user chose nothing about
    the file's own marks, so a file that has some is told how to keep them."""
    try:
        where = "standard input" if input is None or is_standard_stream(input) else str(input)
        reader = open_input(input, encoding)
        try:
            text = "".join(reader.read_as_written())  # line ends as written: CRLF is written back so
        finally:
            reader.close()
        kind, transcript = read_recognised(text, name, name=where, max_chars=max_chars, max_seconds=max_seconds)
    except (textio.InputError, RecordError, ValueError) as e:
        fail(str(e))
    note = language_note(where, transcript.language, nlp.lang)
    if note:
        typer.secho(note, err=True)
    marks = own_marks(transcript.words)
    if hint and marks >= OWN_MARKS_HINT and not (settings.repair or settings.keep_existing or settings.merge):
        typer.secho(
            f"{where} has {marks} marks of its own, which are replaced: --repair keeps them and every capital, "
            "and fills marks and case only where they are missing; --merge weighs them with the pipeline's "
            "(--no-repair hides this note).",
            err=True,
        )
    if not is_standard_stream(output):
        prepare_output(output, input)
    bar = _words_bar(progress, output)
    try:
        written, _ = written_transcript(
            nlp, text, kind, transcript, writer=writer, settings=settings, progress=lambda n: bar.update(n - bar.n)
        )
        with output_file(output) as target:
            target.write(written)
    except (RecordError, ValueError) as e:
        fail(f"{where}: {e}")
    except OSError as e:
        write_failed(None if is_standard_stream(output) else output, e)
    finally:
        bar.close()


def _words_bar(progress: Optional[bool], output: Optional[Path]) -> Any:
    """The words-done bar on stderr (`--progress`; by default where stderr is a terminal)."""
    return progress_bar(
        show_progress(progress, None if is_standard_stream(output) else output), unit=" words", smoothing=0.1
    )
