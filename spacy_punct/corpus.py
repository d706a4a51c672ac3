"""The training reader: DocBins of natural punctuated text -> Examples whose
predicted Doc has bare words and whose reference carries the gold marks."""
from pathlib import Path
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import registry
from spacy.vocab import Vocab

from .extensions import register_extensions
from .labels import marks_after, punct_flags, stronger

register_extensions()

Augmenter = Callable[[Language, Example], Iterable[Example]]


@registry.readers("spacy_punct.PunctCorpus.v1")
def create_punct_corpus(
    path: Optional[Union[str, Path]],
    lowercase: bool = True,
    max_length: int = 200,
    random_chunks: bool = False,
    shuffle: bool = False,
    seed: int = 0,
    limit: int = 0,
    augmenter: Optional[Augmenter] = None,
) -> Callable[[Language], Iterator[Example]]:
    """Read punctuation training examples from a .spacy file or a folder of them.

    lowercase: lower-case the words the model sees (ASR output is lower-case).
    max_length: cut docs into chunks of at most this many words (0: whole docs).
    random_chunks: start the chunks at a random offset, new every epoch, so that
        chunk ends are not sentence ends. spaCy calls the reader every epoch
        only with `[training] max_epochs = -1`.
    shuffle: yield each epoch's chunks in random order (spaCy does not shuffle
        with `max_epochs = -1`).
    seed: seed of the chunk offsets and the order.
    limit: read at most this many docs (0: all).
    augmenter: applied to every example (for instance `spacy_punct.asr_noise.v1`).
    """
    return PunctCorpus(
        path,
        lowercase=lowercase,
        max_length=max_length,
        random_chunks=random_chunks,
        shuffle=shuffle,
        seed=seed,
        limit=limit,
        augmenter=augmenter,
    )


class PunctCorpus:
    """Iterate over punctuation examples; each call is one epoch."""

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
        self.epoch = 0

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
            else:
                yield from self.augmenter(nlp, example)

    def _examples(self, nlp: Language, rng: numpy.random.Generator) -> Iterator[Example]:
        for doc in read_docbins(self.path, nlp.vocab, self.limit):
            words, spaces, marks = split_marks(doc)
            for start, end in self._chunks(len(words), rng):
                chunk = words[start:end]
                seen = [word.lower() for word in chunk] if self.lowercase else chunk
                yield make_example(nlp.vocab, seen, chunk, marks[start:end], spaces[start:end])

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


def split_marks(doc: Doc) -> Tuple[List[str], List[bool], List[str]]:
    """The words of a doc, whether a space separates each from the next (not so
    inside `don't`), and the canonical mark after each.

    The marks come from the doc's punctuation tokens (natural text) or from
    `token._.punct` (the gold form written by `strip_docs`).
    """
    punct = punct_flags(doc)
    after = marks_after(doc, punct)
    words: List[str] = []
    spaces: List[bool] = []
    marks: List[str] = []
    for token, mark, is_punct in zip(doc, after, punct):
        if token.is_space or is_punct:
            if spaces:
                spaces[-1] = True
            continue
        words.append(token.text)
        spaces.append(bool(token.whitespace_))
        marks.append(stronger(mark, token._.punct or ""))
    return words, spaces, marks


def strip_docs(docs: Iterable[Doc], lowercase: bool = True) -> Iterator[Doc]:
    """The gold form of punctuated docs: bare words (lower-cased if asked) with
    the gold mark in `token._.punct`. `spacy evaluate`, which builds its input
    from the reference text, reads test sets in this form."""
    for doc in docs:
        words, spaces, marks = split_marks(doc)
        if lowercase:
            words = [word.lower() for word in words]
        # a DocBin forgets the spaces of a doc with unknown spaces: join the
        # words written together (`does` `n't`) so the text stays as written
        joined: List[str] = []
        joined_marks: List[str] = []
        glued = False
        for word, space, mark in zip(words, spaces, marks):
            if glued:
                joined[-1] += word
                joined_marks[-1] = mark
            else:
                joined.append(word)
                joined_marks.append(mark)
            glued = not space
        yield gold_doc(doc.vocab, joined, joined_marks, [True] * len(joined))


def make_example(
    vocab: Vocab,
    seen: Sequence[str],
    words: Sequence[str],
    marks: Sequence[str],
    spaces: Optional[Sequence[bool]] = None,
) -> Example:
    """An Example: the bare words the model sees (`spaces` after them, else one
    after each), and as reference the words in their original case with the
    gold mark after each."""
    spaces = [True] * len(seen) if spaces is None else list(spaces)
    if spaces:
        spaces[-1] = False
    predicted = Doc(vocab, words=list(seen), spaces=spaces)
    return Example(predicted, gold_doc(vocab, words, marks, spaces))


def gold_doc(
    vocab: Vocab, words: Sequence[str], marks: Sequence[str], spaces: Sequence[bool]
) -> Doc:
    """A reference Doc: the words with the gold mark in `token._.punct`.

    It is flagged as having unknown spaces, so that spaCy's tokenization scorer
    leaves it alone when the predicted Doc is a rewritten, punctuated one.
    """
    doc = Doc(vocab, words=list(words), spaces=list(spaces))
    doc.has_unknown_spaces = True
    for token, mark in zip(doc, marks):
        token._.punct = mark
    return doc
