"""Recognisers that write words and marks as items of one list (Amazon
Transcribe's `pronunciation` and `punctuation` items, Speechmatics' `word`
and `punctuation` results), each with `alternatives` of `content`: a word
is read with the marks after it, and written back cased as punctuated, its
marks items of their own after it. A mark that attaches to the next word
(Speechmatics' `"attaches_to": "next"`: an opening quote) is read before
that word and written back as it was."""

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..timed import RecordError, TimedWord

# (a word's start as read, its content as read) -> (its content as punctuated, the marks after it)
Written = Dict[Tuple[str, str], Tuple[str, str]]


def item_content(item: Any, where: str) -> Tuple[str, str]:
    """An item's type and its best alternative's content."""
    alternatives = item.get("alternatives") if isinstance(item, Mapping) else None
    if not isinstance(alternatives, list) or not alternatives or not isinstance(alternatives[0], Mapping):
        raise RecordError(f"{where}: expected an object with 'type' and 'alternatives'.")
    content = alternatives[0].get("content")
    if not isinstance(content, str) or not content.strip():
        raise RecordError(f"{where}: the content is missing or empty.")
    return str(item.get("type", "")), content.strip()


def item_words(items: Sequence[Any], name: str, mark: str) -> List[Tuple[int, TimedWord]]:
    """Each word's item's position and the word with the marks around it
    (items of type `mark`: after the word they follow, or before the word
    they attach to; one with no word to go with is left out)."""
    words: List[Tuple[int, TimedWord]] = []
    opening = ""  # marks attached to the next word
    for position, item in enumerate(items):
        where = f"{name}, item {position + 1}"
        kind, content = item_content(item, where)
        if kind == mark:
            if attaches_to_next(item):
                opening += content
            elif words:
                at, word = words[-1]
                words[-1] = (at, TimedWord(word.text + opening + content, word.start, word.end))
                opening = ""
            continue
        start, end = _seconds(item, "start_time", where), _seconds(item, "end_time", where)
        words.append((position, TimedWord(opening + content, start, end)))
        opening = ""
    return words


def attaches_to_next(item: Mapping[str, Any]) -> bool:
    """Whether a mark's item goes with the word after it."""
    return item.get("attaches_to") == "next"


def written_words(items: Sequence[Any], places: Sequence[int], words: Sequence[str]) -> Written:
    """What each word item (at `places`) becomes, by its start and content."""
    out: Written = {}
    for place, punctuated in zip(places, words):
        content = item_content(items[place], "item")[1]
        out[(start_key(items[place]), content)] = split_marks(content, punctuated)
    return out


def written_items(
    items: Sequence[Any], written: Written, mark: str, make_mark: Callable[[Mapping[str, Any], str], Dict[str, Any]]
) -> Tuple[List[Any], Dict[Any, Optional[List[int]]]]:
    """Items with each word found in `written` cased as punctuated and
    followed by its marks (`make_mark(word item, mark)`; the marks read
    after it dropped), ids numbered again where the items had ids; and for
    each old id, the new ids it became (a word: its own and its marks'; a
    dropped mark: None)."""
    out: List[Any] = []
    ids: Dict[Any, Optional[List[int]]] = {}
    numbered = any(isinstance(item, Mapping) and "id" in item for item in items)
    found: Optional[Tuple[str, str]] = None
    for item in items:
        kind, content = item_content(item, "item")
        if kind == mark and attaches_to_next(item):
            found = None  # written before its word as it was
        elif kind == mark and found is not None:
            ids[item.get("id")] = None  # replaced by the punctuated word's marks
            continue
        else:
            found = written.get((start_key(item), content)) if kind != mark else None
        new_ids = [len(out)]
        if found is None:
            out.append(dict(item, id=len(out)) if numbered else item)
        else:
            word, marks = found
            alternatives = [dict(item["alternatives"][0], content=word), *item["alternatives"][1:]]
            out.append(dict(item, alternatives=alternatives, **({"id": len(out)} if numbered else {})))
            for character in marks:
                new_ids.append(len(out))
                mark_item = make_mark(item, character)
                out.append({"id": len(out), **mark_item} if numbered else mark_item)
        ids[item.get("id")] = new_ids
    return out, ids


def split_marks(read: str, punctuated: str) -> Tuple[str, str]:
    """A punctuated word as these recognisers write it: the word as read,
    cased as punctuated, and the marks after it (all in the word where its
    case changed its length). Marks before the word (`"so`) are items of
    their own, written as read, so they are not returned."""
    at = punctuated.lower().find(read.lower())
    if at >= 0 and not any(character.isalnum() for character in punctuated[:at]):
        return punctuated[at : at + len(read)], punctuated[at + len(read) :]
    return punctuated, ""


def start_key(item: Mapping[str, Any]) -> str:
    return str(item.get("start_time"))


def _seconds(item: Mapping[str, Any], key: str, where: str) -> Optional[float]:
    time = item.get(key)
    try:
        return None if time is None else float(time)
    except (TypeError, ValueError):
        raise RecordError(f"{where}: '{key}' must be seconds, got {time!r}.") from None
