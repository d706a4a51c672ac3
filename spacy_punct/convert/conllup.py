"""CoNLL-U Plus files whose columns a `# global.columns` header names and
that record no spacing (NYTK-NerKor): the FORM and UPOS columns, marks
written onto the word before them, opening brackets and quotes onto the word
after."""

from pathlib import Path
from typing import Iterator, List, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionError, ConversionStats, ConvertOptions, input_files, read_text, token_doc

Token = Tuple[str, bool, bool]  # text, space after, is punctuation
_OPENING = frozenset("([{„«‹“‘¿¡")
_CLOSING_CHARS = frozenset(".,;:!?)]}”»›’…%")


def convert_conllup(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per file (`*.conllup`), its sentences in order."""
    for file in input_files(path, options.glob or "*.conllup", options.exclude):
        tokens = _tokens(read_text(file, stats, options.encoding), file)
        if tokens:
            doc = token_doc(nlp.vocab, tokens)
            stats.count(doc)
            yield doc


def _tokens(text: str, path: Path) -> List[Token]:
    lines = text.split("\n")
    header = next((line for line in lines if line.startswith("# global.columns")), None)
    if header is None:
        raise ConversionError(f"{path}: no '# global.columns = ...' header: not CoNLL-U Plus.")
    columns = header.split("=", 1)[1].split()
    if "FORM" not in columns or "UPOS" not in columns:
        raise ConversionError(f"{path}: its columns ({' '.join(columns)}) name no FORM and UPOS.")
    form_at, upos_at = columns.index("FORM"), columns.index("UPOS")
    tokens: List[Token] = []
    straight_quote_open = False
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != len(columns):
            raise ConversionError(f"{path}:{number}: {len(fields)} columns where the header names {len(columns)}.")
        form, is_punct = fields[form_at], fields[upos_at] == "PUNCT"
        closes = is_punct and (all(char in _CLOSING_CHARS for char in form) or (form == '"' and straight_quote_open))
        opens = is_punct and (form in _OPENING or (form == '"' and not straight_quote_open))
        if form == '"':
            straight_quote_open = not straight_quote_open
        if tokens and closes:
            tokens[-1] = (tokens[-1][0], False, tokens[-1][2])
        tokens.append((form, not opens, is_punct))
    return tokens
