"""The `truecaser` pipeline component: the case of every word (LOWER, TITLE,
UPPER, MIXED), learned from cased reference words, written to
`token._.truecase`; the punctuator's rewrite (or a `punct_rewriter`) writes it
into the text. It sits before the punctuator and may listen to the same
tok2vec or transformer."""

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

import numpy
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Model
from thinc.types import Floats2d

from ..align import cased_word_texts, gold_case_classes, sentence_initial_words
from ..casing import (
    CASE_LABELS,
    apply_case,
    case_label,
    is_caseless,
    is_uncasable,
    titles_before_names,
    written_in_capitals,
)
from ..extensions import register_extensions, set_token_values
from ..languages import language_rules
from ..word_records import read_docbins
from ..words import token_table
from .word_classifier import (
    check_encoder_ran,
    default_model,
    initialize_on_sample,
    mean_over_words,
    weighted_cross_entropy,
)

register_extensions()

DEFAULT_MODEL = default_model(hidden_width=64)


@Language.factory(
    "truecaser",
    assigns=["token._.truecase"],
    default_config={
        "model": DEFAULT_MODEL,
        "min_form_count": 2,
        "learn_sentence_initial": True,
        "scorer": {"@scorers": "spacy_punct.case_scorer.v1"},
    },
    default_score_weights={"case_f": 1.0, "case_inner_f": 0.0, "case_initial_f": 0.0},
)
def make_truecaser(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    min_form_count: int,
    learn_sentence_initial: bool,
    scorer: Optional[Callable],
) -> "Truecaser":
    """Predict the case of every word.

    min_form_count: a word's written form (`DH`, `McDonald`) is kept from the
        training data when seen at least this many times; a word predicted
        not lower-case is written in its kept form, else in the shape of the
        predicted class (see `written_forms`).
    learn_sentence_initial: learn the case of sentence-initial words too. With
        false they count for nothing in the loss: the truecaser learns names
        and acronyms, and sentence-initial capitals come only from the
        punctuator's sentence ends (never `long, But we`).
    """
    return Truecaser(
        nlp.vocab,
        model,
        name,
        min_form_count=min_form_count,
        learn_sentence_initial=learn_sentence_initial,
        scorer=scorer,
    )


class Truecaser(TrainablePipe):
    """Predict LOWER, TITLE, UPPER or MIXED for every word."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "truecaser",
        *,
        min_form_count: int = 2,
        learn_sentence_initial: bool = True,
        scorer: Optional[Callable] = None,
    ) -> None:
        self.vocab = vocab
        self.model = model
        self.name = name
        self.cfg: Dict[str, Any] = {"labels": list(CASE_LABELS), "forms": {}}
        self.min_form_count = min_form_count
        self.learn_sentence_initial = learn_sentence_initial
        self.scorer = scorer

    @property
    def labels(self) -> Tuple[str, ...]:
        return tuple(self.cfg["labels"])

    @property
    def forms(self) -> Dict[str, str]:
        """Lower-case word -> its written form with capitals in the training data
        (see `written_forms`)."""
        return self.cfg["forms"]

    @property
    def label_data(self) -> Dict[str, Any]:
        return {"labels": list(self.labels), "forms": dict(self.forms)}

    def add_label(self, label: str) -> int:
        raise NotImplementedError(f"The truecaser's classes are fixed: {CASE_LABELS}.")

    def predict(self, docs: Iterable[Doc]) -> List[Floats2d]:
        docs = list(docs)
        if not any(len(doc) for doc in docs):
            return [self.model.ops.alloc2f(len(doc), len(self.labels)) for doc in docs]
        check_encoder_ran(self.model, docs, self.name)
        return self.model.predict(docs)

    def set_annotations(self, docs: Iterable[Doc], scores: List[Floats2d]) -> None:
        """Write each word's cased form to `token._.truecase` (None for
        punctuation, whitespace and tokens whose case never changes)."""
        labels, forms = self.labels, self.forms
        titles = language_rules(self.vocab.lang).titles
        cased: Dict[Tuple[str, int, bool], Optional[str]] = {}  # words recur: each form is worked out once
        for doc, probs in zip(docs, scores):
            table = token_table(doc)
            # in a text written in capitals, words with digits are cased too (`19TH`)
            recase = written_in_capitals(table.texts)
            guesses = self.model.ops.to_numpy(probs).argmax(axis=1).tolist() if len(doc) else []
            values: List[Optional[str]] = []
            for text, is_space, is_punct, guess in zip(table.texts, table.is_space, table.punct, guesses):
                if is_space or is_punct:
                    values.append(None)
                    continue
                value = cased.get((text, guess, recase), "")
                if value == "":
                    caseless = is_uncasable(text) if recase else is_caseless(text, forms)
                    value = None if caseless else apply_case(text.lower(), labels[guess], forms)
                    cased[text, guess, recase] = value
                values.append(value)
            titles_before_names(table.texts, values, titles)
            set_token_values(doc, "truecase", table.idx, values)

    def get_loss(self, examples: Iterable[Example], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        """Cross-entropy against the reference words' case classes (words of
        uncased references count for nothing)."""
        validate_examples(examples, "Truecaser.get_loss")
        losses, d_scores, n_words = [], [], 0
        for example, probs in zip(examples, scores):
            gold = numpy.asarray(
                gold_case_classes(example, self.labels, sentence_initial=self.learn_sentence_initial), dtype="i"
            )
            known = gold >= 0
            truth = numpy.zeros(probs.shape, dtype="f")
            truth[numpy.flatnonzero(known), gold[known]] = 1.0
            loss, d_probs = weighted_cross_entropy(self.model.ops, probs, truth, known)
            losses.append(loss)
            d_scores.append(d_probs)
            n_words += int(known.sum())
        return mean_over_words(losses, d_scores, n_words)

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        forms_corpus: Optional[Union[str, Path]] = None,
    ) -> None:
        """Keep the written forms of the training data and initialize the model.

        forms_corpus: a .spacy file or folder of cased text to keep the written
            forms from, in `[initialize.components.truecaser]` (the recipes
            name `${paths.train}`): spaCy initializes from the first 100
            examples only when the training corpus is streamed
            (`max_epochs = -1`), too few for a vocabulary. Without it the
            forms come from `get_examples`.
        """
        validate_get_examples(get_examples, "Truecaser.initialize")
        if forms_corpus is None:
            references: Iterable[Doc] = (eg.reference for eg in get_examples())
        else:
            references = read_docbins(forms_corpus, self.vocab)
        self.cfg["forms"] = written_forms(references, self.min_form_count)
        initialize_on_sample(
            self.model, get_examples, lambda eg: gold_case_classes(eg, self.labels), len(self.labels), self.name
        )

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        validate_examples(examples, "Truecaser.score")
        if self.scorer is None:  # `scorer = null`, as spaCy's own pipes allow
            return {}
        return self.scorer(examples, **kwargs)


def written_forms(references: Iterable[Doc], min_count: int) -> Dict[str, str]:
    """Lower-case word -> its most frequent form that is not lower-case, over
    the words of cased references that do not start a sentence (where every
    word is capitalised); kept when seen at least `min_count` times. A word
    the model predicts not lower-case is written in this form: the model
    decides whether a word has capitals, the training data which (`DH`,
    `McDonald`, `iPhone`)."""
    counts: Dict[str, Counter] = defaultdict(Counter)
    for doc in references:
        initial = sentence_initial_words(doc)
        for end, text in cased_word_texts(doc).items():
            if end not in initial and case_label(text) != "LOWER" and not is_uncasable(text.lower()):
                counts[text.lower()][text] += 1
    kept = {}
    for word, forms in sorted(counts.items()):
        form, count = forms.most_common(1)[0]
        if count >= min_count:
            kept[word] = form
    return kept
