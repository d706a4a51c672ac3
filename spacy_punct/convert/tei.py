"""TEI XML with a token per element (the ELTE-DH gold-standard corpus):
`<token join="no|yes"><form>...</form>...</token>` inside `<s>` and `<p>`,
`join="yes"` for no space before the next token. One Doc per document; the
morphology and the header are ignored. A folder of `*.xml` files or a
`.tar.gz` of them (the corpus as it is packed) is read."""

import tarfile
import unicodedata
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Iterator, List, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from .common import ConversionError, ConversionStats, ConvertOptions, input_files, token_doc

Token = Tuple[str, bool, bool]  # text, space after, is punctuation
_ARCHIVES = (".tar.gz", ".tgz", ".tar")


def convert_tei(path: Path, nlp: Language, stats: ConversionStats, options: ConvertOptions) -> Iterator[Doc]:
    """One Doc per TEI document, its tokens in order."""
    for name, data in _documents(Path(path), options.glob or "*.xml"):
        if not data.strip():
            stats.skip_file(name, "empty")
            continue
        tokens = tei_tokens(data, name)
        if tokens:
            doc = token_doc(nlp.vocab, tokens)
            stats.count(doc)
            yield doc


def _documents(path: Path, pattern: str) -> Iterator[Tuple[str, bytes]]:
    """(name, bytes) of each document: the file, the files of a folder, and
    the members of the tar archives given or found in the folder."""
    archives = sorted(path.rglob("*.tar.gz")) if path.is_dir() else []
    if path.is_file() and path.name.endswith(_ARCHIVES):
        archives = [path]
    for archive in archives:
        yield from _archived(archive, pattern)
    if archives and not any(path.rglob(pattern)):
        return
    for file in input_files(path, pattern):
        yield str(file), file.read_bytes()


def _archived(path: Path, pattern: str) -> Iterator[Tuple[str, bytes]]:
    try:
        with tarfile.open(path) as archive:
            for member in sorted((m for m in archive.getmembers() if m.isfile()), key=lambda m: m.name):
                extracted = archive.extractfile(member) if Path(member.name).match(pattern) else None
                if extracted is not None:
                    yield f"{path}:{member.name}", extracted.read()
    except (tarfile.TarError, EOFError, OSError) as e:
        raise ConversionError(f"{path}: not a readable tar archive: {e}") from None


def tei_tokens(data: bytes, name: str) -> List[Token]:
    """The (text, space after, is punctuation) tokens of one TEI document."""
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as e:
        raise ConversionError(f"{name}: not XML: {e}") from None
    tokens: List[Token] = []
    for token in root.iter(_tag(root, "token")):
        form = token.find(_tag(root, "form"))
        text = "".join(form.itertext()).strip() if form is not None else ""
        if not text:
            continue
        tokens.append((text, token.get("join", "no") != "yes", _is_punct(text)))
    if not tokens and root.find(f".//{_tag(root, 'text')}") is None:
        raise ConversionError(f"{name}: no <text> and no <token>: not a TEI document of tokens.")
    return tokens


def _tag(root: ElementTree.Element, name: str) -> str:
    """`name` in the document's namespace, where it has one."""
    return f"{root.tag.split('}')[0]}}}{name}" if root.tag.startswith("{") else name


def _is_punct(text: str) -> bool:
    return all(unicodedata.category(char).startswith("P") for char in text)
