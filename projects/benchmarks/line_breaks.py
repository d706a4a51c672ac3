"""A test set read as a transcript in lines: each document with a line break
every N words (as recognisers and caption files break them, read whole with
`punctuate --whole`), against the same documents with single spaces. Prints
micro F1 and the case F1 of each (and writes them to OUTPUT.json).

    python projects/benchmarks/line_breaks.py MODEL TEST.spacy [OUTPUT.json] [--every 12]
"""

import argparse
import json
from pathlib import Path
from typing import List

from spacy.tokens import Doc
from spacy.training import Example

from spacy_punct.pipelines import load_pipeline
from spacy_punct.runtime.threads import set_threads
from spacy_punct.training.corpus import PunctCorpus


def with_line_breaks(doc: Doc, every: int) -> Doc:
    """The doc's words with a line break token after every `every` words."""
    words, spaces = [], []
    for i, token in enumerate(doc):
        words.append(token.text)
        if (i + 1) % every == 0 and i + 1 < len(doc) and token.whitespace_:
            words.append("\n")
            spaces.extend([False, False])
        else:
            spaces.append(bool(token.whitespace_))
    return Doc(doc.vocab, words=words, spaces=spaces)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("test")
    parser.add_argument("output", nargs="?")
    parser.add_argument("--every", type=int, default=12)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    set_threads(args.threads)
    nlp = load_pipeline(args.model)
    examples: List[Example] = list(PunctCorpus(args.test, max_length=0)(nlp))
    broken = [Example(with_line_breaks(eg.predicted, args.every), eg.reference) for eg in examples]
    results = {}
    for name, data in (("one line", examples), (f"a line break every {args.every} words", broken)):
        scores = nlp.evaluate(data)
        results[name] = {"punct_f": scores["punct_f"], "case_f": scores.get("case_f")}
        case = f", case F1 {100 * scores['case_f']:.1f}" if scores.get("case_f") is not None else ""
        print(f"{name}: micro F1 {100 * scores['punct_f']:.1f}{case}")
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
