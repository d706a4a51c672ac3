"""Punctuating texts: lazily, in batches, texts of any length in pieces with
context across the seams, the output the same whatever the batch."""

import warnings
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc

from ..decode import DecisionSettings
from ..extensions import register_extensions
from ..merge import lowered
from ..pipelines.loading import find_punctuator, settings_cfg
from ..rewrite import rewrite_doc

register_extensions()

# texts longer than this many characters are punctuated in pieces
LONG_TEXT_CHARS = 100_000
# a batch is run once its texts padded to its longest hold this many tokens,
# whatever its number of texts: the models read a batch padded (a transformer's
# windows to the longest window, a BiLSTM's docs to the longest doc) and its
# annotations are held at once, so the memory a batch takes is bounded by its
# padded tokens, not by `batch_size` (a short line beside a long one costs as
# much as the long one)
BATCH_TOKENS = 8_192
# a piece: this many tokens, read with this many tokens of context on each side
PIECE_TOKENS = 5_000
CONTEXT_TOKENS = 200


def punctuate(
    nlp: Language,
    texts: Iterable[str],
    *,
    batch_size: int = 64,
    settings: Optional[DecisionSettings] = None,
    repair: Optional[bool] = None,
) -> Iterator[Doc]:
    """The punctuated doc of each text, in order. Texts are read lazily and
    processed `batch_size` at a time, so memory stays bounded on any stream;
    texts of any length are punctuated (see `punctuate_pieces`). `settings`:
    decide under these (default: the punctuator's own); `repair`: the texts
    are half-punctuated (see `DecisionSettings.repair`)."""
    if isinstance(texts, (str, Doc)):
        # a string is an iterable too: of one-character texts
        raise TypeError("punctuate takes an iterable of texts, such as a list or a file; for one text, give [text].")
    pipe = find_punctuator(nlp)[1]  # here, not at the first result: a wrong pipeline fails at the call
    if repair is not None:
        settings = (settings or pipe.settings).replace(repair=repair)
    items = ((text, None) for text in texts)
    return (doc for doc, _ in punctuate_docs(nlp, items, batch_size=batch_size, settings=settings))


def punctuate_docs(
    nlp: Language,
    items: Iterable[Tuple[Union[str, Doc], Any]],
    *,
    batch_size: int = 64,
    settings: Optional[DecisionSettings] = None,
    progress: Optional[Callable[[Doc, Any], None]] = None,
) -> Iterator[Tuple[Doc, Any]]:
    """Run the pipeline over (text or doc, context) pairs; yield (punctuated
    doc, context) in order. Long texts are punctuated in pieces and joined.
    `progress`: called with each punctuated part (a piece of a long text, or
    a whole one) and its context as it is done."""
    for part, joined, context in _joined_parts(nlp, items, batch_size, settings):
        if progress is not None:
            progress(part, context)
        if joined is not None:
            yield joined, context


def punctuate_steps(
    nlp: Language, texts: Iterable[str], *, settings: Optional[DecisionSettings] = None
) -> Iterator[Optional[Doc]]:
    """Punctuate texts in steps of bounded work, for a caller that shares
    its time among several tasks: yields None after each piece of a long
    text but its last, and each text's punctuated doc, in order."""
    for _, joined, _ in _joined_parts(nlp, ((text, None) for text in texts), 64, settings):
        yield joined


def _joined_parts(
    nlp: Language,
    items: Iterable[Tuple[Union[str, Doc], Any]],
    batch_size: int,
    settings: Optional[DecisionSettings],
) -> Iterator[Tuple[Doc, Optional[Doc], Any]]:
    """(part, the item's punctuated doc once its last part is done or None,
    context) for each part of `punctuate_parts`."""
    pieces: List[Doc] = []
    for doc, context, item, last in punctuate_parts(nlp, items, batch_size=batch_size, settings=settings):
        if last and not pieces:
            yield doc, doc, context
            continue
        pieces.append(doc)
        if last:
            yield doc, _join(pieces, item if isinstance(item, str) else item.text), context
            pieces = []
        else:
            yield doc, None, context


def punctuate_parts(
    nlp: Language,
    items: Iterable[Tuple[Union[str, Doc], Any]],
    *,
    batch_size: int = 64,
    settings: Optional[DecisionSettings] = None,
) -> Iterator[Tuple[Doc, Any, Union[str, Doc], bool]]:
    """Like `punctuate_docs`, but a long text comes as the punctuated docs of
    its pieces (see `punctuate_pieces`), as they are done; a batch ends at
    `batch_size` texts or `BATCH_TOKENS` padded tokens, so memory stays
    bounded whatever the batch size: yields (doc,
    context, item, whether this is the item's last part). A pipeline whose
    punctuator annotates in place without a `punct_rewriter` after it has its
    docs rewritten here. An error reading `items` comes after the results of
    the items read before it."""
    if not isinstance(batch_size, int) or isinstance(batch_size, bool):
        raise TypeError(f"batch_size must be a whole number, not {batch_size!r}.")
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size}.")
    find_punctuator(nlp)
    cfg = settings_cfg(nlp, settings)
    merging = (settings or find_punctuator(nlp)[1].settings).merge
    batch: List[Tuple[Doc, Any]] = []
    longest = 0
    number = 1  # of the next item, for errors
    items = iter(items)
    while True:
        try:
            item, context = next(items)
        except StopIteration:
            break
        except Exception:
            yield from _run(nlp, batch, batch_size, cfg)  # what was read before a bad input is done
            raise
        if not isinstance(item, (str, Doc)):
            yield from _run(nlp, batch, batch_size, cfg)
            raise TypeError(_not_a_text(item, number))
        number += 1
        read = lowered(item) if merging and isinstance(item, str) else item  # the input's offsets kept
        if isinstance(read, str) and len(read) > LONG_TEXT_CHARS:
            yield from _run(nlp, batch, batch_size, cfg)
            batch, longest = [], 0
            pieces = punctuate_pieces(nlp, read, settings=settings)
            piece = next(pieces)
            for following in pieces:
                yield piece, context, item, False
                piece = following
            yield piece, context, item, True
            continue
        doc = nlp.make_doc(read) if isinstance(read, str) else read
        longest = max(longest, len(doc))
        if batch and (len(batch) + 1) * longest > BATCH_TOKENS:  # run what was read, without this one
            yield from _run(nlp, batch, batch_size, cfg)
            batch, longest = [], len(doc)
        batch.append((doc, (context, item)))
        if len(batch) >= batch_size:
            yield from _run(nlp, batch, batch_size, cfg)
            batch, longest = [], 0
    yield from _run(nlp, batch, batch_size, cfg)


def _not_a_text(item: Any, number: int) -> str:
    hint = " (decode bytes first: data.decode('utf-8'))" if isinstance(item, (bytes, bytearray)) else ""
    return f"text {number} is {type(item).__name__}, not a string{hint}: punctuate takes texts (str)."


def _run(
    nlp: Language, batch: List[Tuple[Doc, Any]], batch_size: int, cfg: Dict[str, Dict[str, Any]]
) -> Iterator[Tuple[Doc, Any, Any, bool]]:
    for doc, (context, item) in nlp.pipe(batch, as_tuples=True, batch_size=batch_size, component_cfg=cfg):
        done = doc if doc._.source_map is not None else rewrite_doc(doc)
        if isinstance(item, str) and done._.source_text != item:
            done._.source_text = item  # read lower-cased (`merge`): the input as it came
        yield done, context, item, True


def punctuate_pieces(
    nlp: Language,
    text: str,
    *,
    piece_tokens: Optional[int] = None,
    context_tokens: Optional[int] = None,
    settings: Optional[DecisionSettings] = None,
) -> Iterator[Doc]:
    """Punctuate a text of any length in pieces of about `piece_tokens` tokens
    (default PIECE_TOKENS), each read with `context_tokens` tokens of context
    on either side (default CONTEXT_TOKENS); yield each piece's punctuated
    doc. The pieces' texts joined are the punctuated text. Memory is bounded by
    the piece size, not the text length."""
    cfg = settings_cfg(nlp, settings)
    piece_tokens = piece_tokens or PIECE_TOKENS
    context_tokens = CONTEXT_TOKENS if context_tokens is None else context_tokens
    tokens = _tokens(nlp, text)
    window: List[Tuple[str, str]] = []  # (text, whitespace) of the tokens read
    start = 0  # index in `window` of the next piece's first token
    scanned = 0  # the ends before this index in `window` were ruled out
    for token in tokens:
        window.append(token)
        if len(window) - start >= piece_tokens + context_tokens:
            # Resume where the last search stopped: a long run of tokens with
            # no place to end a piece is scanned once, not once per token.
            end = _piece_end(window, max(scanned, start + piece_tokens))
            if end is None:
                scanned = len(window)
            else:
                yield _piece(nlp, window, start, end, context_tokens, False, cfg)
                drop = max(0, end - context_tokens)
                window, start, scanned = window[drop:], end - drop, 0
    if start < len(window):
        yield _piece(nlp, window, start, len(window), context_tokens, True, cfg)


def _tokens(nlp: Language, text: str) -> Iterator[Tuple[str, str]]:
    """The (text, whitespace) of each token of a text, tokenised in parts cut
    at whitespace so that no part reaches the tokenizer's length limit."""
    part_chars = min(nlp.max_length, LONG_TEXT_CHARS)
    position = 0
    while position < len(text):
        end = min(position + part_chars, len(text))
        if end < len(text):
            cut = max(text.rfind(" ", position, end), text.rfind("\n", position, end))
            end = cut + 1 if cut > position else end
        for token in nlp.make_doc(text[position:end]):
            yield token.text, token.whitespace_
        position = end


def _piece_end(window: List[Tuple[str, str]], target: int) -> Optional[int]:
    """The first index from `target` at which a piece may end: after a token
    followed by whitespace, before a token that is no punctuation (so that a
    word's marks and the words written together stay in one piece)."""
    from ..labels import is_mark

    for end in range(target, len(window)):
        text, space = window[end - 1]
        if space and not window[end][0].isspace() and not is_mark(window[end][0]):
            return end
    return None


def _piece(
    nlp: Language,
    window: List[Tuple[str, str]],
    start: int,
    end: int,
    context: int,
    last: bool,
    cfg: Dict[str, Dict[str, Any]],
) -> Doc:
    """Punctuate window[start:end] with up to `context` tokens on each side;
    `last`: the piece ends the text."""
    left = max(0, start - context)
    right = min(len(window), end + context)
    part = window[left:right]
    doc = Doc(nlp.vocab, words=[t for t, _ in part], spaces=[bool(s) for _, s in part])
    doc._.open_end = not last
    annotated = nlp(doc, component_cfg=cfg)
    if annotated._.source_map is not None:
        annotated = doc  # the punctuator annotated the input before rewriting it
    core = annotated[start - left : end - left].as_doc()
    for token, source in zip(core, annotated[start - left : end - left]):
        token._.punct = source._.punct
    return rewrite_doc(core)


def _join(pieces: List[Doc], text: str) -> Doc:
    """One punctuated doc from the punctuated pieces of a text."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"\[W101\]")  # the doc attributes are set below
        doc = Doc.from_docs(pieces, ensure_whitespace=False)
    source_map: List[int] = []
    offsets: List[int] = []
    n_tokens = n_chars = 0
    for piece in pieces:
        source_map += [i + n_tokens if i >= 0 else -1 for i in piece._.source_map]
        offsets += [o + n_chars if o >= 0 else -1 for o in piece._.source_offsets]
        n_tokens += sum(1 for i in piece._.source_map if i >= 0)
        n_chars += len(piece._.source_text)
    doc._.source_map, doc._.source_offsets, doc._.source_text = source_map, offsets, text
    return doc
