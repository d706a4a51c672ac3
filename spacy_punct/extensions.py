"""The custom attributes the punctuator reads and writes."""
from typing import Optional

from spacy.tokens import Doc, Token


def _source_i(token: Token) -> Optional[int]:
    source_map = token.doc._.source_map
    if source_map is None:
        return token.i
    index = source_map[token.i]
    return None if index < 0 else index


def _source_idx(token: Token) -> Optional[int]:
    offsets = token.doc._.source_offsets
    if offsets is None:
        return token.idx
    offset = offsets[token.i]
    return None if offset < 0 else offset


def register_extensions() -> None:
    """Register the attributes once (safe to call repeatedly)."""
    # the canonical mark after the token ("" for none): gold on references,
    # predictions on docs the punctuator processed
    if not Token.has_extension("punct"):
        Token.set_extension("punct", default=None)
    if not Doc.has_extension("punctuated"):
        Doc.set_extension("punctuated", default=None)
    # per-token class probabilities (n_tokens x n_labels), when asked for
    if not Doc.has_extension("punct_probs"):
        Doc.set_extension("punct_probs", default=None)
    # on a rewritten doc: per token, the index of the input token it came from
    # (-1 for inserted marks), its character offset in the input, and the input text
    if not Doc.has_extension("source_map"):
        Doc.set_extension("source_map", default=None)
    if not Doc.has_extension("source_offsets"):
        Doc.set_extension("source_offsets", default=None)
    if not Doc.has_extension("source_text"):
        Doc.set_extension("source_text", default=None)
    if not Token.has_extension("source_i"):
        Token.set_extension("source_i", getter=_source_i)
    if not Token.has_extension("source_idx"):
        Token.set_extension("source_idx", getter=_source_idx)
