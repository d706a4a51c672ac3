"""The alignment of predicted and reference words: the gold mark and case
class of every word of an example, the marks of the input and the reference,
each word's text and whether it opens a sentence. The component's loss, the
scorer, the tuner and the truecaser read examples through this module; the
words and marks themselves come from `words.py`.

A mark is identified by the position, in the lower-cased words joined without
whitespace or punctuation, of the word it follows: two docs with the same words
align whatever their tokenisation, spacing and punctuation.
"""
from typing import Dict, Iterable, List, Set, Tuple

from spacy.tokens import Doc
from spacy.training import Example

from .casing import case_label, is_placeholder, is_symbol
from .extensions import token_values
from .labels import LabelSet
from .words import is_natural_table, is_natural_text, marks_after, sentence_spans, token_table, word_offsets


def input_mark_count(doc: Doc, label_set: LabelSet) -> int:
    """About how many marks of the label set the doc's input had: on a
    rewritten doc the words of its input text (`doc._.source_text`) that end
    in one, on any other doc its marks."""
    if doc._.source_text is not None:
        return sum(label_set.class_of(word[-1]) > 0 for word in doc._.source_text.split())
    return sum(label_set.class_of(text) > 0 for text in token_table(doc).texts)


def input_and_reference_marks(examples: Iterable[Example], label_set: LabelSet) -> Tuple[int, int]:
    """About how many marks of the label set the input of the examples with
    natural references had, and how many their references have: an input
    with half of them or more was the reference's own text (spaCy's
    `Corpus`, `spacy evaluate`), with nothing to restore."""
    natural = [eg for eg in examples if is_natural_text(eg.reference)]
    n_reference = sum(input_mark_count(eg.reference, label_set) for eg in natural)
    return sum(input_mark_count(eg.predicted, label_set) for eg in natural), n_reference


def doc_classes(doc: Doc, label_set: LabelSet) -> Tuple[str, Dict[int, int]]:
    """The doc's joined words and the class index of `token._.punct` after each
    word, keyed by the word's end offset (EMPTY left out; -1 where the mark is
    unknown: a reference word given as context only). A doc with
    punctuation and no `token._.punct` set is natural text: the marks
    written in it count."""
    table = token_table(doc)
    text, ends = word_offsets(doc, table)
    marks = token_values(doc, "punct", table.idx)
    if is_natural_table(table, marks):
        # natural punctuated text, such as Example(make_doc(bare), make_doc(punctuated)):
        # the marks written in it are the gold
        marks = marks_after(doc, table)
    classes: Dict[int, int] = {}
    for mark, end in zip(marks, ends):
        if end is not None:
            index = UNKNOWN if mark is None and doc.has_unknown_spaces else label_set.class_of(mark)
            if index:
                classes[end] = index
    return text, classes


# the class of a word whose gold mark is not known
UNKNOWN = -1


def gold_classes(example: Example, label_set: LabelSet) -> List[int]:
    """Per predicted token, the class index of the reference's `token._.punct`
    after the same word; -1 for whitespace and punctuation tokens and for
    words whose mark is unknown."""
    pred_text, pred_ends = word_offsets(example.predicted)
    gold_text, gold = doc_classes(example.reference, label_set)
    if pred_text != gold_text:
        raise ValueError(
            "The predicted and reference docs of an example have different "
            f"words: {pred_text[:60]!r} vs {gold_text[:60]!r}."
        )
    return [-1 if end is None else gold.get(end, 0) for end in pred_ends]


def word_texts(doc: Doc) -> Dict[int, str]:
    """The doc's words as written, keyed by the end offset of each in the
    lower-cased joined words (see `word_offsets`)."""
    table = token_table(doc)
    _, ends = word_offsets(doc, table)
    return {end: text for text, end in zip(table.texts, ends) if end is not None}


def sentence_initial_words(doc: Doc) -> Set[int]:
    """The end offsets of the words that start a sentence in a doc with marks
    (gold form or natural text): the first word, and each word after a mark
    that ends a sentence, symbols such as emoji passed over."""
    table = token_table(doc)
    _, ends = word_offsets(doc, table)
    marks = [mark or "" for mark in token_values(doc, "punct", table.idx)]
    if not any(marks):
        marks = marks_after(doc, table)
    words = [(text, end, mark) for text, end, mark in zip(table.texts, ends, marks) if end is not None]
    initial: Set[int] = set()
    for start, stop in sentence_spans([mark for _, _, mark in words]):
        # a symbol opening a sentence passes the start on to the next word
        first = next((end for text, end, _ in words[start:stop] if not is_symbol(text)), None)
        if first is not None:
            initial.add(first)
    return initial


def cased_word_texts(doc: Doc) -> Dict[int, str]:
    """`word_texts` without placeholders such as `[UNK]`; empty for a doc
    written without capitals among the rest: an uncased corpus has no case to
    learn or score, even with placeholders inserted by the noise augmenter."""
    words = {end: text for end, text in word_texts(doc).items() if not is_placeholder(text)}
    return words if any(text != text.lower() for text in words.values()) else {}


def gold_case_classes(example: Example, labels: Tuple[str, ...], sentence_initial: bool = True) -> List[int]:
    """Per predicted token, the index in `labels` of the case class of the
    reference word ending at the same place; -1 for whitespace, punctuation,
    placeholders, words the reference does not have, sentence-initial words
    unless `sentence_initial`, and every word of a reference written without
    capitals (see `cased_word_texts`)."""
    _, pred_ends = word_offsets(example.predicted)
    gold = cased_word_texts(example.reference)
    if not gold:
        return [-1] * len(pred_ends)
    if not sentence_initial:
        for end in sentence_initial_words(example.reference):
            gold.pop(end, None)
    index = {label: i for i, label in enumerate(labels)}
    return [-1 if end is None or end not in gold else index[case_label(gold[end])] for end in pred_ends]

