"""`spacy-punct punctuate`: text, JSONL records, a recogniser's file or a
folder of them, punctuated (`jobs.punctuate` decides how)."""

from pathlib import Path
from typing import List, Optional

import typer

from ..formats.output_files import is_standard_stream
from ..inference.options import PunctOptions
from ..jobs.punctuate import PunctuateJob, run_punctuate
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
    BarReport,
    app,
    progress_bar,
    show_progress,
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
    options = PunctOptions.with_pairs(
        threshold, margin, keep_existing=keep_existing, repair=repair, merge=merge, add_marks=add_marks,
        end_threshold=end_threshold, window=window, stride=stride, cpu_precision=cpu_precision,
    )  # fmt: skip
    job = PunctuateJob(
        model, input, output, format, from_format, input_format, whole, encoding, batch_size, max_chars,
        max_seconds, threads, processes, engine, workers, options,
    )  # fmt: skip
    words_shown = show_progress(progress, None if is_standard_stream(output) else output)
    with BarReport(progress_bar(words_shown, unit=" words", smoothing=0.1)) as report:
        complete = run_punctuate(job, report)
    if not complete:
        raise typer.Exit(1)
