"""Recognisers' own files, read as words and written back in their format:
the `Transcript` a format reads (its words, the group each came from, what
it must write back), the `TranscriptFormat` base class and its registry
(`transcript_formats`, entry point group `spacy_punct_transcript_formats`),
a file's format found by its content and name, and what the formats share.
Each format is a module of its own in `formats/asr/`; segments and cues are
re-cut at sentence ends where the format has them, every other field kept. A format is found
from a file's text (`sniff`) or from a parsed JSON value's shape (`fits`)."""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import catalogue

from .registries import registered
from .textio import InputError, read_head
from .timed import RecordError, TimedWord

transcript_formats = catalogue.create("spacy_punct", "transcript_formats", entry_points=True)


@dataclass
class Transcript:
    """The words of a recogniser's file, in order. `fields`: per word, its
    own fields to write back (a probability, a confidence); `groups`: per
    word, the segment, cue, utterance or record it came from; `source`:
    what the format keeps of the file to write it again."""

    words: List[TimedWord]
    fields: List[Dict[str, Any]] = field(default_factory=list)
    groups: List[int] = field(default_factory=list)
    source: Any = None
    # per word, its speaker's turn, where the file names speakers (WebVTT's
    # `<v Bob>`, WhisperX's `speaker`) or has channels: each turn is punctuated as a text of its own
    turns: List[int] = field(default_factory=list)
    # per word, its speaker's name ("" where none is named), for captions written from the file
    speakers: List[str] = field(default_factory=list)
    # the language the file says it is in (a code: "hu"), where it says one
    language: Optional[str] = None

    def take_turns(self, labels: Sequence[str]) -> None:
        """Per word, its channel's and speaker's label: a turn starts where
        it changes (none where all are one); the speakers' names are kept
        only where any is named."""
        if len(set(labels)) > 1:
            self.turns = speaker_turns(labels)
        if not any(self.speakers):
            self.speakers = []


@dataclass(frozen=True)
class OutputWord:
    """A word as punctuated (its case, the marks after it) and whether a sentence ends after it."""

    text: str
    sentence_end: bool


class TranscriptFormat:
    """A recogniser's format: `read` a file's text, `write` it punctuated."""

    name = ""
    endings: Tuple[str, ...] = ()
    # each group (a record, an utterance) is a text of its own, not a part of one recording
    separate_groups = False

    def __init__(self, **options: Any) -> None:
        """`options`: what the command gives every format (the captions' cue limits)."""

    @staticmethod
    def sniff(text: str) -> bool:
        """Whether the text's content is in this format."""
        return False

    @staticmethod
    def fits(value: Any) -> bool:
        """Whether a parsed JSON value (the service's body, an object given
        in Python) has this format's shape."""
        return False

    def read(self, text: str, name: str) -> Transcript:
        raise NotImplementedError

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        raise NotImplementedError


def format_names() -> List[str]:
    """The registered transcript formats."""
    return list(registered(transcript_formats))


def detect_format(path: Path, text: str) -> Optional[str]:
    """The transcript format of a file, by its content, then its name (None: not a recogniser's file)."""
    formats = registered(transcript_formats)
    suffix = path.name.lower()
    for name, kind in formats.items():
        if kind.sniff(text) and not (name == "whisper" and suffix.endswith((".jsonl", ".jsonl.gz"))):
            return name
    return next((name for name, kind in formats.items() if suffix.endswith(kind.endings)), None)


def file_transcript_format(path: Path, encoding: Optional[str] = None) -> Optional[str]:
    """The recogniser's format of a file, found from its start and name
    (None: text or records, or a file that cannot be opened as text)."""
    try:
        head = read_head(path, encoding, 1_000_000)  # a Whisper result's "text" may come first
    except InputError:
        return None  # reading it as text names the problem
    return detect_format(path, "\n".join(head))


def value_format(value: Any) -> Optional[str]:
    """The transcript format of a parsed JSON value, by its shape (None: none fits)."""
    return next((name for name, kind in registered(transcript_formats).items() if kind.fits(value)), None)


def make_format(name: str, **options: Any) -> TranscriptFormat:
    """The format `name`; `options`: the caption formats' `max_chars`, `max_seconds`."""
    formats = registered(transcript_formats)
    if name not in formats:
        raise ValueError(f"unknown --from {name!r}; choose {', '.join(formats)}.")
    return formats[name](**options)


def speaker_turns(speakers: Sequence[Optional[str]]) -> List[int]:
    """Per word, the number of its speaker's turn: a word of another speaker
    starts one; a word with no speaker named stays in the turn before it."""
    turns, turn, current = [], 0, None
    for speaker in speakers:
        if speaker is not None and current is not None and speaker != current:
            turn += 1
        current = speaker if speaker is not None else current
        turns.append(turn)
    return turns


def language_code(value: Any) -> Optional[str]:
    """A recogniser's language as a code: "hu-HU" and "hu" as "hu", a name
    as Whisper's (and OpenAI's API) write it ("hungarian") as its code; None
    where it names none ("auto", nothing)."""
    if not isinstance(value, str):
        return None
    named = _LANGUAGE_NAMES.get(value.strip().lower())
    code = named or re.split(r"[-_]", value.strip().lower())[0]
    return code if re.fullmatch(r"[a-z]{2,3}", code) else None


# Whisper's language names and their codes
_LANGUAGE_NAMES = {
    name: code
    for code, name in (
        pair.split(" ", 1)
        for pair in (
            "en english,zh chinese,de german,es spanish,ru russian,ko korean,fr french,ja japanese,pt portuguese,"
            "tr turkish,pl polish,ca catalan,nl dutch,ar arabic,sv swedish,it italian,id indonesian,hi hindi,"
            "fi finnish,vi vietnamese,he hebrew,uk ukrainian,el greek,ms malay,cs czech,ro romanian,da danish,"
            "hu hungarian,ta tamil,no norwegian,th thai,ur urdu,hr croatian,bg bulgarian,lt lithuanian,la latin,"
            "mi maori,ml malayalam,cy welsh,sk slovak,te telugu,fa persian,lv latvian,bn bengali,sr serbian,"
            "az azerbaijani,sl slovenian,kn kannada,et estonian,mk macedonian,br breton,eu basque,is icelandic,"
            "hy armenian,ne nepali,mn mongolian,bs bosnian,kk kazakh,sq albanian,sw swahili,gl galician,mr marathi,"
            "pa punjabi,si sinhala,km khmer,sn shona,yo yoruba,so somali,af afrikaans,oc occitan,ka georgian,"
            "be belarusian,tg tajik,sd sindhi,gu gujarati,am amharic,yi yiddish,lo lao,uz uzbek,fo faroese,"
            "ht haitian creole,ps pashto,tk turkmen,nn nynorsk,mt maltese,sa sanskrit,lb luxembourgish,my myanmar,"
            "bo tibetan,tl tagalog,mg malagasy,as assamese,tt tatar,haw hawaiian,ln lingala,ha hausa,ba bashkir,"
            "jw javanese,su sundanese,yue cantonese,bn bangla,hu magyar"
        ).split(",")
    )
}


def speaker_name(value: Any) -> str:
    """A speaker as captions name it: a number (Deepgram's and Google's) or
    a letter (AssemblyAI's) as "Speaker 1", "Speaker A"; a name (WhisperX's
    "SPEAKER_00", WebVTT's) as it is."""
    if value is None or isinstance(value, bool):
        return ""
    text = str(value).strip()
    return f"Speaker {text}" if text.isdigit() or (len(text) == 1 and text.isalpha()) else text


def with_line_ends_of(read: str, written: str) -> str:
    """The written file with CRLF line ends where most of the read file's
    lines end so (a file from Windows stays one)."""
    crlf = read.count("\r\n")
    return written.replace("\n", "\r\n") if crlf and 2 * crlf >= read.count("\n") else written


def read_recognised(
    text: str, format: Optional[str] = None, *, name: str = "input", **options: Any
) -> Tuple[TranscriptFormat, Transcript]:
    """The format (`format`, or found from the content and `name`'s ending)
    and the transcript of a recogniser's file; `options`: the format's (the
    captions' `max_chars`, `max_seconds`). Raises a `RecordError` naming
    `name` where it cannot be read."""
    format = format or detect_format(Path(name), text)
    if format is None:
        raise RecordError(f"{name}: not a recogniser's output ({', '.join(format_names())}); give its format.")
    kind = make_format(format, **options)
    return kind, kind.read(text, name)


def json_value(text: str, where: str) -> Any:
    """The JSON value of a text, or a `RecordError` naming where it is and its line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where}: not JSON (line {e.lineno}: {e.msg}).") from None


def json_list(text: str, name: str, key: str, what: str) -> Tuple[Any, List[Any]]:
    """A recogniser's JSON object and the list under its `key`, or a
    `RecordError` naming the file and `what` it should be."""
    value = json_value(text, name)
    found = value.get(key) if isinstance(value, Mapping) else None
    if not isinstance(found, list):
        raise RecordError(f"{name}: expected {what}: an object with a list of '{key}'.")
    return value, found


def json_indent(text: str) -> Optional[int]:
    """How a JSON file read is written back: indented where it spans lines
    (as Google's tools write it), else on one line (as the APIs answer)."""
    return 2 if "\n" in text.strip() else None


def timed_entry(entry: Any, where: str) -> TimedWord:
    """A word of a recogniser's JSON (`word` or `text`, `start`, `end`)."""
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: expected an object with 'word', 'start', 'end'.")
    text = entry.get("word", entry.get("text"))
    if not isinstance(text, str) or not text.strip():
        raise RecordError(f"{where}: the word is missing or empty.")
    start, end = entry.get("start"), entry.get("end")
    try:
        return TimedWord(text.strip(), None if start is None else float(start), None if end is None else float(end))
    except (TypeError, ValueError):
        raise RecordError(f"{where}: start and end must be numbers.") from None


def word_entry(transcript: Transcript, k: int, text: str, leading: str = "") -> Dict[str, Any]:
    """The fields of word `k` as read, with its punctuated text."""
    entry = dict(transcript.fields[k]) if transcript.fields else {}
    entry["text" if "text" in entry and "word" not in entry else "word"] = leading + text
    return entry


def own_marks(words: Sequence[TimedWord]) -> int:
    """How many of a recogniser's words carry a mark of their own (`so,`, `trip?`)."""
    return sum(1 for word in words if word.text[-1] in _MARKS and len(word.text) > 1)


_MARKS = frozenset(".,?!;:。？！，।")


def sentence_indices(words: Sequence[OutputWord]) -> List[List[int]]:
    """The word indices of each sentence."""
    sentences: List[List[int]] = [[]]
    for k, word in enumerate(words):
        sentences[-1].append(k)
        if word.sentence_end and k + 1 < len(words):
            sentences.append([])
    return [sentence for sentence in sentences if sentence]
