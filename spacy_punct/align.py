"""The alignment of predicted and reference words: the gold mark and case
class of every word of an example, the marks of the input and the reference,
each word's text and whether it opens a sentence. The component's loss, the
scorer, the tuner and the truecaser read examples through this module; the
words and marks themselves come from `words.py`.

A mark is identified by the position, in the lower-cased words joined without
whitespace or punctuation, of the word it follows: two docs with the same words
align whatever their tokenisation, spacing and punctuation.
"""

import bisect
from typing import Dict, Iterable, List, Optional, Set, Tuple, cast

import numpy
from spacy.attrs import DEP, HEAD
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import filter_spans
from thinc.types import Ints2d

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
    """The doc's words as written (on a lower-cased gold form, as its
    `token._.gold_case` says), keyed by the end offset of each in the
    lower-cased joined words (see `word_offsets`)."""
    table = token_table(doc)
    _, ends = word_offsets(doc, table)
    written = token_values(doc, "gold_case", table.idx)  # a lower-cased gold form's case
    return {end: form or text for text, form, end in zip(table.texts, written, ends) if end is not None}


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


def on_reference_tokens(predicted: Doc, reference: Doc) -> Optional[Doc]:
    """The predicted doc's annotations (entities, span groups, tags, parts of
    speech, morphology, lemmas, parses, sentences, categories) on a doc of
    the reference's tokens, matched word by word, marks and case aside; None
    where the two have other words. spaCy aligns an example's docs by their
    characters, which the punctuator's marks change (E949): on this doc the
    scorers of the components after it align as they would on the input."""
    pred_text, pred_ends = word_offsets(predicted)
    ref_text, ref_ends = word_offsets(reference)
    if pred_text != ref_text:
        return None
    word_ends = [end for end in pred_ends if end is not None]
    word_tokens = [i for i, end in enumerate(pred_ends) if end is not None]
    # each reference word token: the predicted token holding its last character
    source: List[Optional[int]] = [
        None if end is None else word_tokens[bisect.bisect_left(word_ends, end)] for end in ref_ends
    ]
    first: Dict[int, int] = {}  # predicted token -> its first reference token
    for j, i in enumerate(source):
        if i is not None:
            first.setdefault(i, j)
    doc = Doc(reference.vocab, words=[t.text for t in reference], spaces=[bool(t.whitespace_) for t in reference])
    for j, i in enumerate(source):
        if i is None:
            continue
        token, origin = doc[j], predicted[i]
        token.tag_, token.pos_, token.lemma_ = origin.tag_, origin.pos_, origin.lemma_
        token.set_morph(str(origin.morph))  # type: ignore[attr-defined]  # in spaCy, not in its stubs
    if predicted.has_annotation("DEP"):
        _copy_parse(doc, predicted, source, first)
    elif predicted.has_annotation("SENT_START"):
        for j, i in enumerate(source):
            doc[j].is_sent_start = j == 0 or (i is not None and first[i] == j and predicted[i].is_sent_start)
    doc.ents = _mapped(doc, predicted.ents, source)
    for key, group in predicted.spans.items():
        doc.spans[key] = _mapped(doc, group, source, overlapping=True)
    doc.cats = dict(predicted.cats)
    return doc


def _mapped(doc: Doc, spans: Iterable[Span], source: List[Optional[int]], overlapping: bool = False) -> List[Span]:
    """The spans on `doc`'s tokens: from the first to the last token whose
    source lies in each."""
    mapped = []
    for span in spans:
        inside = [j for j, i in enumerate(source) if i is not None and span.start <= i < span.end]
        if inside:
            mapped.append(Span(doc, inside[0], inside[-1] + 1, label=span.label_, kb_id=span.kb_id_))
    return mapped if overlapping else filter_spans(mapped)


def _copy_parse(doc: Doc, predicted: Doc, source: List[Optional[int]], first: Dict[int, int]) -> None:
    """The predicted heads and labels on `doc`: a reference token with no
    source (a mark the prediction lacks) attaches to the token before it."""
    heads, deps = [], []
    for j, i in enumerate(source):
        if i is None or first[i] != j:  # a mark of the reference, or a later part of a predicted token
            heads.append(max(j - 1, 0))
            deps.append("punct" if i is None else "dep")
            continue
        head = predicted[i].head.i
        heads.append(first.get(head, j))
        deps.append(predicted[i].dep_)
    try:
        rows = [[head - j, doc.vocab.strings.add(dep)] for j, (head, dep) in enumerate(zip(heads, deps))]
        doc.from_array([HEAD, DEP], cast(Ints2d, numpy.array(rows, dtype="int64").astype("uint64")))
    except ValueError:  # heads that do not form trees: no parse to score
        pass
