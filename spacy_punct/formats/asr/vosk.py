"""Vosk's results: one JSON object, or one per line."""

import json
import re
from typing import Any, Dict, List, Mapping, Sequence

from ..recognisers import (
    OutputWord,
    Transcript,
    TranscriptFormat,
    json_value,
    sentence_indices,
    timed_entry,
    transcript_formats,
    word_entry,
)
from ..timed import RecordError


@transcript_formats.register("vosk")
class VoskFormat(TranscriptFormat):
    """Vosk's results: `{"result": [{"conf", "end", "start", "word"}], "text"}`,
    one object (written back as one), or one per line (a result per
    utterance, re-cut at sentence ends: a line per sentence). Partial
    results are left out: the final result after them repeats their words.
    Of results with `alternatives` (`SetMaxAlternatives`), the first (the
    likeliest) is read and punctuated, the others kept as they are, and
    each result stays a line of its own."""

    endings = ()

    @staticmethod
    def sniff(text: str) -> bool:
        head = text.lstrip()[:2000]
        return head.startswith("{") and bool(re.search(r'"(result"\s*:\s*\[|partial"|alternatives")', head))

    @staticmethod
    def fits(value: Any) -> bool:
        return isinstance(value, Mapping) and any(key in value for key in ("result", "alternatives", "partial"))

    def read(self, text: str, name: str) -> Transcript:
        try:
            values = [json.loads(text)]
            lines = False
        except json.JSONDecodeError as e:
            if not _first_line_is_json(text):  # one value over several lines, broken where the error says
                raise RecordError(f"{name}, line {e.lineno}: not JSON ({e.msg}).") from None
            values = [
                json_value(line, f"{name}, line {n}") for n, line in enumerate(text.splitlines(), 1) if line.strip()
            ]
            lines = True
        transcript = Transcript([], source={"lines": lines, "results": values})
        for number, value in enumerate(values):
            where = f"{name}, result {number + 1}"
            for position, entry in enumerate(_result_words(_best(value, where), where), start=1):
                transcript.words.append(timed_entry(entry, f"{name}, result {number + 1}, word {position}"))
                transcript.fields.append(dict(entry))
                transcript.groups.append(number)
        return transcript

    def write(self, transcript: Transcript, words: Sequence[OutputWord]) -> str:
        results = transcript.source["results"]
        if any(isinstance(result, Mapping) and "alternatives" in result for result in results):
            return _with_alternatives(transcript, words)
        out = []
        for sentence in sentence_indices(words):
            record = {k: v for k, v in results[transcript.groups[sentence[0]]].items() if k not in ("result", "text")}
            if any("result" in results[transcript.groups[k]] for k in sentence):
                record["result"] = [word_entry(transcript, k, words[k].text) for k in sentence]
            record["text"] = " ".join(words[k].text for k in sentence)
            out.append(record)
        if not transcript.source["lines"]:  # one result: its words punctuated, not cut
            record = dict(results[0])
            if "result" in record:
                record["result"] = [word_entry(transcript, k, word.text) for k, word in enumerate(words)]
            record["text"] = " ".join(word.text for word in words)
            return json.dumps(record, ensure_ascii=False) + "\n"
        return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in out)


def _best(value: Any, where: str) -> Any:
    """A result, or of a result with `alternatives`, the first."""
    if not isinstance(value, Mapping) or "alternatives" not in value:
        return value
    alternatives = value["alternatives"]
    if not isinstance(alternatives, list) or not alternatives:
        raise RecordError(f"{where}: 'alternatives' must be a list of results.")
    return alternatives[0]


def _with_alternatives(transcript: Transcript, words: Sequence[OutputWord]) -> str:
    """Each result with words written back as read, its first alternative
    punctuated (as elsewhere, results without words, partial ones, go)."""
    lines = []
    by_result: Dict[int, List[int]] = {}
    for k, group in enumerate(transcript.groups):
        by_result.setdefault(group, []).append(k)
    for number, value in enumerate(transcript.source["results"]):
        ks = by_result.get(number, [])
        if not ks:
            continue
        record = dict(value)
        if "alternatives" in record:
            best = dict(record["alternatives"][0])
            record["alternatives"] = [best] + record["alternatives"][1:]
        else:
            best = record
        if "result" in best:
            best["result"] = [word_entry(transcript, k, words[k].text) for k in ks]
        best["text"] = " ".join(words[k].text for k in ks)
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines)


def _result_words(value: Any, where: str) -> List[Any]:
    """The word entries of one result: its `result` list, or, from a
    recogniser without word timings (no `SetWords(True)`), its `text`'s words.
    A `text` that differs from the `result`'s words is an error: one of them
    would be lost."""
    if not isinstance(value, Mapping):
        raise RecordError(f"{where}: expected an object with 'result' or 'text'.")
    result, text = value.get("result"), value.get("text")
    if result is None:
        if text is None and isinstance(value.get("partial"), str):  # provisional: the next result repeats it
            return []
        if not isinstance(text, str):
            raise RecordError(f"{where}: no 'result' and no 'text'.")
        return [{"word": word} for word in text.split()]
    if not isinstance(result, list):
        raise RecordError(f"{where}: 'result' must be a list of words.")
    if isinstance(text, str):
        said = [entry.get("word") for entry in result if isinstance(entry, Mapping)]
        if text.split() != said:
            raise RecordError(f"{where}: its 'text' and the words of its 'result' differ.")
    return result


def _first_line_is_json(text: str) -> bool:
    """Whether the text's first line holds a JSON value of its own (Vosk's
    results one a line), not the start of one written over several lines."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        json.loads(first)
    except json.JSONDecodeError:
        return False
    return True
