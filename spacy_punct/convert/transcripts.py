"""Punctuated recognisers' files and captions (SRT, WebVTT, Whisper JSON and
the other formats of `formats.recognisers`): human subtitles, or a
recogniser that writes marks, as training or test text."""

from pathlib import Path
from typing import Iterator, List

from spacy.language import Language
from spacy.tokens import Doc

from ..formats.recognisers import detect_format, read_recognised
from ..formats.timed import RecordError
from .common import ConversionError, ConversionStats, ConvertOptions, counted_doc, input_files, read_text


def convert_transcripts(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """Each file's words as they are written (YouTube's rolling captions read
    once), in documents of about `options.doc_length` words ended after a
    sentence's last word, never across files. A folder's files in no
    recogniser's format are skipped and counted; such a file given alone is
    an error naming it."""
    files = input_files(path, options.glob or "*")
    for file in files:
        text = read_text(file, stats, options.encoding)
        if len(files) > 1 and detect_format(file, text) is None:
            stats.skipped["files in no recogniser's format"] += 1
            continue
        try:
            _, transcript = read_recognised(text, name=str(file))
        except RecordError as e:
            raise ConversionError(str(e)) from None
        words: List[str] = []
        for word in transcript.words:
            words.append(word.text)
            if len(words) >= options.doc_length and word.text.endswith((".", "?", "!")):
                yield counted_doc(nlp, " ".join(words), stats)
                words = []
        if words:
            yield counted_doc(nlp, " ".join(words), stats)
