"""Punctuation on a stream of words: each word is committed once enough right
context has been seen, under a decoding policy, and never changes afterwards.

A `Streamer` holds a bounded window: up to `left_context` committed words
(context for the model and the sentence state) and the words still pending.
At each new word the model reads the window, and the policy says how many of
the pending words may be committed (Minixhofer 2021: a fixed lookahead, or
entropy-threshold decoding). The marks, sentence starts and case of committed
words come from the same decoding and rewrite as offline punctuation.
"""

from dataclasses import dataclass
from typing import Any, List, Optional, Protocol, Sequence

import numpy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import registry

from ..decode import Decisions, DecisionSettings, sentence_starts
from ..formats.timed import TimedWord, split_word, timed_word, words_doc
from ..labels import ends_sentence
from ..languages import language_rules
from ..merge import lowered
from ..pipelines.loading import find_punctuator, predict_probs
from ..rewrite import plan_rewrite


class LookaheadPolicy(Protocol):
    """When a pending word may be committed: `FixedLookahead`, `EntropyLookahead`, or any object with these."""

    min_lookahead: int  # right context before any word is committed
    max_lookahead: int  # right context after which a word is committed whatever its prediction

    def ready(self, probs: numpy.ndarray, right_context: int) -> bool: ...


class FixedLookahead:
    """Commit a word once `lookahead` words follow it."""

    def __init__(self, lookahead: int) -> None:
        if lookahead < 0:
            raise ValueError(f"lookahead must be >= 0, not {lookahead}.")
        self.max_lookahead = lookahead
        self.min_lookahead = lookahead

    def ready(self, probs: numpy.ndarray, right_context: int) -> bool:
        return right_context >= self.max_lookahead


class EntropyLookahead:
    """Minixhofer's Algorithm 1: commit a word as soon as the entropy of its
    class distribution (in nats) is at most `threshold`, else wait for more
    right context, up to `max_lookahead` words. `min_lookahead` 1 skips the
    decision without right context, which he found harmful."""

    def __init__(self, threshold: float, max_lookahead: int, min_lookahead: int = 1) -> None:
        if threshold < 0:
            raise ValueError(f"threshold must be >= 0, not {threshold}.")
        if not 0 <= min_lookahead <= max_lookahead:
            raise ValueError(f"Need 0 <= min_lookahead <= max_lookahead, not {min_lookahead}, {max_lookahead}.")
        self.threshold = threshold
        self.max_lookahead = max_lookahead
        self.min_lookahead = min_lookahead

    def ready(self, probs: numpy.ndarray, right_context: int) -> bool:
        if right_context >= self.max_lookahead:
            return True
        return right_context >= self.min_lookahead and entropy(probs) <= self.threshold


def entropy(probs: numpy.ndarray) -> float:
    """The entropy of a class distribution, in nats."""
    p = numpy.asarray(probs, dtype="float64")
    p = p[p > 0]
    return float(-(p * numpy.log(p)).sum())


@registry.misc("spacy_punct.fixed_lookahead.v1")
def create_fixed_lookahead(lookahead: int = 4) -> FixedLookahead:
    return FixedLookahead(lookahead)


@registry.misc("spacy_punct.entropy_lookahead.v1")
def create_entropy_lookahead(
    threshold: float = 0.1, max_lookahead: int = 8, min_lookahead: int = 1
) -> EntropyLookahead:
    return EntropyLookahead(threshold, max_lookahead, min_lookahead)


@dataclass(frozen=True)
class CommittedWord:
    """A word of the stream, decided."""

    index: int  # position in the stream, from 0
    word: str  # the input word
    text: str  # the output: the word cased, with its mark ("So," "trip?")
    mark: str  # the mark after the word ("" for none), as the labels write it: "." for Bangla's "।" too
    sentence_start: bool
    sentence_end: bool  # the word ends its sentence
    lookahead: int  # the words after it that the model had read
    start: Optional[float] = None
    end: Optional[float] = None
    # a mark alone that closes the sentence of the word committed before it (at the end
    # of a stream whose words were all committed at once: lookahead 0): written onto that word
    closes: bool = False


@dataclass
class _Word:
    index: int
    word: TimedWord
    n_tokens: int  # the word's tokens, as the tokenizer splits it
    marks: Optional[List[str]] = None  # per token, once committed
    sentence_start: bool = False


class Streamer:
    """Punctuate words as they arrive.

        streamer = Streamer(nlp, FixedLookahead(4))
        for word in words:
            for committed in streamer.push(word):
                print(committed.text, end=" ")
        for committed in streamer.flush():
            print(committed.text, end=" ")

    The model reads at most `left_context` committed words and the pending
    words (at most the policy's `max_lookahead` and the words pushed at
    once), so memory and time per word stay bounded over any stream. A word that fails its checks raises a
    `RecordError` and leaves the stream as it was."""

    def __init__(
        self,
        nlp: Language,
        policy: Optional[LookaheadPolicy] = None,
        *,
        left_context: int = 50,
        settings: Optional[DecisionSettings] = None,
    ) -> None:
        if left_context < 1:
            raise ValueError(f"left_context must be >= 1 (the sentence state lives there), not {left_context}.")
        self.nlp = nlp
        self.name, self.punctuator = find_punctuator(nlp)
        self.settings = self.punctuator.settings if settings is None else settings
        self.policy = policy if policy is not None else FixedLookahead(4)
        self.left_context = left_context
        self._left: List[_Word] = []
        self._pending: List[_Word] = []
        self._count = 0
        self._last: Optional[TimedWord] = None

    @property
    def pending(self) -> int:
        """The number of words read and not yet committed."""
        return len(self._pending)

    def push(self, word, start: Optional[float] = None, end: Optional[float] = None) -> List[CommittedWord]:
        """Read one word (a string, a `TimedWord` or a {"word", "start", "end"}
        mapping); return the words committed by it, in order."""
        if isinstance(word, str) and (start is not None or end is not None):
            word = {"word": word, "start": start, "end": end}
        return self.push_many([word])

    def push_many(self, words: Sequence[Any]) -> List[CommittedWord]:
        """Read several words at once (each as `push` takes it), with one run
        of the model: a backlog (a file, a recogniser's line) is read at the
        speed of offline punctuation, each word decided with the right
        context that came with it. If a word fails its checks, a
        `RecordError` names it and none of them is read."""
        checked: List[TimedWord] = []
        last = self._last
        for word in words:
            if isinstance(word, TimedWord):
                word = {"word": word.text, "start": word.start, "end": word.end}
            last = timed_word(word, f"word {self._count + len(checked) + 1}", last)
            checked.append(last)
        if not checked:
            return []
        self._last = last
        for part in (part for word in checked for part in split_word(word)):
            self._pending.append(_Word(self._count, part, len(self.nlp.make_doc(part.text))))
            self._count += 1
        if len(self._pending) - 1 < self.policy.min_lookahead:
            return []  # no word has the right context the policy asks for
        return self._commit(final=False)

    def flush(self, close: bool = True) -> List[CommittedWord]:
        """Commit every pending word (at the end of the stream, or at a long
        pause); the stream may go on afterwards. `close`: the last word ends a
        sentence where the pipeline closes texts (`close_last_sentence`);
        False where the words stop short (a stream cut by an error)."""
        if not self._pending:
            return self._closing() if close else []
        return self._commit(final=True, close=close)

    def _closing(self) -> List[CommittedWord]:
        """The closing mark of a stream whose last word was committed before
        the stream ended (lookahead 0), where the pipeline closes texts and
        that word ended no sentence."""
        if not (self._left and self.settings.close_last_sentence):
            return []
        last = self._left[-1]
        if last.marks and ends_sentence(next((m for m in reversed(last.marks) if m), "")):
            return []
        doc = self._doc(self._left)
        _, probs = next(predict_probs(self.nlp, [doc], batch_size=1))
        mark = self.punctuator.decide(doc, probs, self.settings, open_end=False).marks[-1]
        if not ends_sentence(mark):
            return []
        if last.marks:
            last.marks[-1] = mark
        text = language_rules(self.nlp.lang or "").written_marks.get(mark, mark)  # `।` for Bangla's full stop
        return [
            CommittedWord(
                index=last.index,
                word="",
                text=text,
                mark=mark,
                sentence_start=False,
                sentence_end=True,
                lookahead=0,
                start=last.word.end,
                end=last.word.end,
                closes=True,
            )
        ]

    def _commit(self, final: bool, close: bool = True) -> List[CommittedWord]:
        window = self._left + self._pending
        doc = self._doc(window)
        _, probs = next(predict_probs(self.nlp, [doc], batch_size=1))
        pipe = self.punctuator
        decisions = pipe.decide(doc, probs, self.settings, open_end=not (final and close))
        first = [0]  # the first token of each word of the window
        for item in window:
            first.append(first[-1] + item.n_tokens)
        slots = set(decisions.slots.words)
        n_left, n_pending = len(self._left), len(self._pending)
        count = 0
        for j in range(n_pending):
            if not final:
                tokens = range(first[n_left + j], first[n_left + j + 1])
                slot = max((t for t in tokens if t in slots), default=None)
                row = probs[slot] if slot is not None else numpy.ones(1)
                if not self.policy.ready(row, n_pending - j - 1):
                    break
            count += 1
        if not count:
            return []
        marks = list(decisions.marks)
        for w, item in enumerate(self._left):
            marks[first[w] : first[w + 1]] = item.marks or []
        starts = sentence_starts(decisions.table, marks)
        if n_left:  # the window's first token starts a sentence only if it did in the stream
            starts[0] = self._left[0].sentence_start
        plan = plan_rewrite(doc, Decisions(marks, starts, decisions.slots, decisions.table))
        texts = _word_texts(plan.words, plan.spaces, plan.source_map, first)
        committed = []
        for j in range(count):
            w = n_left + j
            item = self._pending[j]
            item.marks = marks[first[w] : first[w + 1]]
            item.sentence_start = starts[first[w]]
            mark = next((m for m in reversed(item.marks) if m), "")
            committed.append(
                CommittedWord(
                    index=item.index,
                    word=item.word.text,
                    text=texts[w],
                    mark=mark,
                    sentence_start=any(starts[first[w] : first[w + 1]]),
                    sentence_end=ends_sentence(mark),
                    lookahead=n_pending - j - 1,
                    start=item.word.start,
                    end=item.word.end,
                )
            )
        self._left.extend(self._pending[:count])
        del self._pending[:count]
        del self._left[: max(0, len(self._left) - self.left_context)]
        return committed

    def _doc(self, window: Sequence[_Word]) -> Doc:
        # tokenised as offline input is: the tokenizer's exceptions set attributes (NORM "am" for "'m")
        words = [item.word for item in window]
        if self.settings.merge:  # read lower-cased, as `punctuate` reads it (`merge.lowered`)
            words = [TimedWord(lowered(word.text), word.start, word.end) for word in words]
        return words_doc(self.nlp, words)


def _word_texts(words: List[str], spaces: List[bool], source_map: List[int], first: List[int]) -> List[str]:
    """The rewritten text of each input word: its tokens and the marks
    inserted after them, without the space that follows."""
    owner = numpy.searchsorted(first, numpy.arange(first[-1]), side="right") - 1
    texts = [""] * (len(first) - 1)
    current = 0
    for text, space, source in zip(words, spaces, source_map):
        if source >= 0:
            current = int(owner[source])
        texts[current] += text + (" " if space else "")
    return [text.rstrip(" ") for text in texts]


def stream_punctuate(
    nlp: Language,
    words,
    policy: Optional[LookaheadPolicy] = None,
    *,
    left_context: int = 50,
    settings: Optional[DecisionSettings] = None,
):
    """Punctuate an iterable of words (see `Streamer.push`), yielding each
    committed word as soon as it is decided, and the rest at the end."""
    streamer = Streamer(nlp, policy, left_context=left_context, settings=settings)
    for word in words:
        yield from streamer.push(word)
    yield from streamer.flush()
