"""Augmenters for punctuation training examples. Each works on the word
records of a text (`RecordsAugmenter`): the training reader hands it the
words it read, and spaCy's own loops call it on examples."""

import random
import re
from dataclasses import replace
from typing import Callable, Iterator, List, Sequence, Tuple, cast

from spacy.language import Language
from spacy.training import Example
from spacy.util import registry

from ..casing import capitalise
from ..extensions import set_token_extension_values
from ..labels import ends_sentence, stronger
from ..repair import damaged_doc, damaged_text
from ..word_records import WordRecord, example_records, make_example
from ..words import sentence_spans, word_offsets

Augment = Callable[[Language, Example], Iterator[Example]]
AugmentRecords = Callable[[List[WordRecord]], Iterator[List[WordRecord]]]


class RecordsAugmenter:
    """An augmenter of a training text's word records. spaCy calls it as any
    augmenter, on an example, whose records it reads back; the training reader
    (`PunctCorpus`) hands it the records it has read, so that each example is
    built once. `augment_records` yields the records of each example to make
    (the given list itself: the example unchanged)."""

    def __init__(self, augment_records: AugmentRecords) -> None:
        self.augment_records = augment_records

    def __call__(self, nlp: Language, example: Example) -> Iterator[Example]:
        if len(example.predicted) != len(example.reference):  # not word for word: nothing to augment
            yield example
            return
        records = example_records(example)
        for augmented in self.augment_records(records):
            yield example if augmented is records else make_example(nlp.vocab, augmented)


@registry.augmenters("spacy_punct.asr_noise.v1")
def create_asr_noise_augmenter(
    level: float = 0.1,
    substitute: float = 0.4,
    delete: float = 0.4,
    unknown: str = "[UNK]",
    unknown_share: float = 1.0,
) -> Augment:
    """Simulate speech-recognition errors (Alam et al. 2020).

    Each word is altered with probability `level`: replaced with probability
    `substitute`, deleted with probability `delete` (its mark moves to the
    word before), else a word is inserted before it. A replacing or inserted
    word is `unknown` with probability `unknown_share`, else another word of
    the same text (a recogniser's errors are real words). Both sides of the
    example change alike, so the gold marks stay aligned; a replaced word
    keeps its timings, an inserted one has none.
    """
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"level must be in [0, 1], not {level}.")
    if substitute < 0 or delete < 0 or substitute + delete > 1.0:
        raise ValueError("substitute and delete must be >= 0 and sum to at most 1.")
    if not 0.0 <= unknown_share <= 1.0:
        raise ValueError(f"unknown_share must be in [0, 1], not {unknown_share}.")

    def augment(records: List[WordRecord]) -> Iterator[List[WordRecord]]:
        if level == 0.0:
            yield records
            return
        words = [(r.text, r.seen) for r in records if r.seen.strip()]

        def wrong_word() -> Tuple[str, str]:
            # no draw at 1.0: the placeholder alone makes the same noise as before this option
            if words and unknown_share < 1.0 and (unknown_share == 0.0 or random.random() >= unknown_share):
                return random.choice(words)
            return unknown, unknown

        noisy: List[WordRecord] = []
        for record in records:
            draw = random.random() if random.random() < level else None
            if draw is None:
                noisy.append(record)
            elif draw < substitute:
                text, seen = wrong_word()
                noisy.append(replace(record, text=text, seen=seen))
            elif draw < substitute + delete:
                if noisy:
                    last = noisy[-1]
                    noisy[-1] = replace(
                        last,
                        mark=stronger(cast(str, last.mark), cast(str, record.mark)),
                        space=last.space or record.space,
                    )
            else:
                text, seen = wrong_word()
                noisy.append(WordRecord(text, seen, True, ""))
                noisy.append(record)
        yield noisy

    return RecordsAugmenter(augment)


@registry.augmenters("spacy_punct.sentence_shuffle.v1")
def create_sentence_shuffle_augmenter(share: float = 0.5) -> Augment:
    """Put the whole sentences of an example in a new order, so that each
    epoch shows sentence ends before other sentence starts: more boundaries to
    learn from than the training text holds.

    With probability `share` per example. The words before the first sentence
    end (the rest of a sentence the chunk cut) stay first, the words after the
    last (a sentence the chunk cut) stay last; every sentence keeps its words,
    marks and case.
    """

    def shuffle(records: List[WordRecord]) -> List[WordRecord]:
        sentences = [records[start:end] for start, end in sentence_spans([record.mark for record in records])]
        tail = sentences.pop() if sentences and not _closed(sentences[-1]) else []
        if len(sentences) < 3:  # the head and at least two whole sentences
            return records
        head, whole = sentences[0], sentences[1:]
        random.shuffle(whole)
        # a sentence moved to the end of the example ends without a space after it
        ordered = [record for sentence in [head, *whole, tail] for record in sentence]
        for i, record in enumerate(ordered[:-1]):
            if not record.space and record.mark and ends_sentence(record.mark):
                ordered[i] = replace(record, space=True)
        return ordered

    return per_example(share, shuffle)


def per_example(share: float, change: Callable[[List[WordRecord]], List[WordRecord]]) -> RecordsAugmenter:
    """An augmenter that changes a `share` of the examples with `change`
    (one draw per example) and leaves the others as they are."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must be in [0, 1], not {share}.")

    def augment(records: List[WordRecord]) -> Iterator[List[WordRecord]]:
        yield records if share == 0.0 or random.random() >= share else change(records)

    return RecordsAugmenter(augment)


@registry.augmenters("spacy_punct.case_noise.v1")
def create_case_noise_augmenter(
    upper: float = 0.05,
    title: float = 0.02,
    natural: float = 0.1,
) -> Augment:
    """Write the words the model sees in another case, so that a model trained
    on lower-cased words reads input in any case (a tok2vec's prefix, suffix
    and shape features see case; an uncased transformer's tokenizer does not).

    Per example: all capitals with probability `upper` (recognisers that write
    in capitals), every word capitalised with probability `title`, as written
    in the reference with probability `natural` (cased text without
    punctuation; an uncased corpus stays lower-case). The reference, its
    marks and its case do not change.
    """
    rates = (upper, title, natural)
    if min(rates) < 0 or sum(rates) > 1.0:
        raise ValueError("upper, title and natural must be >= 0 and sum to at most 1.")
    writers = ((upper, _upper), (title, capitalise))

    def augment(records: List[WordRecord]) -> Iterator[List[WordRecord]]:
        draw = random.random()
        if draw >= sum(rates):
            yield records
            return
        for rate, write in writers:
            if draw < rate:
                records = [replace(record, seen=write(record.seen)) for record in records]
                break
            draw -= rate
        else:
            records = [replace(record, seen=record.text) for record in records]
        yield records

    return RecordsAugmenter(augment)


def _upper(text: str) -> str:
    """All capitals, where that keeps the word's letters (`ß` stays)."""
    upper = text.upper()
    return upper if len(upper) == len(text) and upper.lower() == text.lower() else text


# a tag after a comma that closes a question: `, isn't it?`, `, do you?`,
# `, won't we?` (`is n't` split as IWSLT writes it too); `, right?` is
# common enough (a thousand in the TED talks) to need no help
_AUX = "is|are|was|were|am|ai|do|does|did|have|has|had|can|could|will|wo|would|shall|sha|should|may|might|must|need"
_PRONOUN = "i|you|he|she|it|we|they|there|that|one"
TAG_QUESTION = re.compile(rf"^(?:{_AUX})(?: ?n't| not)? (?:{_PRONOUN})$")


@registry.augmenters("spacy_punct.tag_questions.v1")
def create_tag_question_augmenter(repeat: int = 3, with_next: float = 0.5) -> Augment:
    """Show the sentences of an example that end in a tag question (`It's
    cold in here, isn't it?`) `repeat` more times as texts of their own,
    after the example: the tag is rare in running text (about one in 20,000
    words of TED talks), and a model that rarely sees one reads `isn't it`
    as a new question. With probability `with_next` a repeat carries the
    sentence after it too, so that what follows the tag starts a sentence.
    Every repeat keeps its words, marks and case as written.
    """
    return repeated_sentences(_ends_in_tag, repeat, with_next)


@registry.augmenters("spacy_punct.questions.v1")
def create_question_augmenter(repeat: int = 2, with_next: float = 0.5) -> Augment:
    """Show the questions of an example (sentences that end in `?`) `repeat`
    more times as texts of their own, after the example, as `tag_questions`
    does for tags: where the training text is news, law and fiction, one
    sentence in 50 or fewer is a question, and a model learns to write a
    period after `miben segíthetek`. With probability `with_next` a repeat
    carries the sentence after it too."""
    return repeated_sentences(lambda sentence: len(sentence) > 1 and sentence[-1].mark == "?", repeat, with_next)


def repeated_sentences(
    chosen: Callable[[Sequence[WordRecord]], bool], repeat: int, with_next: float
) -> RecordsAugmenter:
    """An augmenter that yields each example, then each of its whole
    sentences that `chosen` picks `repeat` times more, each repeat with the
    sentence after it with probability `with_next`; words, marks and case as
    written."""
    if repeat < 0:
        raise ValueError(f"repeat must be >= 0, not {repeat}.")
    if not 0.0 <= with_next <= 1.0:
        raise ValueError(f"with_next must be in [0, 1], not {with_next}.")

    def augment(records: List[WordRecord]) -> Iterator[List[WordRecord]]:
        yield records
        if repeat == 0:
            return
        sentences = _sentences(records)
        for i, sentence in enumerate(sentences):
            if not chosen(sentence):
                continue
            for _ in range(repeat):
                words = list(sentence)
                if i + 1 < len(sentences) and random.random() < with_next:
                    words += sentences[i + 1]
                yield words

    return RecordsAugmenter(augment)


def _sentences(records: Sequence[WordRecord]) -> List[List[WordRecord]]:
    """The whole sentences among the records: the words after the last
    sentence end are left out, and so are those before the first unless they
    start with a capital (else the chunk may have cut that sentence)."""
    sentences = [list(records[start:end]) for start, end in sentence_spans([record.mark for record in records])]
    if sentences and not _closed(sentences[-1]):
        sentences.pop()
    if sentences and not sentences[0][0].text[:1].isupper():
        sentences.pop(0)
    return sentences


def _closed(sentence: Sequence[WordRecord]) -> bool:
    """Whether the words end with a mark that ends a sentence."""
    return bool(sentence[-1].mark and ends_sentence(sentence[-1].mark))


def _ends_in_tag(sentence: Sequence[WordRecord]) -> bool:
    """Whether the sentence is a question whose last one to three words, after
    a comma, are an auxiliary and a pronoun."""
    if len(sentence) < 3 or sentence[-1].mark != "?":
        return False
    for size in (1, 2, 3):
        if len(sentence) <= size or sentence[-size - 1].mark != ",":
            continue
        tag = "".join(r.text + (" " if r.space else "") for r in sentence[-size:])
        if TAG_QUESTION.match(tag.strip().lower().replace("\u2019", "'")):
            return True
    return False


@registry.augmenters("spacy_punct.repair_input.v1")
def create_repair_input_augmenter(share: float = 0.3, max_sentences: int = 6, lower_all: float = 0.25) -> Augment:
    """Teach the model to read the marks and case a text already has, for
    the repair mode: with probability `share` an example's input becomes the
    text as a recogniser damages it (`repair.damaged_text`: runs of 1 to
    `max_sentences` sentences lose their marks and case, the others keep
    them as written; with `lower_all` the whole text is lower-cased and the
    runs lose their marks only), the kept marks tokens of the input. The gold marks are those of every word.

    Put it last in a chain: it gives an input that is no longer word for
    word. The words' attributes (a teacher's probabilities, timings) go with
    them onto the new input."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must be in [0, 1], not {share}.")
    if max_sentences < 1:
        raise ValueError(f"max_sentences must be at least 1, not {max_sentences}.")

    def augment(nlp: Language, example: Example) -> Iterator[Example]:
        if share == 0.0 or random.random() >= share or len(example.predicted) != len(example.reference):
            yield example
            return
        records = example_records(example)
        damaged = damaged_text(records, random.Random(random.getrandbits(32)), max_sentences, lower_all=lower_all)
        predicted = damaged_doc(nlp.vocab, records, damaged)
        words, ends = word_offsets(predicted)
        reference_words, reference_ends = word_offsets(example.reference)
        if words != reference_words:  # a mark that does not read as punctuation: the example as it was
            yield example
            return
        extras = {end: record.extra for end, record in zip(reference_ends, records) if end is not None and record.extra}
        for token, end in zip(predicted, ends):
            if end in extras:
                set_token_extension_values(predicted, token.idx, extras[end])
        yield Example(predicted, example.reference)

    return augment


@registry.augmenters("spacy_punct.chained_augmenters.v1")
def create_chained_augmenters(*augmenters: Augment) -> Augment:
    """Apply augmenters in turn: each example every first one yields goes
    through the second, and so on. A chain of records augmenters is one."""
    if all(isinstance(augmenter, RecordsAugmenter) for augmenter in augmenters):
        steps = [cast(RecordsAugmenter, augmenter).augment_records for augmenter in augmenters]

        def augment_records(records: List[WordRecord]) -> Iterator[List[WordRecord]]:
            texts: Iterator[List[WordRecord]] = iter([records])
            for step in steps:
                texts = _each_text(step, texts)
            yield from texts

        return RecordsAugmenter(augment_records)

    def augment(nlp: Language, example: Example) -> Iterator[Example]:
        examples: Iterator[Example] = iter([example])
        for augmenter in augmenters:
            examples = _each(augmenter, nlp, examples)
        yield from examples

    return augment


def _each(augmenter: Augment, nlp: Language, examples: Iterator[Example]) -> Iterator[Example]:
    for example in examples:
        yield from augmenter(nlp, example)


def _each_text(step: AugmentRecords, texts: Iterator[List[WordRecord]]) -> Iterator[List[WordRecord]]:
    for records in texts:
        yield from step(records)
