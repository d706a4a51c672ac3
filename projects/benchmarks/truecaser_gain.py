"""What a pipeline's truecaser adds: its case F1 (words written other than in
lower case, exactly as in the reference) with the truecaser, against the same
pipeline without it, where only the punctuator's sentence starts bring
capitals (its annotations left unset, so that the case scorer still runs).

    python projects/benchmarks/truecaser_gain.py hu_punct_trf corpus/hu/eval/dev.spacy -o projects/benchmarks/metrics/truecaser_gain/hu.json
"""

import argparse
import json
from pathlib import Path

from spacy_punct import load_pipeline
from spacy_punct.evaluation import evaluate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("test_set", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    scores = {}
    for variant in ("with", "without"):
        nlp = load_pipeline(args.pipeline, threads=2)
        if variant == "without":
            nlp.get_pipe("truecaser").set_annotations = lambda docs, scores: None
        result = evaluate(nlp, args.test_set)
        scores[variant] = {key: result.get(key) for key in ("case_f", "punct_f")}
        print(
            f"{variant} the truecaser: case F1 {100 * result['case_f']:.1f}, punctuation F1 {100 * result['punct_f']:.1f}"
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        json.dumps({"pipeline": args.pipeline, "test_set": str(args.test_set), **scores}, indent=2) + "\n",
        encoding="utf8",
    )


if __name__ == "__main__":
    main()
