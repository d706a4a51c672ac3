"""The training reader: DocBins of natural punctuated text -> Examples whose
predicted Doc has bare words and whose reference carries the gold marks."""

from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy
from spacy.language import Language
from spacy.training import Example
from spacy.util import registry

from ..labels import ends_sentence
from ..word_records import WordRecord, make_example, read_docbin_files, word_records
from ..words import sentence_spans
from .augment import RecordsAugmenter

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
    weights: how many times an epoch reads the docs of a file of the folder,
        by the file's name without `.spacy` (`{"subtitles": 4}`), each time
        cut at new random offsets; files not named are read once. A weight
        other than 1 must name a file.
    augmenter: applied to every example (for instance `spacy_punct.asr_noise.v1`).
    lookahead: [l_min, l_max], to train for the edge of a stream (Minixhofer
        2021): each chunk is read with l words after it, l drawn from the range
        per chunk, which are context only (no loss; they are learned in the
        next chunk). The chunk's last word is then predicted from exactly l
        words of right context, as a streamer with lookahead l does. Short
        chunks (`max_length` 20-40) put more words near that edge.
    short_share: the share of the chunks cut at their sentence ends into short
        texts of one to three sentences each, whole texts of their own (the
        last word closes the text), as users punctuate single utterances.
    gold_preproc: spacy.Corpus.v1's setting, taken so that this reader can
        replace it in a config as it stands; false only.

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
        weights: Optional[Dict[str, int]] = None,
        augmenter: Optional[Augmenter] = None,
        lookahead: Optional[Sequence[int]] = None,
        short_share: float = 0.0,
        gold_preproc: bool = False,
    ) -> None:
        if path is None:
            raise ValueError("PunctCorpus needs a path to a .spacy file or a folder of them.")
        if gold_preproc:  # taken so that the reader replaces spacy.Corpus.v1 in a config as it stands
            raise ValueError("PunctCorpus reads whole texts: gold_preproc (sentences as the input) must be false.")
        if max_length < 0:
            raise ValueError(f"max_length must be >= 0, not {max_length}.")
        self.path = Path(path)
        self.lowercase = lowercase
        self.max_length = max_length
        self.random_chunks = random_chunks
        self.shuffle = shuffle
        self.seed = seed
        self.limit = limit
        self.weights = dict(weights or {})
        if any(not isinstance(w, int) or w < 0 for w in self.weights.values()):
            raise ValueError(f"weights must be whole numbers >= 0, not {self.weights}.")
        self.augmenter = augmenter
        if lookahead is not None and (len(lookahead) != 2 or not 0 <= lookahead[0] <= lookahead[1]):
            raise ValueError(f"lookahead must be [l_min, l_max] with 0 <= l_min <= l_max, not {lookahead}.")
        self.lookahead = tuple(lookahead) if lookahead is not None else None
        if not 0.0 <= short_share <= 1.0:
            raise ValueError(f"short_share must be in [0, 1], not {short_share}.")
        self.short_share = short_share
        self.epoch = 0
        self._read: Optional[List[Tuple[List["WordRecord"], int]]] = None

    def __call__(self, nlp: Language) -> Iterator[Example]:
        rng = numpy.random.default_rng([self.seed, self.epoch])
        self.epoch += 1
        texts: Iterable[Tuple[List[WordRecord], bool]] = self._chunk_texts(nlp, rng)
        if self.shuffle:
            listed = list(texts)
            rng.shuffle(listed)  # type: ignore[arg-type]  # numpy shuffles any mutable sequence in place
            texts = listed
        for records, open_end in texts:
            if isinstance(self.augmenter, RecordsAugmenter):
                # the words as read: each example is built once
                for augmented in self.augmenter.augment_records(records):
                    yield _example(nlp, augmented, open_end)
                continue
            example = _example(nlp, records, open_end)
            if self.augmenter is None:
                yield example
                continue
            for augmented_example in self.augmenter(nlp, example):
                augmented_example.predicted._.open_end = open_end
                yield augmented_example

    def _texts(self, nlp: Language) -> Iterator[Tuple[List["WordRecord"], int]]:
        """The word records of each doc and the times an epoch reads them;
        kept after a whole first reading when the chunks are shuffled (and so
        held in memory anyway)."""
        if self._read is not None:
            yield from self._read
            return
        kept: List[Tuple[List["WordRecord"], int]] = []
        names = set()
        for file, doc in read_docbin_files(self.path, nlp.vocab, self.limit):
            names.add(file.name[: -len(".spacy")])
            weight = self.weights.get(file.name[: -len(".spacy")], 1)
            if not weight:
                continue
            records = word_records(doc, self.lowercase)
            if self.shuffle:
                kept.append((records, weight))
            yield records, weight
        unknown = sorted(name for name, weight in self.weights.items() if weight != 1 and name not in names)
        if unknown and not self.limit:
            raise ValueError(
                f"weights name no file of {self.path}: {', '.join(unknown)} (weights take names without .spacy)."
            )
        if self.shuffle:
            self._read = kept

    def _chunk_texts(self, nlp: Language, rng: numpy.random.Generator) -> Iterator[Tuple[List[WordRecord], bool]]:
        """The records of each text to train on, and whether it ends open (a
        chunk cut inside its doc does not end the text)."""
        for records, weight in self._texts(nlp):
            for start, end in (chunk for _ in range(weight) for chunk in self._chunks(len(records), rng)):
                if self.short_share and rng.random() < self.short_share:
                    yield from self._short_texts(records, start, end, rng)
                    continue
                if self.lookahead is None:
                    yield records[start:end], end < len(records)
                    continue
                right = int(rng.integers(self.lookahead[0], self.lookahead[1] + 1))
                context = [replace(record, mark=None) for record in records[end : end + right]]
                yield records[start:end] + context, end + right < len(records)

    def _short_texts(
        self, records: List["WordRecord"], start: int, end: int, rng: numpy.random.Generator
    ) -> Iterator[Tuple[List[WordRecord], bool]]:
        """The chunk records[start:end] as texts of one to three sentences."""
        ends = [start + stop for _, stop in sentence_spans([record.mark for record in records[start:end]])]
        begin = start
        while ends:
            take = min(int(rng.integers(1, 4)), len(ends))
            stop = ends[take - 1]
            ends = ends[take:]
            yield (
                records[begin:stop],
                stop == end and stop < len(records) and not ends_sentence(records[stop - 1].mark or ""),
            )
            begin = stop

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


def _example(nlp: Language, records: List[WordRecord], open_end: bool) -> Example:
    example = make_example(nlp.vocab, records)
    example.predicted._.open_end = open_end
    return example
