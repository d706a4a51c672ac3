"""Convert a corpus as the language registry lists its files
(`spacy_punct/languages.py`): corpus/NAME/train/*.spacy (the training
text), corpus/NAME/dev.spacy (held out for checkpoint selection),
corpus/NAME/eval/*.spacy (test sets) and corpus/NAME/extra/ (text measured
and not trained on).

    python scripts/prepare_corpus.py NAME ASSETS_DIR     (NAME: en, hu, bn, demo)
"""

import sys
from pathlib import Path

from spacy_punct.convert import ConversionError
from spacy_punct.convert.prepare import prepare_corpus

MAX_NAMED = 10


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    name, assets = sys.argv[1], Path(sys.argv[2])
    try:
        for prepared in prepare_corpus(name, assets):
            print(f"Wrote {prepared.path}")
            if prepared.dev:
                print(f"Held out the last {prepared.n_dev} documents as {prepared.dev}")
            lines = prepared.stats.summary().splitlines()
            skipped = [line for line in lines if line.startswith("skipped file:")]
            print("\n".join(line for line in lines if line not in skipped))
            # what the guard and the duplicate check dropped: the first few by name
            print("\n".join(skipped[:MAX_NAMED]))
            if len(skipped) > MAX_NAMED:
                print(f"... and {len(skipped) - MAX_NAMED} more files skipped")
            print()
    except (ConversionError, ValueError) as e:
        sys.exit(f"Error: {e}")


if __name__ == "__main__":
    main()
