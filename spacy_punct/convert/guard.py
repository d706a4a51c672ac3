"""The contamination guard: documents that share word 8-grams with a test
set are dropped before they can be trained on; the same index finds
near-duplicate documents inside one corpus."""

import re
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from .common import ConversionError, ConversionStats

NGRAM = 8
DEFAULT_MAX_SHARE = 0.05
_WORD = re.compile(r"\w+")
_APOSTROPHES = re.compile(r"['’`]")


def normal_words(text: str) -> List[str]:
    """The words of a text as the guard compares them: lower-cased,
    apostrophes dropped (`don't` and `do n't` both read `dont`), marks gone."""
    return _WORD.findall(_APOSTROPHES.sub("", text.lower()))


def ngram_keys(words: Sequence[str], n: int = NGRAM) -> Set[int]:
    """Hashes of a word list's n-grams (the whole list when it is shorter)."""
    if len(words) < n:
        return {hash(tuple(words))} if words else set()
    return {hash(tuple(words[i : i + n])) for i in range(len(words) - n + 1)}


class NgramIndex:
    """The word n-grams of a set of texts, and the share of a new text's
    n-grams found among them."""

    def __init__(self, n: int = NGRAM) -> None:
        self.n = n
        self.keys: Set[int] = set()

    def add(self, text: str) -> None:
        self.keys |= ngram_keys(normal_words(text), self.n)

    def share(self, text: str) -> float:
        keys = ngram_keys(normal_words(text), self.n)
        return len(keys & self.keys) / len(keys) if keys else 0.0


class ContaminationGuard:
    """Test sets by name; `check` names the test set a text shares more than
    `max_share` of its 8-grams with, and the share."""

    def __init__(self, test_sets: Mapping[str, Iterable[str]], max_share: float = DEFAULT_MAX_SHARE) -> None:
        if not 0.0 <= max_share < 1.0:
            raise ConversionError(f"The guard's largest share must be in [0, 1), not {max_share}.")
        self.max_share = max_share
        self.indexes: Dict[str, NgramIndex] = {}
        for name, texts in test_sets.items():
            index = NgramIndex()
            for text in texts:
                index.add(text)
            self.indexes[name] = index

    @classmethod
    def from_docbins(
        cls, paths: Sequence[Path], vocab: Vocab, max_share: float = DEFAULT_MAX_SHARE
    ) -> "ContaminationGuard":
        """A guard against the documents of DocBin files (converted test sets)."""
        test_sets = {}
        for path in paths:
            path = Path(path)
            if not path.is_file():
                raise ConversionError(f"Test set to guard against not found: {path}")
            try:
                docs = DocBin().from_disk(path).get_docs(vocab)
                test_sets[path.name] = [doc.text for doc in docs]
            except Exception:  # a file that is not a DocBin
                raise ConversionError(
                    f"{path} is not a DocBin (.spacy) test set: write one with `spacy-punct convert`."
                ) from None
        return cls(test_sets, max_share)

    def check(self, text: str) -> Optional[Tuple[str, float]]:
        for name, index in self.indexes.items():
            share = index.share(text)
            if share > self.max_share:
                return name, share
        return None

    def filter(self, docs: Iterable[Doc], stats: ConversionStats) -> Iterator[Doc]:
        """The docs that pass; each dropped one is counted and named in `stats`."""
        for number, doc in enumerate(docs):
            found = self.check(doc.text)
            if found is None:
                yield doc
                continue
            name, share = found
            stats.uncount(doc)
            stats.skipped[f"documents sharing over {self.max_share:.0%} of their 8-grams with a test set"] += 1
            stats.skip_file(doc_name(doc, number), f"{share:.0%} of its 8-grams in {name}")


def doc_name(doc: Doc, number: int) -> str:
    """The doc's source file where the converter recorded it, else its number and first words."""
    source = doc.user_data.get("source")
    if source:
        return str(source)
    return f"document {number + 1} ({' '.join(doc.text.split()[:8])} …)"
