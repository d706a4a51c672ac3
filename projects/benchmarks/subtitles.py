"""Subtitles as subtitlers cut them (`spacy_punct.formats.subtitles`,
through `captions.CueBuilder`) against a greedy cutter (a cue ends at a
sentence end or before the word that would overflow two lines of 42
characters or 7 seconds; its lines filled in order), on punctuated, timed
words: a recogniser's output punctuated by a pipeline (JSONL records of
timed words, as `spacy-punct punctuate --format jsonl` writes them), or a
DocBin of written text timed at a speaker's pace (`--pace` words a second,
a pause after each sentence). Prints and writes (OUTPUT.json) for each
cutter the share of cues within the limits (lines of at most 42 characters,
at most two, read at no more than 17 characters a second, shown at least
0.833 s), of line breaks where a reader pauses (after a comma, before a
conjunction, preposition or subject pronoun), and of cues that end at a
sentence end.

    python projects/benchmarks/subtitles.py INPUT [OUTPUT.json] [--pace 2.5]
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List

from spacy_punct.formats.captions import CaptionWord, Cue, CueBuilder
from spacy_punct.formats.subtitles import SubtitleRules
from spacy_punct.languages import language_rules

RULES = SubtitleRules()


def timed_words(path: Path, pace: float) -> List[CaptionWord]:
    """The punctuated words of the input with their times."""
    if path.suffix == ".jsonl":
        words: List[CaptionWord] = []
        for line in path.read_text(encoding="utf8").splitlines():
            for sentence_tokens in _record_words(json.loads(line)):
                words.extend(sentence_tokens)
        return words
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    out: List[CaptionWord] = []
    clock = 0.0
    for doc in DocBin().from_disk(path).get_docs(nlp.vocab):
        for text in doc.text.split():
            ends = text.rstrip("\"')”’").endswith((".", "?", "!"))
            out.append(CaptionWord(text, clock, clock + 0.8 / pace, ends))
            clock += 1.0 / pace + (0.4 if ends else 0.0)  # a pause after a sentence
    return out


def _record_words(record: Dict[str, Any]) -> List[List[CaptionWord]]:
    """A punctuated record's written words, timed by their tokens."""
    words: List[CaptionWord] = []
    text, start, end = "", None, None
    for token in record["tokens"]:
        text += token["text"]
        if token.get("start_time") is not None:
            start = token["start_time"] if start is None else start
            end = token["end_time"]
        if token.get("whitespace", True) or token is record["tokens"][-1]:
            if start is not None:
                words.append(CaptionWord(text, start, end, text.endswith((".", "?", "!"))))
            text, start, end = "", None, None
    return [words]


def greedy(words: List[CaptionWord]) -> List[Cue]:
    """Cues cut at sentence ends and at overflow, lines filled in order."""
    cues: List[Cue] = []
    current: List[CaptionWord] = []

    def close() -> None:
        if current:
            breaks: List[int] = []
            length = 0
            for k, word in enumerate(current):
                if length and length + 1 + len(word.text) > RULES.line_chars and not breaks:
                    breaks.append(k)
                    length = 0
                length += len(word.text) + (1 if length else 0)
            lines = [current[a:b] for a, b in zip((0, *breaks), (*breaks, len(current)))]
            text = "\n".join(" ".join(w.text for w in line) for line in lines)
            cues.append(Cue(len(cues) + 1, current[0].start, current[-1].end, text, breaks=tuple(breaks)))
            current.clear()

    for word in words:
        chars = sum(len(w.text) + 1 for w in current) + len(word.text)
        if current and (chars > RULES.lines * RULES.line_chars or word.end - current[0].start > RULES.max_duration):
            close()
        current.append(word)
        if word.sentence_end:
            close()
    close()
    return cues


def professional(words: List[CaptionWord]) -> List[Cue]:
    builder = CueBuilder(RULES.lines * RULES.line_chars, RULES.max_duration, lang="en")
    cues = [cue for word in words for cue in builder.add(word)]
    return cues + builder.flush()


def measures(cues: List[Cue]) -> Dict[str, Any]:
    rules = language_rules("en")
    pause_before = rules.break_before
    within = breaks = at_pause = at_end = 0
    for cue in cues:
        lines = cue.text.split("\n")
        seconds = max(cue.end - cue.start, 1e-9)
        chars = len(cue.text.replace("\n", " "))
        if (
            len(lines) <= RULES.lines
            and all(len(line) <= RULES.line_chars for line in lines)
            and chars / seconds <= RULES.cps
            and seconds >= RULES.min_duration - 1e-6
        ):
            within += 1
        for first, second in zip(lines, lines[1:]):
            breaks += 1
            if first.endswith((",", ";", ":")) or second.split()[0].lower() in pause_before:
                at_pause += 1
        at_end += cue.text.endswith((".", "?", "!"))
    n = max(len(cues), 1)
    return {
        "cues": len(cues),
        "within_limits": round(100 * within / n, 1),
        "line_breaks": breaks,
        "breaks_where_a_reader_pauses": round(100 * at_pause / max(breaks, 1), 1),
        "cues_ending_a_sentence": round(100 * at_end / n, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", type=Path)
    parser.add_argument("output", nargs="?", type=Path)
    parser.add_argument("--pace", type=float, default=2.5, help="words a second, for written text")
    args = parser.parse_args()
    words = timed_words(args.input, args.pace)
    if not words:
        sys.exit(f"{args.input} holds no timed words.")
    result = {
        "input": args.input.name,
        "words": len(words),
        "greedy": measures(greedy(words)),
        "subtitler": measures(professional(words)),
    }
    print(json.dumps(result, indent=2))
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
