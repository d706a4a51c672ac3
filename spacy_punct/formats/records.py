"""Records in, records out: a record of text or timed words becomes what a
pipeline reads, a punctuated doc becomes the output record (its fields kept,
offsets, marks and timings per token) and its JSONL line."""

import json
import re
from typing import Any, Dict, List, Mapping, Optional, Union

from spacy.attrs import IDX, SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from ..extensions import register_extensions, token_values
from .timed import RecordError, record_word_list, timed_words, words_doc

register_extensions()

Record = Mapping[str, Any]


def record_doc(nlp: Language, record: Record, number: int = 0) -> Union[str, Doc]:
    """What the pipeline reads of an input record: the text of {"text": ...}
    (punctuated as a line of text is, in pieces where it is long), or the doc
    of timed words in one of the shapes of `timed.record_word_list`
    ({"words": [{"word", "start", "end"}, ...]}, timings in seconds,
    optional), with any other fields (an "id") passed through to the output.
    Tokens get the timings of the word they are part of in
    `token._.start_time` and `token._.end_time`. The words are what is
    punctuated: a "text" beside them must hold the same words (case and
    marks aside, as a recogniser's punctuated text does), else a
    `RecordError` names the record."""
    where = f"record {number}" if number else "record"
    if not isinstance(record, Mapping):
        raise RecordError(f"{where}: expected an object with 'text' or 'words', got {type(record).__name__}.")
    entries = record_word_list(record, where)
    text = record.get("text")
    if entries is not None:
        words = timed_words(entries, where)
        if isinstance(text, str):
            _check_text_matches_words(text, [word.text for word in words], where)
        return words_doc(nlp, words)
    if not isinstance(text, str):
        raise RecordError(f"{where}: expected a string 'text' (or a 'words' list).")
    return text


_WORD = re.compile(r"\w+")


def _check_text_matches_words(text: str, words: List[str], where: str) -> None:
    """Refuse a record whose text and timed words are not the same words."""
    in_text = _WORD.findall(text.lower())
    in_words = _WORD.findall(" ".join(words).lower())
    if in_text == in_words:
        return
    at = next((i for i, (a, b) in enumerate(zip(in_text, in_words)) if a != b), min(len(in_text), len(in_words)))
    seen = (in_text[at] if at < len(in_text) else "its end", in_words[at] if at < len(in_words) else "their end")
    raise RecordError(
        f"{where}: its 'text' and its words differ at word {at + 1} ({seen[0]!r} against "
        f"{seen[1]!r}); the words are what is punctuated: drop the 'text', or give the same words."
    )


def record_line(output: Mapping[str, Any]) -> str:
    """An output record (see `output_record`) as a line of JSONL (no newline)."""
    return json.dumps(output, ensure_ascii=False)


def output_record(doc: Doc, record: Optional[Record] = None) -> Dict[str, Any]:
    """The output record of a punctuated doc: the input record's fields as
    they were, the input text ("text"; "source_text" where a record of timed
    words has a different text of its own), the punctuated text, the
    sentences, and per token its offsets, the input token and offset it came
    from, its mark and its timings."""
    output = dict(record or {})  # every input field kept as it was: a word list with its words' extra fields too
    source = doc._.source_text if doc._.source_text is not None else doc.text
    if isinstance(output.get("text"), str) and output["text"] != source:
        # a record with timed words and a text of its own: the text stays, and
        # the tokens' source offsets refer to the words joined by spaces
        output["source_text"] = source
    else:
        output["text"] = source
    output["punctuated"] = doc.text
    # read from arrays, not Token objects: this runs once per record of a dataset
    texts = [token.text for token in doc]
    starts = doc.to_array([IDX]).tolist() if len(doc) else []
    ends = [start + len(text) for start, text in zip(starts, texts)]
    output["sentences"] = _sentence_texts(doc, output["punctuated"], starts, ends)
    sources = doc._.source_map or list(range(len(doc)))
    source_starts = doc._.source_offsets or starts
    marks = token_values(doc, "punct", starts)
    start_times = token_values(doc, "start_time", starts)
    end_times = token_values(doc, "end_time", starts)
    tokens = []
    for i, text in enumerate(texts):
        entry = {
            "text": text,
            "start": starts[i],
            "end": ends[i],
            "source": sources[i] if sources[i] >= 0 else None,
            "source_start": source_starts[i] if source_starts[i] >= 0 else None,
            "punct": marks[i],
        }
        if start_times[i] is not None:
            entry["start_time"] = start_times[i]
            entry["end_time"] = end_times[i]
        tokens.append(entry)
    output["tokens"] = tokens
    return output


def _sentence_texts(doc: Doc, text: str, starts: List[int], ends: List[int]) -> List[str]:
    """The texts of a doc's sentences (as `doc.sents` gives them), blank ones left out."""
    if not len(doc):
        return []
    first = [i for i, start in enumerate(doc.to_array([SENT_START]).tolist()) if start == 1 and i > 0]
    bounds = zip([0] + first, first + [len(doc)])
    texts = (text[starts[begin] : ends[end - 1]] for begin, end in bounds)
    return [text for text in texts if text.strip()]
