"""Punctuation on a stream: micro F1 against lookahead and entropy threshold,
and the latency per word, for one pipeline on a test set streamed word by word.

    python projects/benchmarks/streaming.py MODEL TEST.spacy OUTPUT.json [--words 0] [--left-context 50]

Fixed lookahead l: word i is decided from the window of words [i - left
context, i + l], exactly what `Streamer` with `FixedLookahead(l)` reads when it
commits word i; those windows are run in batches (the streamer's own marks are
checked equal on the first `--check` words). Entropy decoding depends on when
earlier words were committed, so it runs the `Streamer` itself. Latency: the
time of each `Streamer.push`, on the thread count given.
"""

import argparse
import json
import time
from pathlib import Path
from typing import Dict, List

import numpy
from spacy.training import Example

from spacy_punct.decode import DecisionSettings, decode
from spacy_punct.inference.streaming import EntropyLookahead, FixedLookahead, Streamer
from spacy_punct.pipelines import find_punctuator, load_pipeline, predict_probs
from spacy_punct.runtime.threads import set_threads
from spacy_punct.scorer import score_punctuation
from spacy_punct.training.corpus import PunctCorpus
from spacy_punct.word_records import example_records, gold_doc, make_example


def test_examples(nlp, test: str, limit: int) -> List[Example]:
    """The test set's examples, cut after the first `limit` words (0: all)."""
    examples, total = [], 0
    for eg in PunctCorpus(test, max_length=0)(nlp):
        n = len(eg.predicted.text.split())
        if limit and total + n > limit:
            eg, n = cut_example(nlp, eg, limit - total), limit - total
        examples.append(eg)
        total += n
        if limit and total >= limit:
            break
    return examples


def last_tokens(example: Example) -> List[int]:
    """The last token of each whitespace-separated word of the example."""
    doc = example.predicted
    return [t.i for t in doc if t.whitespace_ or t.i == len(doc) - 1]


def cut_example(nlp, example: Example, n_words: int) -> Example:
    """The example's first `n_words` whitespace-separated words."""
    ends = last_tokens(example)
    n_tokens = ends[n_words - 1] + 1 if n_words <= len(ends) else len(example.predicted)
    return make_example(nlp.vocab, example_records(example)[:n_tokens])


def score_marks(nlp, examples: List[Example], marks: List[List[str]]) -> Dict[str, float]:
    """Micro F1 (and per class) of one mark per whitespace word."""
    scored = []
    for eg, doc_marks in zip(examples, marks):
        records = example_records(eg)
        guessed = [""] * len(records)
        for end, mark in zip(last_tokens(eg), doc_marks):
            guessed[end] = mark
        records = [r.__class__(r.text, r.seen, r.space, m, r.extra) for r, m in zip(records, guessed)]
        scored.append(Example(gold_doc(nlp.vocab, records), eg.reference))
    scores = score_punctuation(scored, find_punctuator(nlp)[1].labels)
    return {"punct_f": scores["punct_f"], "punct_per_type": scores["punct_per_type"]}


def fixed_lookahead_marks(nlp, words: List[str], lookahead: int, left_context: int, batch_size: int = 256) -> List[str]:
    """The mark the streamer commits after each word with FixedLookahead(l)."""
    pipe = find_punctuator(nlp)[1]
    docs, targets = [], []
    for i in range(len(words)):
        start, end = max(0, i - left_context), min(len(words), i + lookahead + 1)
        docs.append(nlp.make_doc(" ".join(words[start:end])))
        targets.append(i - start)
    marks = []
    for (doc, probs), target in zip(predict_probs(nlp, iter(docs), batch_size=batch_size), targets):
        decisions = decode(
            doc, probs, pipe.label_set, DecisionSettings(pipe.settings.thresholds, pipe.settings.margins)
        )
        first = [t.i for t in doc if t.i == 0 or doc[t.i - 1].whitespace_] + [len(doc)]
        marks.append(next((m for m in reversed(decisions.marks[first[target] : first[target + 1]]) if m), ""))
    return marks


def offline_marks(nlp, examples: List[Example]) -> List[List[str]]:
    """The pipeline's marks on whole documents, one per whitespace word."""
    pipe = find_punctuator(nlp)[1]
    marks = []
    for doc, probs in predict_probs(nlp, (eg.predicted.copy() for eg in examples)):
        decisions = decode(
            doc, probs, pipe.label_set, DecisionSettings(pipe.settings.thresholds, pipe.settings.margins)
        )
        first = [t.i for t in doc if t.i == 0 or doc[t.i - 1].whitespace_] + [len(doc)]
        marks.append([next((m for m in reversed(decisions.marks[a:b]) if m), "") for a, b in zip(first, first[1:])])
    return marks


def stream(nlp, words: List[str], policy, left_context: int):
    """Run the streamer: the committed words and the seconds of each push."""
    streamer = Streamer(nlp, policy, left_context=left_context)
    committed, seconds = [], []
    for word in words:
        start = time.perf_counter()
        committed += streamer.push(word)
        seconds.append(time.perf_counter() - start)
    committed += streamer.flush()
    return committed, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("test")
    parser.add_argument("output")
    parser.add_argument("--words", type=int, default=0, help="only the first N words of the test set (0: all)")
    parser.add_argument("--stream-words", type=int, default=0, help="words for the streamer runs (0: as --words)")
    parser.add_argument("--left-context", type=int, default=50)
    parser.add_argument("--lookaheads", default="0,1,2,4,8")
    parser.add_argument("--entropies", default="0.05,0.1,0.2,0.4")
    parser.add_argument("--max-lookahead", type=int, default=8)
    parser.add_argument("--check", type=int, default=300)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    set_threads(args.threads)
    nlp = load_pipeline(args.model)
    examples = test_examples(nlp, args.test, args.words)
    words = [eg.predicted.text.split() for eg in examples]
    result: Dict = {
        "model": args.model,
        "words": sum(map(len, words)),
        "left_context": args.left_context,
        "threads": args.threads,
    }
    result["offline"] = score_marks(nlp, examples, offline_marks(nlp, examples))
    print(f"offline: F1 {100 * result['offline']['punct_f']:.1f} on {result['words']} words", flush=True)

    check = words[0][: args.check]
    streamed, _ = stream(nlp, check, FixedLookahead(2), args.left_context)
    assert [c.mark for c in streamed] == fixed_lookahead_marks(nlp, check, 2, args.left_context), "replay != streamer"
    result["replay_checked_words"] = len(check)

    result["fixed"] = []
    for lookahead in [int(x) for x in args.lookaheads.split(",")]:
        start = time.perf_counter()
        marks = [fixed_lookahead_marks(nlp, w, lookahead, args.left_context) for w in words]
        row = {"lookahead": lookahead, **score_marks(nlp, examples, marks), "seconds": time.perf_counter() - start}
        result["fixed"].append(row)
        print(f"lookahead {lookahead}: F1 {100 * row['punct_f']:.1f}", flush=True)

    subset = test_examples(nlp, args.test, args.stream_words or args.words)
    subset_words = [eg.predicted.text.split() for eg in subset]
    result["stream_words"] = sum(map(len, subset_words))
    result["offline_stream_words"] = score_marks(nlp, subset, offline_marks(nlp, subset))
    policies = [("fixed", 4, FixedLookahead(4))] + [
        ("entropy", h, EntropyLookahead(h, args.max_lookahead, 1))
        for h in [float(x) for x in args.entropies.split(",")]
    ]
    result["streamed"] = []
    for kind, value, policy in policies:
        marks, seconds, lookaheads = [], [], []
        for w in subset_words:
            committed, took = stream(nlp, w, policy, args.left_context)
            marks.append([c.mark for c in committed])
            seconds += took
            lookaheads += [c.lookahead for c in committed[: len(committed) - args.max_lookahead]]
        ms = numpy.asarray(seconds) * 1000
        row = {
            "policy": kind,
            "value": value,
            **score_marks(nlp, subset, marks),
            "mean_lookahead": float(numpy.mean(lookaheads)),
            "latency_ms_p50": float(numpy.percentile(ms, 50)),
            "latency_ms_p95": float(numpy.percentile(ms, 95)),
            "latency_ms_max": float(ms.max()),
        }
        result["streamed"].append(row)
        print(
            f"{kind} {value}: F1 {100 * row['punct_f']:.1f}, mean lookahead {row['mean_lookahead']:.2f}, "
            f"p50 {row['latency_ms_p50']:.1f} ms, p95 {row['latency_ms_p95']:.1f} ms",
            flush=True,
        )
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    with open(args.output, "w", encoding="utf8") as f:
        json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
