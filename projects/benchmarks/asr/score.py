"""Score punctuation and case on real speech recognition: each recogniser's
words aligned with the passage's reference words (jiwer's `process_words`,
compared lower-case without marks), equal and substituted words paired, and
the mark after each pair compared (micro F1 over COMMA, PERIOD and QUESTION;
`!` and `;` count as PERIOD, `:` as COMMA) and, on the cased sources, the
case of each equal pair (F1 over the words that are not lower-case, right
when written exactly as in the reference). Scored per recogniser: its own
punctuation where it writes any, each pipeline on its words lower-cased and
stripped (ours alone), and with `--merge` each pipeline reading the
recogniser's marks and case (`spacy-punct punctuate --merge`), the counts that weigh its marks
cross-fitted (from the other half of the passages, the marks of every
recogniser that writes any counted together). `--fit` writes the counts
from all passages (the file `--merge` ships with).

    python projects/benchmarks/asr/score.py SPEECH_DIR OUTPUT.json [--pipeline en_punct_trf ...] [--merge]
    python projects/benchmarks/asr/score.py SPEECH_DIR - --fit spacy_punct/heard_marks.json
"""

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import jiwer

from spacy_punct.casing import case_label
from spacy_punct.decode import DecisionSettings
from spacy_punct.formats.recognisers import make_format
from spacy_punct.labels import DEFAULT_LABELS, LABEL_MARKS, LabelSet, written_label
from spacy_punct.merge import HeardMarks, fit_heard_marks, write_heard_marks

LABELS = LabelSet(DEFAULT_LABELS)
CLASSES = DEFAULT_LABELS[1:]
_EDGE = re.compile(r"^([^\w]*)(.*?)([^\w]*)$", re.UNICODE)
_QUOTES = "\"'“”‘’()[]"


@dataclass
class Tally:
    """Counts of one system on one recogniser's words."""

    tp: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    fp: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    fn: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    case: List[int] = field(default_factory=lambda: [0, 0, 0])  # tp, fp, fn

    def scores(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for label in CLASSES:
            out[label] = _f1(self.tp[label], self.fp[label], self.fn[label])
        tp, fp, fn = (sum(counts.values()) for counts in (self.tp, self.fp, self.fn))
        out["micro_f"] = _f1(tp, fp, fn)
        out["case_f"] = _f1(*self.case) if sum(self.case) else None
        return out


def _f1(tp: int, fp: int, fn: int) -> float:
    return round(100 * 2 * tp / (2 * tp + fp + fn), 1) if tp + fp + fn else 0.0


def split_word(written: str) -> Tuple[str, str]:
    """A written word's bare form and the class of the marks after it."""
    match = _EDGE.match(written)
    assert match is not None
    bare, tail = match.group(2), match.group(3).strip(_QUOTES)
    label = written_label(tail) if tail else None
    return bare, LABELS.label_of(LABEL_MARKS[label]) if label else "EMPTY"


def aligned(
    reference: Sequence[Sequence[str]], written: Sequence[str]
) -> Iterator[Tuple[int, Optional[Tuple[str, str]], str]]:
    """Per reference word: its index, the system's (bare word, class) paired
    with it (None where the recogniser dropped it) and the pair's kind
    (equal, substitute, delete)."""
    hyp = [split_word(word) for word in written]
    hyp = [(bare, label) for bare, label in hyp if bare]
    if not hyp:
        yield from ((k, None, "delete") for k in range(len(reference)))
        return
    ref = " ".join(word.lower() for word, _ in reference)
    out = jiwer.process_words(ref, " ".join(bare.lower() for bare, _ in hyp))
    for chunk in out.alignments[0]:
        if chunk.type == "delete":
            yield from ((k, None, "delete") for k in range(chunk.ref_start_idx, chunk.ref_end_idx))
        elif chunk.type in ("equal", "substitute"):
            refs, hyps = range(chunk.ref_start_idx, chunk.ref_end_idx), range(chunk.hyp_start_idx, chunk.hyp_end_idx)
            yield from ((r, hyp[h], chunk.type) for r, h in zip(refs, hyps))


def tally(tallies: Tally, reference: Sequence[Sequence[str]], written: Sequence[str], cased: bool) -> None:
    """Add one passage: the reference's (word, mark) pairs and the system's written words."""
    for r, pair, kind in aligned(reference, written):
        gold = LABELS.label_of(reference[r][1])
        guess = "EMPTY" if pair is None else pair[1]
        if gold == guess and gold != "EMPTY":
            tallies.tp[gold] += 1
        elif gold != guess:
            if gold != "EMPTY":
                tallies.fn[gold] += 1
            if guess != "EMPTY":
                tallies.fp[guess] += 1
        if cased and kind == "equal" and pair is not None:
            right = reference[r][0] == pair[0]
            tallies.case[0] += case_label(reference[r][0]) != "LOWER" and right
            tallies.case[2] += case_label(reference[r][0]) != "LOWER" and not right
            tallies.case[1] += case_label(pair[0]) != "LOWER" and not right


def fit(passages: Sequence[Dict[str, Any]], heard_by: Dict[str, List[List[str]]], keep: Sequence[int]) -> HeardMarks:
    """The classes of every recogniser that writes marks (`heard_by`, its
    words per passage) against the reference's, over the paired words of the
    passages numbered `keep`: one table for all of them, as `--merge` ships
    one for every Whisper model."""
    pairs = [
        (pair[1], LABELS.label_of(passages[k]["words"][r][1]))
        for heard in heard_by.values()
        for k in keep
        for r, pair, _ in aligned(passages[k]["words"], heard[k])
        if pair is not None
    ]
    return fit_heard_marks("+".join(sorted(heard_by)), [h for h, _ in pairs], [g for _, g in pairs], DEFAULT_LABELS)


def recognised_words(path: Path) -> List[str]:
    """A recogniser's written words, read by the pipeline's own format readers."""
    text = path.read_text(encoding="utf8")
    name = "whisper" if path.suffix == ".json" else "pocketsphinx"
    return [word.text for word in make_format(name).read(text, path.name).words]


def word_error_rate(reference: Sequence[Sequence[str]], words: Sequence[str]) -> Tuple[int, int]:
    """Word errors and reference words (lower-case, without marks)."""
    ref = " ".join(word.lower() for word, _ in reference)
    hyp = " ".join(split_word(word)[0].lower() for word in words if split_word(word)[0])
    out = jiwer.process_words(ref, hyp)
    return out.substitutions + out.deletions + out.insertions, len(reference)


def stripped(words: Sequence[str]) -> str:
    """The words lower-cased, without marks: what a recogniser without punctuation writes."""
    return " ".join(bare.lower() for bare, _ in map(split_word, words) if bare)


def system_words(nlp: Any, texts: Sequence[str], settings: Optional[DecisionSettings] = None) -> List[List[str]]:
    """Each text punctuated by the pipeline, as written words."""
    from spacy_punct import punctuate

    return [doc.text.split() for doc in punctuate(nlp, texts, settings=settings)]


def merged_words(
    nlp: Any, passages: Sequence[Dict[str, Any]], heard: List[List[str]], marked: Dict[str, List[List[str]]]
) -> List[List[str]]:
    """`--merge` on each passage, cross-fitted: the counts that weigh the
    recogniser's marks come from the other half of the passages (odd and
    even numbers) as every recogniser that writes marks (`marked`) wrote
    them, never from the passage scored."""
    out: List[List[str]] = [[] for _ in passages]
    for half in (0, 1):
        mine = [k for k, passage in enumerate(passages) if int(passage["id"][-2:]) % 2 == half]
        others = [k for k in range(len(passages)) if k not in mine]
        settings = DecisionSettings(merge=True, heard_marks=fit(passages, marked, others))
        for k, words in zip(mine, system_words(nlp, [" ".join(heard[k]) for k in mine], settings)):
            out[k] = words
    return out


def read_passages(speech: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in (speech / "passages.jsonl").read_text(encoding="utf8").splitlines()]


def recognisers_words(speech: Path, passages: Sequence[Dict[str, Any]]) -> Dict[str, List[List[str]]]:
    """Each recogniser's words per passage."""
    names = sorted(path.name[: -len(".timing.json")] for path in speech.glob("*.timing.json"))
    return {
        name: [recognised_words(next((speech / name).glob(f"{passage['id']}.*"))) for passage in passages]
        for name in names
    }


def with_marks(heard_by: Dict[str, List[List[str]]]) -> Dict[str, List[List[str]]]:
    """The recognisers that write marks."""
    return {
        name: heard
        for name, heard in heard_by.items()
        if any(split_word(word)[1] != "EMPTY" for words in heard for word in words)
    }


def score(speech: Path, pipelines: Sequence[str], merge: bool) -> Dict[str, Any]:
    import spacy_punct

    passages = read_passages(speech)
    cased = [passage["source"] != "iwslt_dev" for passage in passages]  # IWSLT's references are lower-case
    results: Dict[str, Any] = {"passages": len(passages), "words": sum(len(p["words"]) for p in passages)}
    loaded = {name: spacy_punct.load_pipeline(name) for name in pipelines}
    heard_by = recognisers_words(speech, passages)
    marked = with_marks(heard_by)
    for recogniser, heard in heard_by.items():
        errors = [word_error_rate(p["words"], words) for p, words in zip(passages, heard)]
        systems: Dict[str, List[List[str]]] = {}
        if recogniser in marked:
            systems["recogniser"] = heard
        for name, nlp in loaded.items():
            systems[name] = system_words(nlp, [stripped(words) for words in heard])
            if merge and "recogniser" in systems:
                systems[f"{name} --merge"] = merged_words(nlp, passages, heard, marked)
        row: Dict[str, Any] = {"wer": round(100 * sum(e for e, _ in errors) / sum(n for _, n in errors), 1)}
        row["timing"] = json.loads((speech / f"{recogniser}.timing.json").read_text(encoding="utf8"))
        for system, outputs in systems.items():
            tallies = Tally()
            for passage, words, is_cased in zip(passages, outputs, cased):
                tally(tallies, passage["words"], words, is_cased)
            row[system] = tallies.scores()
            print(f"{recogniser:16} {system:24} {json.dumps(row[system])}", file=sys.stderr)
        results[recogniser] = row
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("speech", type=Path, help="the folder of passages.jsonl and each recogniser's output")
    parser.add_argument("output", type=Path)
    parser.add_argument("--pipeline", action="append", help="default: en_punct_trf and en_punct_sm")
    parser.add_argument("--merge", action="store_true", help="also each pipeline reading the recogniser's marks")
    parser.add_argument("--fit", type=Path, help="write the counts of the recognisers' marks on all passages here")
    args = parser.parse_args()
    if args.fit:
        passages = read_passages(args.speech)
        marked = with_marks(recognisers_words(args.speech, passages))
        write_heard_marks(fit(passages, marked, range(len(passages))), args.fit)
        print(f"{' and '.join(marked)}'s marks on {len(passages)} passages -> {args.fit}")
        return
    results = score(args.speech, args.pipeline or ["en_punct_trf", "en_punct_sm"], args.merge)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=1) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
