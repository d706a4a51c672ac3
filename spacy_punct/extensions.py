"""The custom attributes the punctuator reads and writes, and how the values of
custom attributes travel from one doc to another."""

from typing import Any, Dict, List, Mapping, Optional, Sequence

from spacy.attrs import IDX
from spacy.tokens import Doc, Token

# a teacher pipeline's class probabilities on a training word (see distillation.py)
TEACHER_ATTR = "teacher_probs"
# attributes this package writes on the docs it builds itself
OWN_DOC_ATTRS = frozenset({"punctuated", "punct_probs", "source_map", "source_offsets", "source_text"})


def _from_source(token: Token, name: str, own: int) -> Optional[int]:
    """The token's entry in the doc's map `name` back to the input (None for
    an inserted mark), or its own `own` on a doc that is no rewrite."""
    values = getattr(token.doc._, name)
    if values is None:
        return own
    value = values[token.i]
    return None if value < 0 else value


def _source_i(token: Token) -> Optional[int]:
    return _from_source(token, "source_map", token.i)


def _source_idx(token: Token) -> Optional[int]:
    return _from_source(token, "source_offsets", token.idx)


def source_offsets(doc: Doc) -> List[int]:
    """Per token, its character offset in the input (-1 for an inserted
    mark): `token._.source_idx` of every token at once."""
    offsets = doc._.source_offsets
    return list(offsets) if offsets is not None else doc.to_array([IDX]).tolist() if len(doc) else []


def register_extensions() -> None:
    """Register the attributes once (safe to call repeatedly); the
    `doc._.punctuated` getter is the rewrite's (`rewrite.register_punctuated`)."""
    # the canonical mark after the token ("" for none): gold on references,
    # predictions on docs the punctuator processed
    if not Token.has_extension("punct"):
        Token.set_extension("punct", default=None)
    # the word as the truecaser would write it (None: no prediction)
    if not Token.has_extension("truecase"):
        Token.set_extension("truecase", default=None)
    # on a lower-cased gold form (`spacy-punct strip`): the word as written,
    # where it has capitals, which the case scorer reads
    if not Token.has_extension("gold_case"):
        Token.set_extension("gold_case", default=None)
    # a teacher pipeline's class probabilities, for distillation (training data)
    if not Token.has_extension(TEACHER_ATTR):
        Token.set_extension(TEACHER_ATTR, default=None)
    # per-token class probabilities (n_tokens x n_labels), when asked for
    if not Doc.has_extension("punct_probs"):
        Doc.set_extension("punct_probs", default=None)
    # on a rewritten doc: per token, the index of the input token it came from
    # (-1 for inserted marks), its character offset in the input, the input
    # text, and the number of input words (not whitespace) it holds
    for name in ("source_map", "source_offsets", "source_text", "source_words"):
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
    # in repair mode, on an annotated doc: the tokens whose case may change
    if not Doc.has_extension("case_fill"):
        Doc.set_extension("case_fill", default=None)
    # True on a doc that is part of a longer text (a training chunk, a stream's
    # window, a piece of a long text): its end is no end of the text
    if not Doc.has_extension("open_end"):
        Doc.set_extension("open_end", default=False)
    if not Token.has_extension("source_i"):
        Token.set_extension("source_i", getter=_source_i)
    if not Token.has_extension("source_idx"):
        Token.set_extension("source_idx", getter=_source_idx)
    # word timings in seconds, where the input has them
    for name in ("start_time", "end_time"):
        if not Token.has_extension(name):
            Token.set_extension(name, default=None)


def token_values(doc: Doc, name: str, offsets: Sequence[int]) -> List[Any]:
    """The values of custom token attribute `name` of the tokens at these
    character offsets (None where unset), read without Token objects."""
    user_data: Dict[Any, Any] = doc.user_data  # keyed by tuples, as spaCy's Underscore keys it
    return [user_data.get(("._.", name, offset, None)) for offset in offsets]


def set_token_values(doc: Doc, name: str, offsets: Sequence[int], values: Sequence[Any]) -> None:
    """Set custom token attribute `name` on the tokens at these character
    offsets, without Token objects (what `token._.name = value` stores)."""
    user_data: Dict[Any, Any] = doc.user_data  # keyed by tuples, as spaCy's Underscore keys it
    for offset, value in zip(offsets, values):
        user_data[("._.", name, offset, None)] = value


def token_extension_values(doc: Doc, skip: Sequence[str] = ()) -> List[Dict[str, Any]]:
    """Per token, the values of custom token attributes set on it."""
    offsets = doc.to_array([IDX]).tolist() if len(doc) else []
    by_offset = {offset: i for i, offset in enumerate(offsets)}
    values: List[Dict[str, Any]] = [{} for _ in offsets]
    for key, value in doc.user_data.items():
        if isinstance(key, tuple) and len(key) == 4 and key[0] == "._." and key[3] is None:
            name, start = key[1], key[2]
            if start is not None and name not in skip and start in by_offset:
                values[by_offset[start]][name] = value
    return values


def copy_token_extension_values(source: Doc, target: Doc, offsets: Mapping[int, int], skip: Sequence[str] = ()) -> None:
    """Copy the values of custom token attributes set on tokens of `source`
    to the tokens of `target` at the character offsets that `offsets` maps
    their own offsets to (a token whose offset it lacks passes nothing on)."""
    user_data = target.user_data
    for key, value in source.user_data.items():
        if isinstance(key, tuple) and len(key) == 4 and key[0] == "._." and key[3] is None:
            offset = offsets.get(key[2]) if key[2] is not None else None
            if offset is not None and key[1] not in skip:
                user_data[("._.", key[1], offset, None)] = value


def set_token_extension_values(doc: Doc, offset: int, values: Dict[str, Any]) -> None:
    """Set custom token attributes (registered or not) on the token of `doc`
    at this character offset, without a Token object."""
    user_data: Dict[Any, Any] = doc.user_data  # keyed by tuples, as spaCy's Underscore keys it
    for name, value in values.items():
        user_data[("._.", name, offset, None)] = value


def copy_doc_extension_values(source: Doc, target: Doc) -> None:
    """Copy the values of custom doc attributes (`doc._.utt_id`) and every
    other key a user put in `doc.user_data` to another doc."""
    for key, value in source.user_data.items():
        if not (isinstance(key, tuple) and len(key) == 4 and key[0] == "._."):
            target.user_data[key] = value  # the user's own keys
        elif key[2] is None and key[3] is None and key[1] not in OWN_DOC_ATTRS:
            target.user_data[key] = value


def copy_span_extension_values(source: Doc, target: Doc, starts: Mapping[int, int], ends: Mapping[int, int]) -> None:
    """Copy the values of custom span attributes (`span._.speaker`) to the
    spans of `target` whose first and last characters `starts` and `ends`
    map the source span's to (a span whose edge was dropped passes nothing on)."""
    user_data = target.user_data
    for key, value in source.user_data.items():
        if isinstance(key, tuple) and len(key) == 4 and key[0] == "._." and key[2] is not None and key[3] is not None:
            start, end = starts.get(key[2]), ends.get(key[3])
            if start is not None and end is not None:
                user_data[("._.", key[1], start, end)] = value
