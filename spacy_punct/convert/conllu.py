"""CoNLL-U treebanks (Universal Dependencies): the surface text with the
treebank's own tokens and its PUNCT tags."""

from pathlib import Path
from typing import Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.vocab import Vocab

from .common import ConversionError, ConversionStats, ConvertOptions, input_files, read_text, token_doc

Token = Tuple[str, bool, bool]  # text, space after, is punctuation


def convert_conllu(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per `# newdoc`; without such marks, consecutive sentences are
    grouped into docs of at least `options.doc_length` words."""
    vocab = nlp.vocab
    doc_length = options.doc_length
    for file in input_files(path, options.glob or "*.conllu"):
        tokens: List[Token] = []
        n_words = 0
        marks_docs = False
        for sentence, newdoc in _sentences(read_text(file, stats, options.encoding), file):
            marks_docs = marks_docs or newdoc
            if tokens and (newdoc or (not marks_docs and n_words >= doc_length)):
                yield _doc(vocab, tokens, stats)
                tokens, n_words = [], 0
            tokens.extend(sentence)
            n_words += sum(not is_punct for _, _, is_punct in sentence)
        if tokens:
            yield _doc(vocab, tokens, stats)


def _doc(vocab: Vocab, tokens: List[Token], stats: ConversionStats) -> Doc:
    doc = token_doc(vocab, tokens)
    stats.count(doc)
    return doc


def _sentences(text: str, path: Path) -> Iterator[Tuple[List[Token], bool]]:
    """Each sentence's surface tokens, and whether a new document starts with it."""
    tokens: List[Token] = []
    newdoc = False
    multiword: Optional[Tuple[int, int, str, bool]] = None  # first, last, form, space
    parts: List[Tuple[str, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            if tokens:
                yield tokens, newdoc
            tokens, newdoc = [], False
            continue
        if line.startswith("#"):
            newdoc = newdoc or line.startswith("# newdoc")
            continue
        columns = line.split("\t")
        if len(columns) != 10:
            raise ConversionError(f"{path}:{number}: not CoNLL-U (10 tab-separated columns expected): {line[:80]!r}")
        index, form, upos, misc = columns[0], columns[1], columns[3], columns[9]
        space = "SpaceAfter=No" not in misc.split("|")
        if "." in index:  # empty node
            continue
        if "-" in index:
            first, last = index.split("-")
            multiword = (int(first), int(last), form, space)
            parts = []
            continue
        if multiword is None:
            tokens.append((form, space, upos == "PUNCT"))
            continue
        parts.append((form, upos))
        if int(index) == multiword[1]:
            tokens.extend(_multiword(multiword[2], multiword[3], parts))
            multiword = None
    if tokens:
        yield tokens, newdoc


def _multiword(form: str, space: bool, parts: List[Tuple[str, str]]) -> List[Token]:
    """A multiword token's pieces where they spell it (`do` `n't`), else the
    surface form as one token (`del` for `de` `el`)."""
    if "".join(part for part, _ in parts).lower() != form.lower():
        return [(form, space, all(upos == "PUNCT" for _, upos in parts))]
    pieces = [(part, False, upos == "PUNCT") for part, upos in parts]
    pieces[-1] = (pieces[-1][0], space, pieces[-1][2])
    return pieces
