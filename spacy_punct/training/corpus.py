"""The training reader: DocBins of natural punctuated text -> Examples whose
predicted Doc has bare words and whose reference carries the gold marks."""
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import registry
from spacy.vocab import Vocab

from ..align import marks_after, token_table
from ..extensions import register_extensions, set_token_extension_values, token_extension_values, token_values
from ..labels import stronger

register_extensions()

Augmenter = Callable[[Language, Example], Iterable[Example]]


@registry.readers("spacy_punct.PunctCorpus.v1")
class PunctCorpus:
    """Read punctuation training examples from a .spacy file or a folder of
    them; each call is one epoch.

    lowercase: lower-case the words the model sees (ASR output is lower-case).
    max_length: cut docs into chunks of at most this many words (0: whole docs).
    random_chunks: start the chunks at a random offset, new every epoch, so that
        chunk ends are not sentence ends. spaCy calls the reader every epoch
        only with `[training] max_epochs = -1`.
    shuffle: yield each epoch's chunks in random order (spaCy does not shuffle
        with `max_epochs = -1`). An epoch's chunks are then held in memory,
        and the words read in the first epoch are kept for the next ones
        rather than read from disk again (with `shuffle` off, one file is in
        memory at a time).
    seed: seed of the chunk offsets and the order.
    limit: read at most this many docs (0: all).
    augmenter: applied to every example (for instance `spacy_punct.asr_noise.v1`).
    lookahead: [l_min, l_max], to train for the edge of a stream (Minixhofer
        2021): each chunk is read with l words after it, l drawn from the range
        per chunk, which are context only (no loss; they are learned in the
        next chunk). The chunk's last word is then predicted from exactly l
        words of right context, as a streamer with lookahead l does. Short
        chunks (`max_length` 20-40) put more words near that edge.

    Custom token attributes of the docs (word timings `start_time`/`end_time`)
    are carried to both sides of the examples.
    """

    def __init__(
        self,
        path: Optional[Union[str, Path]],
        *,
        lowercase: bool = True,
        max_length: int = 200,
        random_chunks: bool = False,
        shuffle: bool = False,
        seed: int = 0,
        limit: int = 0,
        augmenter: Optional[Augmenter] = None,
        lookahead: Optional[Sequence[int]] = None,
    ) -> None:
        if path is None:
            raise ValueError("PunctCorpus needs a path to a .spacy file or a folder of them.")
        if max_length < 0:
            raise ValueError(f"max_length must be >= 0, not {max_length}.")
        self.path = Path(path)
        self.lowercase = lowercase
        self.max_length = max_length
        self.random_chunks = random_chunks
        self.shuffle = shuffle
        self.seed = seed
        self.limit = limit
        self.augmenter = augmenter
        if lookahead is not None and (len(lookahead) != 2 or not 0 <= lookahead[0] <= lookahead[1]):
            raise ValueError(f"lookahead must be [l_min, l_max] with 0 <= l_min <= l_max, not {lookahead}.")
        self.lookahead = tuple(lookahead) if lookahead is not None else None
        self.epoch = 0
        self._read: Optional[List[List["WordRecord"]]] = None

    def __call__(self, nlp: Language) -> Iterator[Example]:
        rng = numpy.random.default_rng([self.seed, self.epoch])
        self.epoch += 1
        examples = self._examples(nlp, rng)
        if self.shuffle:
            examples = list(examples)
            rng.shuffle(examples)
        for example in examples:
            if self.augmenter is None:
                yield example
                continue
            for augmented in self.augmenter(nlp, example):
                augmented.predicted._.open_end = example.predicted._.open_end
                yield augmented

    def _texts(self, nlp: Language) -> Iterator[List["WordRecord"]]:
        """The word records of each doc; kept after a whole first reading
        when the chunks are shuffled (and so held in memory anyway)."""
        if self._read is not None:
            yield from self._read
            return
        kept: List[List["WordRecord"]] = []
        for doc in read_docbins(self.path, nlp.vocab, self.limit):
            records = word_records(doc, self.lowercase)
            if self.shuffle:
                kept.append(records)
            yield records
        if self.shuffle:
            self._read = kept

    def _examples(self, nlp: Language, rng: numpy.random.Generator) -> Iterator[Example]:
        for records in self._texts(nlp):
            for start, end in self._chunks(len(records), rng):
                if self.lookahead is None:
                    example = make_example(nlp.vocab, records[start:end])
                else:
                    right = int(rng.integers(self.lookahead[0], self.lookahead[1] + 1))
                    context = [replace(record, mark=None) for record in records[end : end + right]]
                    example = make_example(nlp.vocab, records[start:end] + context)
                    end += right
                # a chunk cut inside the doc does not end the text
                example.predicted._.open_end = end < len(records)
                yield example

    def _chunks(self, n_words: int, rng: numpy.random.Generator) -> Iterator[Tuple[int, int]]:
        size = self.max_length or n_words
        if n_words == 0:
            return
        start = 0
        if self.random_chunks and n_words > size:
            first = int(rng.integers(1, size + 1))
            yield 0, first
            start = first
        while start < n_words:
            yield start, min(start + size, n_words)
            start += size


def read_docbins(path: Union[str, Path], vocab: Vocab, limit: int = 0) -> Iterator[Doc]:
    """The docs of a .spacy file, or of every .spacy file under a folder, one
    file in memory at a time; at most `limit` docs (0: all)."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"Corpus path not found: {path}")
    files = sorted(path.rglob("*.spacy")) if path.is_dir() else [path]
    if not files:
        raise ValueError(f"No .spacy files under {path}")
    n_docs = 0
    for file in files:
        try:
            doc_bin = DocBin().from_disk(file)
        except Exception as e:
            raise ValueError(f"{file} is not a DocBin (.spacy) file: {e}") from e
        for doc in doc_bin.get_docs(vocab):
            if limit and n_docs >= limit:
                return
            n_docs += 1
            yield doc


@dataclass
class WordRecord:
    """One word of a training text: as written, as the model sees it, whether
    a space follows, the canonical mark after it, and its custom attributes."""

    text: str
    seen: str
    space: bool
    mark: Optional[str]  # None: no gold (context only)
    extra: Dict[str, Any] = field(default_factory=dict)


def word_records(doc: Doc, lowercase: bool = False) -> List[WordRecord]:
    """The words of a doc with the mark after each.

    The marks come from the doc's punctuation tokens (natural text) or from
    `token._.punct` (the gold form written by `strip_docs`); `space` is False
    inside `don't`.
    """
    table = token_table(doc)
    after = marks_after(doc, table)
    gold = token_values(doc, "punct", table.idx)
    extras = token_extension_values(doc, skip=("punct",))
    records: List[WordRecord] = []
    for i, (text, spaced, is_space, is_punct) in enumerate(zip(table.texts, table.spaced, table.is_space, table.punct)):
        if is_space or is_punct:
            if records:
                records[-1].space = True
            continue
        records.append(
            WordRecord(
                text=text,
                seen=text.lower() if lowercase else text,
                space=spaced,
                mark=stronger(after[i], gold[i] or ""),
                extra=extras[i],
            )
        )
    return records


def strip_docs(docs: Iterable[Doc], lowercase: bool = True) -> Iterator[Doc]:
    """The gold form of punctuated docs: bare words (lower-cased if asked) with
    the gold mark in `token._.punct`. `spacy evaluate`, which builds its input
    from the reference text, reads test sets in this form."""
    for doc in docs:
        # a DocBin forgets the spaces of a doc with unknown spaces: join the
        # words written together (`does` `n't`) so the text stays as written
        joined: List[WordRecord] = []
        glued = False
        for record in word_records(doc, lowercase):
            if glued:
                joined[-1].text += record.seen
                joined[-1].mark = record.mark
            else:
                joined.append(WordRecord(record.seen, record.seen, True, record.mark, record.extra))
            glued = not record.space
        yield gold_doc(doc.vocab, joined)


def make_example(vocab: Vocab, records: Sequence[WordRecord]) -> Example:
    """An Example: predicted, the words as the model sees them; reference, the
    words as written with the gold mark after each. Both carry the records'
    custom attributes."""
    spaces = [record.space for record in records]
    if spaces:
        spaces[-1] = False
    predicted = Doc(vocab, words=[record.seen for record in records], spaces=spaces)
    for token, record in zip(predicted, records):
        if record.extra:
            set_token_extension_values(token.doc, token.idx, record.extra)
    return Example(predicted, gold_doc(vocab, records, spaces))


def example_records(example: Example) -> List[WordRecord]:
    """The records an example made by `make_example` was built from."""
    extras = token_extension_values(example.reference, skip=("punct",))
    return [
        WordRecord(ref.text, pred.text, bool(pred.whitespace_), ref._.punct, extra)
        for pred, ref, extra in zip(example.predicted, example.reference, extras)
    ]


def gold_doc(vocab: Vocab, records: Sequence[WordRecord], spaces: Optional[Sequence[bool]] = None) -> Doc:
    """A reference Doc: the words as written with the gold mark in `token._.punct`.

    It is flagged as having unknown spaces, so that spaCy's tokenization scorer
    leaves it alone when the predicted Doc is a rewritten, punctuated one.
    """
    if spaces is None:
        spaces = [record.space for record in records]
    doc = Doc(vocab, words=[record.text for record in records], spaces=list(spaces))
    doc.has_unknown_spaces = True
    for token, record in zip(doc, records):
        token._.punct = record.mark
        if record.extra:
            set_token_extension_values(token.doc, token.idx, record.extra)
    return doc
