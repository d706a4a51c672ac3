"""TED talk transcripts as published (one Markdown file a talk): the
translator's header skipped, subtitle lines joined, HTML entities decoded,
sound notes such as `(Laughter)` and speaker labels such as `CA:` removed, as
the IWSLT release removed them."""

import html
import re
from pathlib import Path
from typing import Iterator, List

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionStats, ConvertOptions, input_files, read_text
from .guard import NgramIndex

# a talk with fewer marks than this per 100 words was published unpunctuated
MIN_MARKS_PER_100_WORDS = 1.0
# a talk sharing more of its 8-grams with a talk already read repeats it
MAX_DUPLICATE_SHARE = 0.5

_HEADER = re.compile(r"^\s*(Translator|Reviewer|Transcriber|Translated by|Reviewed by)\s*:", re.IGNORECASE)
_SONG = "♫♪"
# a note: parentheses whose text starts with a capital ((Laughter), (Audience: Yes.), (In Chinese))
_NOTE = re.compile(r"\(\s*[A-Z][^()]{0,80}\)")
# a speaker's label opening a line: initials or a role
_SPEAKER = re.compile(
    r"^\s*(?:[A-Z]{1,3}|Audience|Man|Woman|Men|Women|Boy|Girl|Child|Kids|Narrator|Voice|"
    r"Host|Interviewer|Announcer|Video|Audio|Moderator|Student|Students)(?: ?\d)?\s?:\s"
)
_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_MARK = re.compile(r"\s+([,.?!;:])")
_MARK = re.compile(r"[,.?!;:]")


def talk_text(raw: str) -> str:
    """The spoken text of a transcript file, in one line."""
    lines: List[str] = []
    for line in html.unescape(raw).split("\n"):
        if _HEADER.match(line) or line.lstrip().startswith("#") or any(c in line for c in _SONG):
            continue
        lines.append(_SPEAKER.sub("", line))
    text = _NOTE.sub(" ", " ".join(lines))
    text = _SPACE_BEFORE_MARK.sub(r"\1", _SPACES.sub(" ", text))
    return text.strip()


def is_punctuated(text: str) -> bool:
    n_words = len(text.split())
    return n_words > 0 and len(_MARK.findall(text)) * 100 >= MIN_MARKS_PER_100_WORDS * n_words


def convert_ted(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per talk (`*.md` under a folder), in path order. Files listed in
    `options.exclude`, files without punctuation and talks repeating one
    already read (over half of their 8-grams) are skipped and reported; each
    doc records its file in `user_data["source"]`."""
    root = Path(path)
    seen = NgramIndex()
    for file in input_files(root, options.glob or "*.md"):
        relative = file.relative_to(root).as_posix() if root.is_dir() else file.name
        if file.name.lower() == "readme.md":
            continue
        if relative in options.exclude or file.name in options.exclude:
            stats.skipped["excluded files"] += 1
            continue
        text = talk_text(read_text(file, stats, options.encoding))
        if not text:
            stats.skip_file(file, "no text")
            continue
        if not is_punctuated(text):
            stats.skipped["files without punctuation"] += 1
            stats.skip_file(file, "without punctuation")
            continue
        share = seen.share(text)
        if share > MAX_DUPLICATE_SHARE:
            stats.skipped["near-duplicate talks"] += 1
            stats.skip_file(file, f"repeats a talk read before: {share:.0%} of its 8-grams")
            continue
        seen.add(text)
        doc = nlp.make_doc(text)
        doc.user_data["source"] = relative
        stats.count(doc)
        yield doc
