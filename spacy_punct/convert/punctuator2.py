"""punctuator2's text format (Tilk & Alumäe 2016): words with the marks as
tokens of their own, `,COMMA .PERIOD ?QUESTIONMARK !EXCLAMATIONMARK :COLON
;SEMICOLON -DASH`, and in its pause-annotated data `<sil=0.250>` between
words."""

import re
from pathlib import Path
from typing import Iterator, List

from spacy.language import Language
from spacy.tokens import Doc

from ..labels import LABEL_MARKS, ends_sentence
from ..languages import language_rules
from .common import ConversionError, ConversionStats, ConvertOptions, input_files, read_text
from .tokens import build_doc

MARK_TOKENS = {
    ",COMMA": "COMMA",
    ".PERIOD": "PERIOD",
    "?QUESTIONMARK": "QUESTION",
    "!EXCLAMATIONMARK": "EXCLAMATION",
    ":COLON": "COLON",
    ";SEMICOLON": "SEMICOLON",
    "-DASH": "DASH",
}
PAUSE = re.compile(r"<sil=[0-9.]+>")


def convert_punctuator2(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per blank-line-separated block, cut after the first sentence end
    past `options.doc_length` words (line ends inside a block are spaces).
    A mark token with no word before it, or after another mark, is skipped and
    counted; pause tokens are dropped; clitics (`it 's`) are joined to the word
    before them. In a folder, files without a mark token (a README) are
    skipped and reported."""
    clitics = language_rules(nlp.lang or "").clitics
    folder = Path(path).is_dir()
    for file in input_files(path, options.glob or "*"):
        text = read_text(file, stats, options.encoding)
        if not any(token in MARK_TOKENS for token in text.split()):
            if folder:
                stats.skip_file(file, "not in punctuator2's format")
                continue
            raise ConversionError(f"{file}: no mark token such as ',COMMA' or '.PERIOD': not punctuator2's format.")
        words: List[str] = []
        marks: List[str] = []
        glued: List[bool] = []
        for block in re.split(r"\n[ \t]*\n", text):
            for token in block.split():
                if token in MARK_TOKENS:
                    if not words or marks[-1]:
                        stats.skipped["mark tokens after no word"] += 1
                        continue
                    marks[-1] = LABEL_MARKS[MARK_TOKENS[token]]
                    if len(words) >= options.doc_length and ends_sentence(marks[-1]):
                        yield build_doc(nlp.vocab, words, marks, glued, stats)
                        words, marks, glued = [], [], []
                    continue
                if PAUSE.fullmatch(token):
                    continue
                glued.append(bool(words) and token.lower() in clitics and not marks[-1])
                words.append(token)
                marks.append("")
            if words:
                yield build_doc(nlp.vocab, words, marks, glued, stats)
                words, marks, glued = [], [], []
