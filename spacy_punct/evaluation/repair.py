"""The repair mode scored: a test set's documents damaged as recognisers
damage them (`repair.damaged_text`: runs of one to six sentences, about half
the words, lose their marks and case), punctuated in repair mode, and
compared word by word with the written text:

- `stripped_f`: micro F1 of the marks on the stripped runs' words, beside
  `plain_stripped_f`, the same words' F1 when the whole text is stripped and
  punctuated as usual, and `keep_stripped_f`, with `--keep-existing`;
- `intact_marks_kept`, `intact_case_kept`: the share of the intact runs'
  words whose mark (or its absence) and case come out as written;
- `documents_altered`: documents whose words came out other than they went in.
"""

import random
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from ..inference.texts import punctuate
from ..labels import LABEL_MARKS, PRIORITY, LabelSet, written_label
from ..pipelines.loading import find_punctuator
from ..repair import DamagedText, damaged_text
from ..word_records import WordRecord, word_records

_WORD = re.compile(r"\w+")


def score_repair(
    nlp: Language,
    docs: Sequence[Doc],
    *,
    seed: int = 0,
    within: float = 0.0,
    batch_size: int = 16,
    progress: Optional[Callable[[int], None]] = None,
) -> Dict[str, Any]:
    """The repair scores of `nlp` on punctuated, cased `docs` (see the module;
    `within`: the share of the runs' edges that fall within a sentence)."""
    _, pipe = find_punctuator(nlp)
    label_set: LabelSet = pipe.label_set
    settings = pipe.settings
    rng = random.Random(seed)
    records = [word_records(doc) for doc in docs]
    damaged = [damaged_text(words, rng, within=within) for words in records]
    bare = [damaged_text(words, rng, strip_all=1.0) for words in records]
    modes = {
        "repair": (damaged, settings.replace(repair=True, keep_existing=False, close_last_sentence=True)),
        "keep": (damaged, settings.replace(keep_existing=True, repair=False, close_last_sentence=True)),
        "plain": (bare, settings.replace(keep_existing=False, repair=False, close_last_sentence=True)),
    }
    found: Dict[str, List[List[Tuple[str, str]]]] = {}
    outputs: Dict[str, List[Doc]] = {}
    for mode, (texts, mode_settings) in modes.items():
        outputs[mode] = list(
            punctuate(nlp, [text.text for text in texts], batch_size=batch_size, settings=mode_settings)
        )
        found[mode] = [_written(doc, text) for doc, text in zip(outputs[mode], texts)]
        if progress is not None:
            progress(sum(len(words) for words in records))
    stripped = [text.stripped for text in damaged]
    result: Dict[str, Any] = {
        "documents": len(docs),
        "words": sum(len(words) for words in records),
        "stripped_words": sum(sum(flags) for flags in stripped),
        "seed": seed,
        "within": within,
    }
    for mode, key in (("repair", "stripped_f"), ("keep", "keep_stripped_f"), ("plain", "plain_stripped_f")):
        result[key] = _f1(records, found[mode], stripped, label_set)
    result.update(_intact(damaged, found["repair"]))
    keep = _intact(damaged, found["keep"])
    result["keep_intact_marks_kept"], result["keep_intact_case_kept"] = (
        keep["intact_marks_kept"],
        keep["intact_case_kept"],
    )
    result["documents_altered"] = sum(
        _WORD.findall(doc.text.lower()) != _WORD.findall(text.text.lower())
        for doc, text in zip(outputs["repair"], damaged)
    )
    return result


def _written(doc: Doc, text: DamagedText) -> List[Tuple[str, str]]:
    """Per word of the damaged text, the output's text of it and what the
    output writes between it and the next word (its marks, whitespace)."""
    # input offset -> output offset at every character of the output tokens from the input, so that words
    # the tokenizer joins (`wanna`, `and/or`) are found: the rewrite changes their case, not their length
    starts: Dict[int, int] = {}
    ends: Dict[int, int] = {}
    for token in doc:
        source = token._.source_idx
        if source is not None and not token.is_space:
            for offset in range(len(token.text)):
                starts.setdefault(source + offset, token.idx + offset)
                ends[source + offset + 1] = token.idx + offset + 1
    spans = [(starts.get(start), ends.get(end)) for start, end in zip(text.starts, text.ends)]
    written = []
    output = doc.text  # once: spaCy joins every token for each read of it
    following = len(output)  # where the next word found in the output starts, read from the end
    for start, end in reversed(spans):
        written.append(("", "") if start is None or end is None else (output[start:end], output[end:following]))
        if start is not None:
            following = start
    return written[::-1]


def _input_written(text: DamagedText) -> List[Tuple[str, str]]:
    """The same for the damaged text itself."""
    following = text.starts[1:] + [len(text.text)]
    return [(text.text[s:e], text.text[e:f]) for s, e, f in zip(text.starts, text.ends, following)]


def _mark_class(between: str, label_set: LabelSet) -> int:
    """The class of the strongest mark written between two words."""
    labels = [written_label(piece) for piece in between.split()]
    found = [label for label in labels if label is not None]
    if not found:
        return 0
    best = min(found, key=PRIORITY.index)
    return label_set.class_of(LABEL_MARKS[best])


def _f1(
    records: Sequence[Sequence[WordRecord]],
    found: Sequence[Sequence[Tuple[str, str]]],
    stripped: Sequence[Sequence[bool]],
    label_set: LabelSet,
) -> Dict[str, float]:
    tp = fp = fn = 0
    for words, written, flags in zip(records, found, stripped):
        for record, (_, between), flag in zip(words, written, flags):
            if not flag:
                continue
            gold = label_set.class_of(record.mark)
            guess = _mark_class(between, label_set)
            tp += int(gold != 0 and guess == gold)
            fp += int(guess != 0 and guess != gold)
            fn += int(gold != 0 and guess != gold)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"p": p, "r": r, "f": 2 * p * r / (p + r) if p + r else 0.0}


def _intact(damaged: Sequence[DamagedText], found: Sequence[Sequence[Tuple[str, str]]]) -> Dict[str, float]:
    n = marks = case = 0
    for text, written in zip(damaged, found):
        for (word, between), (word_in, between_in), flag in zip(written, _input_written(text), text.stripped):
            if flag:
                continue
            n += 1
            marks += int("".join(between.split()) == "".join(between_in.split()))
            case += int(word == word_in)
    return {"intact_words": n, "intact_marks_kept": marks / n if n else 1.0, "intact_case_kept": case / n if n else 1.0}


def repair_table(result: Dict[str, Any]) -> str:
    """The repair scores as a Markdown table, with the targets' terms."""
    rows = [
        ("marks on the stripped runs: F1, repair mode", 100 * result["stripped_f"]["f"]),
        ("the same words, the whole text stripped (plain mode)", 100 * result["plain_stripped_f"]["f"]),
        ("the same words, --keep-existing", 100 * result["keep_stripped_f"]["f"]),
        ("intact runs' words keeping their mark (or none), %", 100 * result["intact_marks_kept"]),
        ("intact runs' words keeping their case, %", 100 * result["intact_case_kept"]),
        (
            "intact runs' words keeping their mark (or none) with --keep-existing, %",
            100 * result["keep_intact_marks_kept"],
        ),
        ("intact runs' words keeping their case with --keep-existing, %", 100 * result["keep_intact_case_kept"]),
    ]
    lines = ["| repair | |", "|---|---:|"]
    lines += [f"| {name} | {value:.2f} |" for name, value in rows]
    lines.append(f"| documents whose words changed | {result['documents_altered']} of {result['documents']} |")
    gain = 100 * (result["stripped_f"]["f"] - result["plain_stripped_f"]["f"])
    lines.append(
        f"\n{result['words']:,} words, {result['stripped_words']:,} of them stripped (seed {result['seed']}"
        + (f", run edges within sentences {result['within']:g}" if result.get("within") else "")
        + "); "
        f"repair against plain on the stripped runs: {gain:+.1f}"
    )
    return "\n".join(lines)
