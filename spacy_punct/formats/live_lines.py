"""A live recogniser's lines, as `spacy-punct stream` and the service's
WebSocket read them: the words each line holds, in whichever form a
recogniser writes them."""

import re
from typing import Any, List, Mapping

from .asr import amazon_transcribe, assemblyai, azure_speech, deepgram, google_speech, speechmatics
from .asr.timestamped import timestamped_line
from .timed import RecordError, parse_json_line, record_word_list, spread_words

# a line of plain words led by a tag ([Music], [BLANK_AUDIO], {noise}): never JSON
_TAG_LED = re.compile(r"^[\[{][^\W\d_]")


def line_words(line: str, where: str) -> List[Any]:
    """The words on one line of a word stream: plain words separated by
    whitespace (a line led by a tag such as `[Music]` among them), a segment
    as whisper.cpp prints it (`timestamped_line`), or JSON: a word object, a
    list of words, a record with a word list (see `record_word_list`;
    Vosk's results, Whisper's segments), or one of Deepgram's, Google's,
    AssemblyAI's, Azure's, Amazon Transcribe's or Speechmatics' streaming
    messages. Vosk's partial results and the others'
    interim ones give no words: the final result repeats them."""
    stripped = line.strip()
    printed = timestamped_line(stripped)
    if printed is not None:  # whisper.cpp's console: the words share the segment's time
        start, end, said = printed
        return [{"word": w.text, "start": w.start, "end": w.end} for w in spread_words(said.split(), start, end)]
    if not stripped.startswith(("{", "[")) or _TAG_LED.match(stripped):
        return stripped.split()
    value = parse_json_line(stripped, where)
    if isinstance(value, list):
        return value
    if not isinstance(value, Mapping):
        raise RecordError(f"{where}: expected a word object, a list of words, or a record with words.")
    if value.get("type") in assemblyai.LIVE_TYPES or value.get("message_type") in assemblyai.LIVE_MESSAGE_TYPES:
        return assemblyai.live_words(value, where)  # before the word lists: its times are milliseconds
    if "RecognitionStatus" in value:
        return azure_speech.live_words(value, where)
    if value.get("message") in speechmatics.LIVE_MESSAGES:
        return speechmatics.live_words(value, where)
    if isinstance(value.get("Transcript"), Mapping):
        return amazon_transcribe.live_words(value, where)
    words = record_word_list(value, where)
    if words is not None:
        return words
    if "channel" in value or value.get("type") in deepgram.LIVE_EVENTS:
        return deepgram.live_words(value, where)
    if isinstance(value.get("results"), list):
        return google_speech.live_words(value, where)
    if "word" in value or "text" in value and ("start" in value or "end" in value):
        return [value]
    if isinstance(value.get("text"), str):  # a recogniser's result without word timings
        return value["text"].split()
    if isinstance(value.get("partial"), str):  # Vosk's provisional words: its next result repeats them
        return []
    raise RecordError(f"{where}: no words found (expected 'word', 'words', 'result', 'segments' or 'text').")
