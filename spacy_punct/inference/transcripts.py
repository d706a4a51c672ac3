"""Punctuating a recogniser's file (read and written by `formats.recognisers`
and its formats): its words, with their timings where the pipeline reads
pauses, as one text or a text per group, and each word as punctuated."""

import json
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy
from spacy.attrs import IDX, IS_SPACE, SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from ..decode import DecisionSettings
from ..extensions import source_offsets
from ..formats.output_formats import OutputWriter
from ..formats.recognisers import (
    OutputWord,
    Transcript,
    TranscriptFormat,
    read_recognised,
    value_format,
    with_line_ends_of,
)
from ..formats.timed import TimedWord, words_doc
from ..words import is_tag
from .texts import punctuate_docs


def punctuate_transcript(
    nlp: Language,
    transcript: Transcript,
    *,
    settings: Optional[DecisionSettings] = None,
    separate: bool = False,
    progress: Optional[Callable[[int], None]] = None,
) -> Tuple[List[Doc], List[OutputWord]]:
    """The punctuated docs of the transcript's words (with their timings):
    one text per speaker's turn where the transcript has turns, else one per
    group with `separate`, else one; and each word as punctuated.
    `progress`: called with the number of words done so far, as a long
    text's pieces are done."""
    items = transcript_items(nlp, transcript, separate)
    widths = numpy.array([len(word.text) + 1 for word in transcript.words])  # a word and the space after it
    done: Dict[Tuple[int, int], int] = {}  # characters punctuated of each text

    def count(part: Doc, span: Tuple[int, int]) -> None:
        if progress is not None:  # the words of the text that end within the characters done
            start, end = span
            done[span] = done.get(span, 0) + len(part._.source_text)
            ends = numpy.cumsum(widths[start:end]) - 1
            progress(start + int(numpy.searchsorted(ends, done[span], side="right")))

    return transcript_words(
        nlp, transcript, punctuate_docs(nlp, items, settings=_closed(nlp, settings), progress=count)
    )


def punctuate_transcripts(
    nlp: Language,
    transcripts: Sequence[Tuple[Transcript, bool]],
    *,
    settings: Optional[DecisionSettings] = None,
    batch_size: int = 64,
) -> List[Tuple[List[Doc], List[OutputWord]]]:
    """Several transcripts (each with its `separate`) punctuated together,
    their texts in shared batches (many short files go as fast as one long
    one): each one's docs and words as `punctuate_transcript` gives them."""
    items = (
        (item, (n, span))
        for n, (transcript, separate) in enumerate(transcripts)
        for item, span in transcript_items(nlp, transcript, separate)
    )
    done: List[List[Tuple[Doc, Tuple[int, int]]]] = [[] for _ in transcripts]
    for doc, (n, span) in punctuate_docs(nlp, items, settings=_closed(nlp, settings), batch_size=batch_size):
        done[n].append((doc, span))
    return [transcript_words(nlp, transcript, texts) for (transcript, _), texts in zip(transcripts, done)]


def transcript_items(
    nlp: Language, transcript: Transcript, separate: bool = False
) -> Iterator[Tuple[Union[str, Doc], Tuple[int, int]]]:
    """What the pipeline reads of each text of the transcript (`text_spans`), with its span."""
    timed = _reads_timings(nlp)
    for start, end in text_spans(transcript, separate):
        yield _words_input(nlp, transcript.words[start:end], timed), (start, end)


def transcript_words(
    nlp: Language, transcript: Transcript, done: Iterable[Tuple[Doc, Tuple[int, int]]]
) -> Tuple[List[Doc], List[OutputWord]]:
    """The punctuated docs of the transcript's texts (with their words'
    timings), and each word as punctuated."""
    timed = _reads_timings(nlp)
    docs, words = [], []
    for doc, (start, end) in done:
        if not timed:
            put_timings(doc, transcript.words[start:end])
        docs.append(doc)
        words.extend(output_words(doc, [word.text for word in transcript.words[start:end]]))
    return docs, _tag_groups_apart(transcript, words)


def text_spans(transcript: Transcript, separate: bool = False) -> List[Tuple[int, int]]:
    """The (start, end) word indices of each text `punctuate_transcript`
    punctuates: a speaker's turn, else with `separate` a group, else all."""
    texts = transcript.turns or (transcript.groups if separate else [0] * len(transcript.words))
    spans: List[Tuple[int, int]] = []
    for k, text in enumerate(texts):
        if spans and text == texts[spans[-1][0]]:
            spans[-1] = (spans[-1][0], k + 1)
        else:
            spans.append((k, k + 1))
    return spans


def text_speakers(transcript: Transcript, separate: bool = False) -> List[str]:
    """The speaker of each text of `text_spans` ("" where none is named)."""
    names = transcript.speakers or [""] * len(transcript.words)
    return [names[start] for start, _ in text_spans(transcript, separate)]


def _tag_groups_apart(transcript: Transcript, words: List[OutputWord]) -> List[OutputWord]:
    """A group of tags alone (whisper.cpp's `[BLANK_AUDIO]` segment, a
    `[Music]` cue) stays a segment or cue of its own: an end is marked after
    it and after the word before it."""
    groups = transcript.groups
    if not groups or not any(is_tag(word.text) for word in transcript.words):
        return words
    tags_only: Dict[int, bool] = {}
    for word, group in zip(transcript.words, groups):
        tags_only[group] = tags_only.get(group, True) and is_tag(word.text)
    ends = [
        word.sentence_end
        or (k + 1 < len(words) and groups[k] != groups[k + 1] and (tags_only[groups[k]] or tags_only[groups[k + 1]]))
        for k, word in enumerate(words)
    ]
    return [OutputWord(word.text, end) for word, end in zip(words, ends)]


def punctuate_recognised(
    nlp: Language,
    data: Any,
    format: Optional[str] = None,
    *,
    name: str = "input",
    settings: Optional[DecisionSettings] = None,
    repair: Optional[bool] = None,
    max_chars: int = 84,
    max_seconds: float = 7.0,
) -> Any:
    """A recogniser's output punctuated and written back in its own format:
    `data` is a file's text (Whisper, whisper.cpp, Deepgram, Google,
    AssemblyAI or Vosk JSON, CTM, a NeMo manifest, SRT, WebVTT, whisper's TSV
    or printed lines, whisper.cpp's CSV), given back as text, or a parsed
    JSON value (openai-whisper's `transcribe` result, Deepgram's, Google's or
    AssemblyAI's response, a Vosk result, faster-whisper's segments as dicts),
    given back as one. `format`: one of `formats.recognisers.format_names()`
    (default: found from the content, and `name`'s ending). `settings`,
    `repair`: as for `punctuate`; `max_chars`, `max_seconds`: the captions'
    cues. Raises a `RecordError` naming `name` where the input cannot be read."""
    text, kind, transcript = _read_data(data, format, name, max_chars=max_chars, max_seconds=max_seconds)
    if repair is not None:
        from ..pipelines.loading import find_punctuator

        settings = (settings or find_punctuator(nlp)[1].settings).replace(repair=repair)
    written, _ = written_transcript(nlp, text, kind, transcript, settings=settings)
    return written if isinstance(data, str) else json.loads(written)


def punctuate_recognised_many(
    nlp: Language, items: Sequence[Any], *, settings: Optional[DecisionSettings] = None, batch_size: int = 64
) -> List[Any]:
    """Several recognisers' outputs (each as `punctuate_recognised` takes
    one, its format found from its content), their texts punctuated in
    shared batches, so that many short ones go as fast as one long one: each
    given back as `punctuate_recognised` gives it back."""
    read = [(data, *_read_data(data, None, f"item {n}")) for n, data in enumerate(items, start=1)]
    done = punctuate_transcripts(
        nlp, [(transcript, kind.separate_groups) for _, _, kind, transcript in read], settings=settings,
        batch_size=batch_size,
    )  # fmt: skip
    out = []
    for (data, text, kind, transcript), (docs, words) in zip(read, done):
        written = write_transcript(text, kind, transcript, docs, words)
        out.append(written if isinstance(data, str) else json.loads(written))
    return out


def _read_data(data: Any, format: Optional[str], name: str, **options: Any) -> Tuple[str, TranscriptFormat, Transcript]:
    """A recogniser's output as text, its format and its transcript: a file's
    text, or a parsed JSON value (its format found from its shape)."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    if format is None and not isinstance(data, str):
        format = value_format(data)
    kind, transcript = read_recognised(text, format, name=name, **options)
    return text, kind, transcript


def written_transcript(
    nlp: Language,
    text: str,
    kind: TranscriptFormat,
    transcript: Transcript,
    *,
    writer: Optional[OutputWriter] = None,
    settings: Optional[DecisionSettings] = None,
    progress: Optional[Callable[[int], None]] = None,
) -> Tuple[str, int]:
    """A recogniser's file (its `text`, read by `kind` as `transcript`)
    punctuated and written in its own format, or by `writer` (text, JSONL
    records, captions; each speaker's turn with its speaker), with the line
    ends the file has; and the number of its words."""
    docs, words = punctuate_transcript(
        nlp, transcript, settings=settings, separate=kind.separate_groups, progress=progress
    )
    return write_transcript(text, kind, transcript, docs, words, writer), len(words)


def write_transcript(
    text: str,
    kind: TranscriptFormat,
    transcript: Transcript,
    docs: Sequence[Doc],
    words: Sequence[OutputWord],
    writer: Optional[OutputWriter] = None,
) -> str:
    """A recogniser's file (its `text`, read by `kind` as `transcript`) as
    punctuated (`docs`, `words`: `punctuate_transcript`'s), written in its
    own format or by `writer`, with the line ends the file has."""
    if writer is None:
        written = kind.write(transcript, words)
    else:
        speakers = text_speakers(transcript, kind.separate_groups)  # a turn's speaker goes with it
        parts = [
            writer.document(doc, {"text": doc._.source_text, **({"speaker": name} if name else {})}, number=n)
            for n, (doc, name) in enumerate(zip(docs, speakers), 1)
        ]
        written = writer.header() + "".join(parts) + writer.footer()
    return with_line_ends_of(text, written)


def _words_input(nlp: Language, words: Sequence[TimedWord], timed: bool) -> Union[str, Doc]:
    """What the pipeline reads of the words: their doc with timings where its
    model reads pauses, else their text, punctuated as a line of text is (a
    long one in pieces, in bounded memory)."""
    return words_doc(nlp, words) if timed else " ".join(word.text for word in words)


def put_timings(doc: Doc, words: Sequence[TimedWord]) -> None:
    """Give each token of the punctuated doc of the words (joined by spaces,
    read as text) the timings of the word it came from, where it has them:
    what a doc of the timed words (`words_doc`) would have carried through."""
    if not any(word.timed for word in words):
        return
    ends = numpy.cumsum([len(word.text) + 1 for word in words])
    offsets = numpy.array(source_offsets(doc), dtype=numpy.int64)
    found = numpy.minimum(numpy.searchsorted(ends, offsets, side="right"), len(words) - 1).tolist()
    for i in numpy.flatnonzero(offsets >= 0).tolist():
        word = words[found[i]]
        if word.timed:
            doc[i]._.start_time, doc[i]._.end_time = word.start, word.end


def _reads_timings(nlp: Language) -> bool:
    from ..pipelines.loading import find_punctuator

    return any(node.name == "with_pauses" for node in find_punctuator(nlp)[1].model.walk())


def _closed(nlp: Language, settings: Optional[DecisionSettings]) -> DecisionSettings:
    from ..pipelines.loading import find_punctuator

    base = settings if settings is not None else find_punctuator(nlp)[1].settings
    return base.replace(close_last_sentence=True)


def output_words(doc: Doc, texts: Sequence[str]) -> List[OutputWord]:
    """Per input word (the words joined by spaces were punctuated), its
    punctuated text (the tokens from it and the marks written after it) and
    whether a sentence ends after it."""
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + 1
    pieces: List[List[str]] = [[] for _ in texts]
    ends = [False] * len(texts)
    k, previous, last_end = 0, -1, 0
    # read as arrays: a long recording has tens of thousands of tokens
    table = doc.to_array([IDX, SENT_START, IS_SPACE]).tolist() if len(doc) else []
    for source, (idx, sent_start, is_space), token_text in zip(source_offsets(doc), table, (t.text for t in doc)):
        if source >= 0:
            while k + 1 < len(starts) and starts[k + 1] <= source:
                k += 1
        if sent_start == 1 and previous >= 0 and k != previous:
            ends[previous] = True
        if not is_space:
            if pieces[k] and idx > last_end:
                pieces[k].append(" ")  # a word the recogniser wrote with a space inside
            pieces[k].append(token_text)
            last_end = idx + len(token_text)
            previous = k
    if texts:
        ends[-1] = True
    return [OutputWord("".join(parts) or text, end) for parts, end, text in zip(pieces, ends, texts)]
