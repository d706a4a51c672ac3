"""Every table of scores the project prints or writes, rendered in one place
from `spacy-punct evaluate`'s score dicts: one evaluation per class (the
command's output), a pipeline's test sets (model cards), runs side by side
(projects/benchmarks/RESULTS.md) and the bundled pipelines (the README)."""

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

Scores = Mapping[str, Any]


def percent(value: Optional[float]) -> str:
    """A share as a percentage with one decimal, or nothing."""
    return "" if value is None else f"{100 * value:.1f}"


def class_f1(scores: Scores, label: str) -> str:
    """A class's F1, or a dash where the test set has none of its marks."""
    per = scores["punct_per_type"].get(label)
    if per is None:
        return ""
    return percent(per["f"]) if per.get("support", 1) else "–"


def markdown_table(head: Sequence[str], rows: Sequence[Sequence[str]], text_columns: int = 1) -> str:
    """A markdown table whose first `text_columns` columns are text and the
    rest figures (right-aligned)."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * text_columns + "---:|" * (len(head) - text_columns)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def is_own_marks(scores: Scores) -> bool:
    """Whether the punctuation scores are the test set's own (its marks given
    to the pipeline), not the punctuator's."""
    return bool(scores.get("gold_marks") or scores.get("input_marks"))


def score_table(scores: Scores) -> str:
    """One evaluation as markdown: per class and overall, and the truecaser's
    where there is one."""
    parts = []
    if scores.get("gold_marks"):
        parts.append("The test set's marks where the punctuator's decisions go: its punctuation scores are its own.\n")
    if scores.get("input_marks"):
        parts.append(
            "The input has the test set's marks, and the punctuator adds none: its punctuation scores are the input's.\n"
        )
    per_type = scores["punct_per_type"]
    rows = [
        [label, percent(s["p"]), percent(s["r"]), percent(s["f"]), str(s["support"])] for label, s in per_type.items()
    ]
    support = sum(s["support"] for s in per_type.values())
    rows.append(
        [
            "**overall (micro)**",
            percent(scores["punct_p"]),
            percent(scores["punct_r"]),
            percent(scores["punct_f"]),
            str(support),
        ]
    )
    parts.append(markdown_table(["label", "P", "R", "F1", "support"], rows))
    parts.append(
        f"\nmacro F1 {percent(scores['punct_macro_f'])} · SER {percent(scores['punct_ser'])} · "
        f"sentence boundaries P/R/F1 {percent(scores['sents_p'])}/{percent(scores['sents_r'])}/"
        f"{percent(scores['sents_f'])} · {scores['words']} words, {scores['words_per_second']:.0f} words/s"
    )
    if scores.get("case_f") is not None:
        case_rows = [
            [label, percent(s["p"]), percent(s["r"]), percent(s["f"])] for label, s in scores["case_per_type"].items()
        ]
        case_rows.append(
            ["**not lower-case**", percent(scores["case_p"]), percent(scores["case_r"]), percent(scores["case_f"])]
        )
        parts.append("\n" + markdown_table(["case", "P", "R", "F1"], case_rows))
        parts.append(
            f"\nnot lower-case F1: sentence-initial {percent(scores['case_initial_f'])} · "
            f"other words (names, acronyms) {percent(scores['case_inner_f'])}"
        )
    return "\n".join(parts)


def scores_by_test_set(test_sets: Sequence[Tuple[str, Scores]], cased: bool) -> str:
    """A pipeline's scores on its test sets (about, scores), one row each:
    micro F1, each class's F1, case F1 where the language is cased, words/s."""
    head = ["test set", "micro F1", "COMMA", "PERIOD", "QUESTION"] + (["not lower-case F1"] if cased else [])
    rows = []
    for about, s in test_sets:
        row = [about, percent(s["punct_f"])] + [class_f1(s, label) for label in ("COMMA", "PERIOD", "QUESTION")]
        if cased:
            row.append(percent(s.get("case_f")))
        rows.append(row + [f"{s['words_per_second']:,.0f}"])
    return markdown_table(head + ["words/s"], rows)


@dataclass
class RunScores:
    """One evaluation of a run: the run, the test set (and variant), its
    scores and the run's target on it."""

    run: str
    test_set: str
    scores: Scores
    target: Optional[float] = None


def runs_table(evaluations: Sequence[RunScores]) -> str:
    """Runs side by side: micro F1 against the target, macro F1, words/s."""
    head = ["run", "test set", "micro F1", "target", "macro F1", "QUESTION", "words/s"]
    rows = [
        [
            f"`{e.run}`",
            e.test_set,
            percent(e.scores["punct_f"]),
            "" if e.target is None else f"{e.target:g}",
            percent(e.scores["punct_macro_f"]),
            class_f1(e.scores, "QUESTION"),
            f"{e.scores['words_per_second']:,.0f}",
        ]
        for e in evaluations
        if not is_own_marks(e.scores)
    ]
    return markdown_table(head, rows, text_columns=2)


@dataclass
class BundledRow:
    """What the README's table says of one bundled pipeline."""

    name: str
    use: str
    test_set: str  # the headline test set's name
    test_set_label: str
    performance: Dict[str, Dict[str, float]]  # meta.json's: test set -> score name -> value
    size_mb: float
    speeds: Dict[int, Optional[float]]  # threads -> words/s


def pipelines_table(rows: Sequence[BundledRow]) -> str:
    """The bundled pipelines, each on its language's headline test set, with
    their sizes and speeds."""
    threads = sorted({n for row in rows for n in row.speeds})
    head = ["pipeline", "pick it for", "test set", "F1", "QUESTION F1", "+10% ASR noise", "size"]
    head += [f"words/s, {n} thread{'s' if n > 1 else ''}" for n in threads]
    cells: List[List[str]] = []
    for row in rows:
        scores = row.performance.get(row.test_set, {})
        noisy = row.performance.get(f"{row.test_set}.asr-noise-0.1", {})
        line = [
            f"`{row.name}`",
            row.use,
            row.test_set_label,
            percent(scores.get("punct_f")),
            percent(scores.get("question_f")),
            percent(noisy.get("punct_f")),
            f"{row.size_mb:.0f} MB",
        ]
        speeds = [row.speeds.get(n) for n in threads]
        cells.append(line + ["" if speed is None else f"{speed:,.0f}" for speed in speeds])
    return markdown_table(head, cells, text_columns=3)
