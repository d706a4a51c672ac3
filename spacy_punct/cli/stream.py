"""`spacy-punct stream`: punctuate a live stream of words."""

import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..formats import textio
from ..formats.output_files import is_standard_stream, write_failed
from ..formats.output_formats import make_writer
from ..inference.options import PunctOptions
from ..jobs.inputs import check_input, load_punctuator, open_input, transcript_format, use_threads
from ..runtime.threads import DEFAULT_THREADS
from ._util import (
    ENCODING_HELP,
    END_THRESHOLD_HELP,
    MERGE_HELP,
    REPAIR_HELP,
    THREADS_HELP,
    BarReport,
    app,
    fail,
    progress_bar,
)

# recognisers' files whose lines are not words (a Vosk or Whisper result a line
# is, and so are live messages and whisper.cpp's printed segments)
NOT_WORD_STREAMS = (
    "srt",
    "vtt",
    "ctm",
    "tsv",
    "csv",
    "whisper-cpp",
    "deepgram",
    "google",
    "assemblyai",
    "azure",
    "amazon",
    "speechmatics",
    "rev",
    "lrc",
    "sbv",
    "transformers",
)
# words of a file read at once: the speed of offline punctuation, each word
# decided with at least the lookahead's right context
FILE_READ_AHEAD = 256


@app.command(short_help="Punctuate a live stream of words from stdin.")
def stream(
    model: str = typer.Argument(..., help="A pipeline name or path with a punctuator."),
    input: Optional[Path] = typer.Argument(None, help="A file of words (default or -: standard input)."),
    format: str = typer.Option(
        "text",
        help="Output: text (sentences on lines), jsonl (one committed word per line, with timings), srt or vtt (cues as they complete).",
    ),
    lookahead: int = typer.Option(
        4, min=0, help="Words read after a word before it is committed (with --entropy: at most this many)."
    ),
    entropy: Optional[float] = typer.Option(
        None, min=0.0, help="Entropy decoding: commit a word once the entropy of its prediction (nats) is at most this."
    ),
    min_lookahead: int = typer.Option(
        1, min=0, help="With --entropy: words read after a word before it may be committed."
    ),
    left_context: int = typer.Option(50, min=1, help="Committed words the model still reads."),
    max_chars: int = typer.Option(84, min=1, help="srt/vtt: characters per cue at most."),
    max_seconds: float = typer.Option(7.0, min=0.1, help="srt/vtt: seconds per cue at most."),
    keep_existing: Optional[bool] = typer.Option(
        None,
        "--keep-existing/--replace-existing",
        help="Keep punctuation already in the words, or let predictions replace it.",
    ),
    repair: Optional[bool] = typer.Option(None, "--repair/--no-repair", help=REPAIR_HELP),
    merge: bool = typer.Option(False, "--merge", help=MERGE_HELP),
    add_marks: Optional[bool] = typer.Option(
        None,
        "--add-marks/--case-only",
        help="Write the predicted marks, or keep the words' punctuation and restore case only.",
    ),
    threshold: List[str] = typer.Option([], help="LABEL=P (repeatable), as for punctuate."),
    margin: List[str] = typer.Option([], help="LABEL=X (repeatable), as for punctuate."),
    end_threshold: Optional[float] = typer.Option(None, help=END_THRESHOLD_HELP),
    read_ahead: Optional[int] = typer.Option(
        None,
        min=0,
        help="Words gathered before the model reads them (default: 256 for a file, whose words are all there; 0 for standard input: each line as it comes).",
    ),
    encoding: Optional[str] = typer.Option(None, help=ENCODING_HELP),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Read words as a recogniser writes them, one or more per line: plain
    words, or JSON (a {"word", "start", "end"} object, a list of them, a record
    with "words", Vosk's {"result": [...]}, Whisper's segments). Committed
    words are written as soon as they are decided, line-buffered; the rest at
    the end of the input. A bad line stops the stream with an error naming it,
    after the words read before it are written."""
    from ..inference.streaming import EntropyLookahead, FixedLookahead, Streamer
    from ..inference.text_jobs import StreamStopped, streamed_output

    check_input(input)
    found = transcript_format(input, encoding)
    if found in NOT_WORD_STREAMS:
        fail(
            f"{input} is a whole file ({found}), not a stream of words: `spacy-punct punctuate {model} {input}` reads it."
        )
    try:
        writer = make_writer(format, max_chars=max_chars, max_seconds=max_seconds)
    except ValueError as e:
        fail(str(e))
    use_threads(threads)
    nlp = load_punctuator(model)
    options = PunctOptions.with_pairs(
        threshold, margin, keep_existing=keep_existing, repair=repair, merge=merge, add_marks=add_marks,
        end_threshold=end_threshold,
    )  # fmt: skip
    settings = options.settings(nlp)
    try:
        policy = (
            EntropyLookahead(entropy, lookahead, min_lookahead) if entropy is not None else FixedLookahead(lookahead)
        )
        streamer = Streamer(nlp, policy, left_context=left_context, settings=settings)
    except ValueError as e:
        fail(str(e))
    reader = open_input(input, encoding, BarReport(progress_bar(False)))
    stopped = None
    output = _LineOutput()
    try:
        if read_ahead is None:
            read_ahead = 0 if is_standard_stream(input) else FILE_READ_AHEAD
        for written in streamed_output(streamer, reader, writer, read_ahead, gather=FILE_READ_AHEAD):
            output.emit(written.text)
    except StreamStopped as e:
        stopped = str(e)
    except OSError as e:  # a full disk, a closed pipe
        write_failed(None, e)
    finally:
        reader.close()
        output.end_line()  # a message on standard error never shares a line with the output
    if reader.replaced:
        typer.secho(textio.replaced_message(reader), err=True)
    if stopped:
        fail(f"{stopped} The words before it were written.")


class _LineOutput:
    """Standard output, written at once (a stream's reader waits for it),
    that knows whether its last line is open."""

    def __init__(self) -> None:
        self.open = False

    def emit(self, text: str) -> None:
        if text:
            sys.stdout.write(text)
            sys.stdout.flush()
            self.open = not text.endswith("\n")

    def end_line(self) -> None:
        if self.open:
            self.emit("\n")
