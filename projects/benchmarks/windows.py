"""F1 and speed against predictions per token for a transformer pipeline.

Two ways to give every token k predictions, at the same cost (k transformer
passes over each token):
- pooled: windows of W tokens every W/k tokens; the listener's reduce_mean
  averages a token's hidden states over the k windows that read it, and the
  head predicts once (spaCy's native way);
- averaged: k passes of non-overlapping windows, each shifted by W/k tokens;
  the head predicts in every pass and the class probabilities are averaged.

Usage: python projects/benchmarks/windows.py MODEL TEST.spacy OUTPUT.json [--window 128] [--k 1 2 4 8]
"""

import argparse
import json
import time
from pathlib import Path
from typing import Callable, Dict, List

import numpy
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry

from spacy_punct.layers.windows import transformer_names
from spacy_punct.pipelines import find_punctuator
from spacy_punct.scorer import score_punctuation
from spacy_punct.training.corpus import PunctCorpus

SpanGetter = Callable[[List[Doc]], List[List[Span]]]


def shifted_spans(window: int, offset: int) -> SpanGetter:
    """Non-overlapping windows of `window` tokens, the first one `offset` tokens long."""

    def get_spans(docs: List[Doc]) -> List[List[Span]]:
        spans = []
        for doc in docs:
            starts = sorted({0, *range(offset, len(doc), window)}) if len(doc) else []
            ends = starts[1:] + [len(doc)]
            spans.append([doc[start:end] for start, end in zip(starts, ends)])
        return spans

    return get_spans


def measure(nlp: Language, examples: List[Example], span_getters: List[SpanGetter]) -> Dict[str, float]:
    """Score and time the pipeline when every doc is read once per span getter
    and the class probabilities are averaged over the readings."""
    (trf_name,) = transformer_names(nlp)
    transformer = nlp.get_pipe(trf_name)
    _, punctuator = find_punctuator(nlp)
    start = time.perf_counter()
    docs = [eg.predicted.copy() for eg in examples]
    totals = [numpy.zeros((len(doc), len(punctuator.labels)), dtype="f") for doc in docs]
    for get_spans in span_getters:
        transformer.model.attrs["get_spans"] = get_spans
        docs = list(transformer.pipe(docs))
        for total, probs in zip(totals, punctuator.predict(docs)):
            total += punctuator.model.ops.to_numpy(probs)
    punctuator.set_annotations(docs, [total / len(span_getters) for total in totals])
    seconds = time.perf_counter() - start
    scores = score_punctuation(
        [Example(doc, eg.reference) for doc, eg in zip(docs, examples)], labels=punctuator.labels
    )
    return _result(scores, examples, seconds)


def pooled(nlp: Language, examples: List[Example], window: int, k: int) -> Dict[str, float]:
    get_spans = registry.span_getters.get("spacy-transformers.strided_spans.v1")(window=window, stride=window // k)
    return measure(nlp, examples, [get_spans])


def averaged(nlp: Language, examples: List[Example], window: int, k: int) -> Dict[str, float]:
    return measure(nlp, examples, [shifted_spans(window, shift * window // k) for shift in range(k)])


def _result(scores: Dict, examples: List[Example], seconds: float) -> Dict[str, float]:
    n_words = sum(len(eg.reference) for eg in examples)
    return {
        "punct_f": scores["punct_f"],
        "punct_macro_f": scores["punct_macro_f"],
        "words_per_second": n_words / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("test", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--window", type=int, default=128)
    parser.add_argument("--k", type=int, nargs="+", default=[1, 2, 4, 8])
    args = parser.parse_args()
    nlp = spacy.load(args.model)
    examples = list(PunctCorpus(args.test, max_length=0)(nlp))
    pooled(nlp, examples[:1], args.window, 1)  # warm-up, so that the first timing is not slower
    rows = []
    for k in args.k:
        for method, measure in (("pooled", pooled), ("averaged", averaged)):
            row = {"predictions_per_token": k, "method": method, **measure(nlp, examples, args.window, k)}
            print(json.dumps(row))
            rows.append(row)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"window": args.window, "rows": rows}, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
