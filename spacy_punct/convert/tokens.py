"""`word<TAB>LABEL` lists (IWSLT LREC release, the Bangla corpus of Alam et al.)."""

from pathlib import Path
from typing import Iterator, List, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..labels import LABEL_MARKS, ends_sentence
from ..languages import language_rules
from .common import (
    ConversionError,
    ConversionStats,
    ConvertOptions,
    input_files,
    read_text,
    token_doc,
)

LABEL_ALIASES = {"O": "EMPTY"}


def parse_line(line: str, number: int, path: Path) -> Tuple[str, str]:
    """A line's word and its canonical mark."""
    if "\t" in line:
        word, _, label = line.rpartition("\t")
    else:
        word, _, label = line.strip().rpartition(" ")
    label = LABEL_ALIASES.get(label.strip(), label.strip())
    if label not in LABEL_MARKS:
        raise ConversionError(
            f"{path}:{number}: expected 'word<TAB>LABEL' with a label in "
            f"{['O'] + sorted(LABEL_MARKS)}, got {line[:80]!r}"
        )
    return word.strip(), LABEL_MARKS[label]


def convert_tokens(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per blank-line-separated block, cut after the first sentence end
    past `options.doc_length` words. Lines whose word is empty are skipped with
    their label; clitics (`it 's`, `do n't`) are joined to the word before them.
    In a folder, files that are not in the format (a README) are skipped and
    reported."""
    clitics = language_rules(nlp.lang or "").clitics
    vocab = nlp.vocab
    doc_length = options.doc_length
    folder = Path(path).is_dir()
    for file in input_files(path, options.glob or "*"):
        try:
            text = read_text(file, stats, options.encoding)
            if folder:
                _check_format(text, file)
        except ConversionError:
            if not folder:
                raise
            stats.skip_file(file, "not in the word<TAB>LABEL format")
            continue
        words: List[str] = []
        marks: List[str] = []
        glued: List[bool] = []  # joined to the word before
        for number, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                if words:
                    yield build_doc(vocab, words, marks, glued, stats)
                    words, marks, glued = [], [], []
                continue
            word, mark = parse_line(line, number, file)
            if not word:
                stats.skipped["lines with an empty word"] += 1
                continue
            glued.append(bool(words) and word.lower() in clitics and not marks[-1])
            words.append(word)
            marks.append(mark)
            if len(words) >= doc_length and ends_sentence(mark):
                yield build_doc(vocab, words, marks, glued, stats)
                words, marks, glued = [], [], []
        if words:
            yield build_doc(vocab, words, marks, glued, stats)


def _check_format(text: str, path: Path) -> None:
    """Raise unless the first line of a text is a word<TAB>LABEL line."""
    first = next((line for line in text.split("\n") if line.strip()), None)
    if first is None:
        raise ConversionError(f"{path} is empty.")
    parse_line(first, 1, path)


def build_doc(vocab: Vocab, words: List[str], marks: List[str], glued: List[bool], stats: ConversionStats) -> Doc:
    """A doc of the words, each followed by its mark, without a space before
    the words `glued` to the one before; counted in `stats`."""
    tokens: List[Tuple[str, bool, bool]] = []
    for i, (word, mark) in enumerate(zip(words, marks)):
        space = not (i + 1 < len(words) and glued[i + 1])
        if mark:
            tokens.append((word, False, False))
            tokens.append((mark, space, True))
        else:
            tokens.append((word, space, False))
    doc = token_doc(vocab, tokens)
    stats.count(doc)
    return doc
