"""The `punctuator` pipeline component."""

from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union, cast

import numpy
import srsly
from spacy.attrs import SENT_START
from spacy.errors import Errors
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.util import minibatch
from spacy.vocab import Vocab
from thinc.api import Model, Optimizer
from thinc.types import Floats2d, Ints2d

from ..align import gold_classes, input_and_reference_marks, on_reference_tokens
from ..decode import Decisions, DecisionSettings, decode
from ..downstream import DownstreamCheck, check_downstream_listeners
from ..extensions import register_extensions, set_token_values
from ..labels import DEFAULT_LABELS, LabelSet, labels_for_marks, validate_labels
from ..layers.repair_head import build_repair_head
from ..merge import HeardMarks, load_heard_marks, merged_probs
from ..repair import case_missing, missing_stretches, n_features, repair_features, repaired_probs
from ..rewrite import build_rewritten, plan_rewrite
from ..runtime import threads  # noqa: F401  (forked workers start with one torch thread)
from ..words import mark_slots, token_table
from .word_classifier import (
    ScaledOptimizer,
    check_encoder_ran,
    default_model,
    initialize_on_sample,
    mean_over_words,
    mix_teacher_probs,
    weighted_cross_entropy,
)

register_extensions()

DEFAULT_MODEL = default_model(hidden_width=128)


@Language.factory(
    "punctuator",
    assigns=["token._.punct", "token.is_sent_start", "doc._.punctuated", "token._.source_i", "token._.source_idx"],
    # with rewrite = true (the default) it returns a new doc with the marks as tokens
    retokenizes=True,
    default_config={
        "model": DEFAULT_MODEL,
        "labels": list(DEFAULT_LABELS),
        "empty_weight": 1.0,
        "distill_weight": 0.0,
        "thresholds": {},
        "margins": {},
        "keep_existing": False,
        "add_marks": True,
        "close_last_sentence": False,
        "repair": False,
        "end_threshold": 0.0,
        "lone_word_sentences": True,
        "rewrite": True,
        "store_probs": False,
        "learn_rate_scale": 1.0,
        "scorer": {"@scorers": "spacy_punct.punct_scorer.v1"},
    },
    default_score_weights={
        "punct_f": 1.0,
        "punct_p": 0.0,
        "punct_r": 0.0,
        "punct_macro_f": 0.0,
        "sents_f": 0.0,
    },
)
def make_punctuator(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    labels: Optional[List[str]],
    empty_weight: float,
    distill_weight: float,
    thresholds: Dict[str, float],
    margins: Dict[str, float],
    keep_existing: bool,
    add_marks: bool,
    close_last_sentence: bool,
    repair: bool,
    end_threshold: float,
    lone_word_sentences: bool,
    rewrite: bool,
    store_probs: bool,
    learn_rate_scale: float,
    scorer: Optional[Callable],
) -> "Punctuator":
    """Restore punctuation, sentence case and sentence boundaries.

    labels: the classes (EMPTY first); null to infer them from the training data.
    empty_weight: loss weight of tokens whose gold class is EMPTY (< 1 counters
        the class imbalance).
    distill_weight: share of a teacher's class probabilities in the training
        target of the words that carry them (`token._.teacher_probs`, written
        by `spacy-punct distill`): the target is (1 - w) * gold + w * teacher.
    thresholds, margins, keep_existing, add_marks, close_last_sentence,
        repair, end_threshold, lone_word_sentences: the decision settings
        (`decode.DecisionSettings`; `repair`: half-punctuated text, its marks
        and case filled where missing; `end_threshold`: the sentence end
        decided first; `lone_word_sentences = false`: no sentence of one word
        but an interjection between two ends it wrote); a caller may pass
        others per call (`nlp.pipe(texts, component_cfg={"punctuator":
        {"settings": ...}})`). `add_marks = false` suits text that is
        punctuated already, whose case alone is restored (by a truecaser
        before the punctuator); `close_last_sentence` leaves docs marked
        `doc._.open_end` open (training chunks, stream windows, pieces of
        long texts).
    rewrite: return a new, punctuated Doc (else annotate the input in place,
        and let a `punct_rewriter` at the end of the pipeline rewrite it).
    store_probs: keep the class probabilities in `doc._.punct_probs`.
    learn_rate_scale: multiplies the optimizer's learning rate for this
        component's own weights (its head, and an inline tok2vec). A shared
        transformer or tok2vec is updated by its own component at the
        optimizer's rate, so 3.33 with a transformer at 3e-5 trains the head
        at 1e-4.
    """
    return Punctuator(
        nlp.vocab,
        model,
        name,
        labels=labels,
        empty_weight=empty_weight,
        distill_weight=distill_weight,
        settings=DecisionSettings(
            dict(thresholds),
            dict(margins),
            keep_existing,
            add_marks,
            close_last_sentence,
            repair,
            end_threshold,
            lone_word_sentences,
        ),
        rewrite=rewrite,
        store_probs=store_probs,
        learn_rate_scale=learn_rate_scale,
        scorer=scorer,
        nlp=nlp,
    )


class Punctuator(TrainablePipe):
    """Predict the punctuation after every token and rewrite the text."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "punctuator",
        *,
        labels: Optional[Sequence[str]] = DEFAULT_LABELS,
        empty_weight: float = 1.0,
        distill_weight: float = 0.0,
        settings: DecisionSettings = DecisionSettings(),
        rewrite: bool = True,
        store_probs: bool = False,
        learn_rate_scale: float = 1.0,
        scorer: Optional[Callable] = None,
        nlp: Optional[Language] = None,
    ) -> None:
        self.vocab = vocab
        self.model = model
        self.name = name
        self.cfg: Dict[str, Any] = {"labels": validate_labels(labels) if labels else []}
        if not 0.0 <= empty_weight:
            raise ValueError(f"empty_weight must be >= 0, not {empty_weight}.")
        self.empty_weight = empty_weight
        if not 0.0 <= distill_weight <= 1.0:
            raise ValueError(f"distill_weight must be between 0 and 1, not {distill_weight}.")
        self.distill_weight = distill_weight
        self.settings = settings
        self.rewrite = rewrite
        self.store_probs = store_probs
        self._input_checked = False  # the first training batch is checked for bare input
        if not learn_rate_scale >= 0.0:
            raise ValueError(f"learn_rate_scale must be >= 0, not {learn_rate_scale}.")
        self.learn_rate_scale = learn_rate_scale
        self.scorer = scorer
        self._check_downstream = DownstreamCheck(nlp, name)
        self.repair_model: Optional[Model] = None  # see `set_repair_model`

    @property
    def labels(self) -> Tuple[str, ...]:
        return tuple(self.cfg["labels"])

    @property
    def label_set(self) -> LabelSet:
        """The classes as an object that maps marks to classes and back."""
        labels = self.labels
        label_set: Optional[LabelSet] = getattr(self, "_label_set", None)
        if label_set is None or label_set.labels != labels:
            label_set = self._label_set = LabelSet(labels)
        return label_set

    @property
    def rewrites_docs(self) -> bool:
        """Whether `__call__` and `pipe` return new, rewritten docs."""
        return self.rewrite

    @property
    def label_data(self) -> List[str]:
        return list(self.labels)

    def add_label(self, label: str) -> int:
        if not isinstance(label, str):
            raise ValueError(Errors.E187)
        if label in self.labels:
            return 0
        self._allow_extra_label()
        self.cfg["labels"] = validate_labels(list(self.labels) + [label])
        self.vocab.strings.add(label)
        return 1

    @property
    def is_initialized(self) -> bool:
        return bool(self.model.get_ref("output_layer").has_param("W"))

    # -- prediction ---------------------------------------------------------

    def __call__(self, doc: Doc, settings: Optional[DecisionSettings] = None) -> Doc:
        """Punctuate a doc, under `settings` if given (else the component's)."""
        error_handler = self.get_error_handler()
        try:
            decisions = self._annotate([doc], self.predict([doc]), settings)
            return self._output(doc, decisions[0])
        except Exception as e:
            error_handler(self.name, self, [doc], e)
            return doc  # an error handler that lets the error pass: the doc as it came

    def pipe(
        self, stream: Iterable[Doc], *, batch_size: int = 128, settings: Optional[DecisionSettings] = None
    ) -> Iterator[Doc]:
        """Punctuate a stream of docs, under `settings` if given (else the
        component's); yields the rewritten docs when `rewrite`."""
        error_handler = self.get_error_handler()
        for docs in minibatch(stream, size=batch_size):
            try:
                decisions = self._annotate(docs, self.predict(docs), settings)
                yield from (self._output(doc, d) for doc, d in zip(docs, decisions))
            except Exception as e:
                error_handler(self.name, self, docs, e)

    def _output(self, doc: Doc, decisions: Decisions) -> Doc:
        if not self.rewrite:
            return doc
        self._check_downstream(self.name)
        return build_rewritten(doc, plan_rewrite(doc, decisions))

    def predict(self, docs: Iterable[Doc]) -> List[Floats2d]:
        """Class probabilities per token, one array per doc."""
        docs = list(docs)
        if not self.is_initialized:
            raise ValueError(
                f"The '{self.name}' component is not initialized: train it, or call nlp.initialize() before using it."
            )
        if not any(len(doc) for doc in docs):
            return [self.model.ops.alloc2f(len(doc), len(self.labels)) for doc in docs]
        check_encoder_ran(self.model, docs, self.name)
        return self.model.predict(docs)

    def set_annotations(self, docs: Iterable[Doc], scores: List[Floats2d]) -> None:
        """Write `token._.punct`, sentence starts and, when asked for,
        `doc._.punct_probs`."""
        self._annotate(docs, scores)

    def _annotate(
        self, docs: Iterable[Doc], scores: List[Floats2d], settings: Optional[DecisionSettings] = None
    ) -> List[Decisions]:
        """Set the annotations; return each doc's decisions."""
        settings = self.settings if settings is None else settings
        all_decisions = []
        for doc, probs in zip(docs, scores):
            probs = self.model.ops.to_numpy(probs)
            decisions = self.decide(doc, probs, settings, open_end=doc._.open_end)
            if settings.repair:
                doc._.case_fill = decisions.case_fill
            set_token_values(doc, "punct", decisions.table.idx, decisions.marks)
            if len(doc):
                # set at once: setting is_sent_start per token is O(n) each
                starts = numpy.where(decisions.sent_starts, 1, -1).astype("uint64")
                doc.from_array([SENT_START], cast(Ints2d, starts.reshape(-1, 1)))
            if self.store_probs:
                doc._.punct_probs = probs
            all_decisions.append(decisions)
        return all_decisions

    def decide(
        self, doc: Doc, probs: numpy.ndarray, settings: Optional[DecisionSettings] = None, *, open_end: bool = False
    ) -> Decisions:
        """The decisions for a doc from its class probabilities. In repair
        mode the input's marks and capitals stay; where the component has a
        repair head, the head reads the probabilities with the input's marks
        and case, finds the stretches that lost their marks and decides their
        marks; without one, the stretches are `repair.missing_stretches`.
        Marks are filled in those stretches only, the truecaser's case in
        the runs between the input's marks that hold one, and in long runs
        lower-case after their first word (`repair.case_missing`). A text
        without a capital takes case everywhere."""
        settings = self.settings if settings is None else settings
        label_set = self.label_set
        if settings.merge:
            heard_marks = settings.heard_marks or load_heard_marks()
            return decode(doc, self._merged(doc, probs, heard_marks), label_set, settings, open_end=open_end)
        if not settings.repair:
            return decode(doc, probs, label_set, settings, open_end=open_end)
        table = token_table(doc)
        slots = mark_slots(doc, table)
        mark_fill: Optional[Set[int]]
        if self.repair_model is not None and slots.words:
            features = repair_features(table, slots, probs, label_set)
            scores = self.model.ops.to_numpy(self.repair_model.predict([cast(Floats2d, features)])[0])
            probs = numpy.array(probs, dtype="f")
            probs[slots.words] = repaired_probs(features, scores)
            stripped = mark_fill = {i for i, score in zip(slots.words, scores[:, -1].tolist()) if score > 0.0}
        else:
            stripped = mark_fill = missing_stretches(slots)
        capitals = any(text != text.lower() for text in table.texts)
        case_fill = _word_tokens(table, case_missing(table, slots, stripped)) if capitals else None
        return decode(doc, probs, label_set, settings, open_end=open_end, mark_fill=mark_fill, case_fill=case_fill)

    def _merged(self, doc: Doc, probs: numpy.ndarray, heard_marks: HeardMarks) -> numpy.ndarray:
        """The probabilities with the input's marks weighed in (see `merge`)."""
        slots = mark_slots(doc)
        if not slots.words:
            return probs
        label_set = self.label_set
        heard = [label_set.class_of(slots.existing.get(i)) for i in slots.words]
        probs = numpy.array(probs, dtype="f")
        probs[slots.words] = merged_probs(probs[slots.words], heard, heard_marks.weights(label_set))
        return probs

    def set_repair_model(self, model: Optional[Model], width: int = 64, depth: int = 1) -> None:
        """Give the component a trained repair head (`spacy_punct.RepairHead.v1`
        of `width` and `depth`), or take it away (None); it is saved with
        the component."""
        self.repair_model = model
        if model is None:
            self.cfg.pop("repair", None)
        else:
            self.cfg["repair"] = {"width": width, "depth": depth}

    def new_repair_model(self, width: int = 64, depth: int = 1) -> Model:
        """An untrained repair head for this component's labels."""
        label_set = self.label_set
        return build_repair_head(n_features(label_set), len(label_set), width, depth)

    # -- serialization: the repair head beside the model --------------------

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        data = super().to_bytes(exclude=exclude)
        if self.repair_model is None or "repair_model" in exclude:
            return data
        return srsly.msgpack_dumps({"pipe": data, "repair_model": self.repair_model.to_bytes()})

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "Punctuator":
        try:
            packed = srsly.msgpack_loads(bytes_data)
        except Exception:
            packed = None
        if isinstance(packed, dict) and "repair_model" in packed:
            super().from_bytes(packed["pipe"], exclude=exclude)
            self._load_repair_model(packed["repair_model"])
            return self
        super().from_bytes(bytes_data, exclude=exclude)
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        super().to_disk(path, exclude=exclude)
        if self.repair_model is not None and "repair_model" not in exclude:
            Path(path, "repair_model").write_bytes(self.repair_model.to_bytes())

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "Punctuator":
        super().from_disk(path, exclude=exclude)
        repair_path = Path(path, "repair_model")
        if repair_path.exists() and "repair_model" not in exclude:
            self._load_repair_model(repair_path.read_bytes())
        return self

    def _load_repair_model(self, data: bytes) -> None:
        shape = self.cfg.get("repair") or {}
        model = self.new_repair_model(int(shape.get("width", 64)), int(shape.get("depth", 1)))
        self.repair_model = model.from_bytes(data)

    # -- training -----------------------------------------------------------

    def get_loss(self, examples: Iterable[Example], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        """Weighted cross-entropy against the gold class of every word."""
        validate_examples(examples, "Punctuator.get_loss")
        label_set = self.label_set
        if not self._input_checked:  # at the first training step: fail at once on input that has the marks
            examples = list(examples)
            _check_bare_input(examples, label_set)
            self._input_checked = True
        losses, d_scores, n_words = [], [], 0
        for example, probs in zip(examples, scores):
            gold = numpy.asarray(gold_classes(example, label_set), dtype="i")
            weights = numpy.where(gold < 0, 0.0, numpy.where(gold == 0, self.empty_weight, 1.0))
            gold = numpy.maximum(gold, 0)
            truth = numpy.zeros(probs.shape, dtype="f")
            truth[numpy.arange(len(gold)), gold] = 1.0
            if self.distill_weight:
                mix_teacher_probs(truth, example.predicted, label_set, self.distill_weight)
            loss, d_probs = weighted_cross_entropy(self.model.ops, probs, truth, weights)
            losses.append(loss)
            d_scores.append(d_probs)
            n_words += len(gold)
        return mean_over_words(losses, d_scores, n_words)

    def finish_update(self, sgd: Optimizer) -> None:
        """Update the component's weights, at `learn_rate_scale` times the
        optimizer's learning rate."""
        scaled = ScaledOptimizer(sgd, self.learn_rate_scale) if self.learn_rate_scale != 1.0 else sgd
        self.model.finish_update(scaled)  # type: ignore[arg-type]  # a ScaledOptimizer acts as the Optimizer it wraps

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[Sequence[str]] = None,
    ) -> None:
        """Set the labels (given, configured, or inferred from the data) and
        initialize the model on a sample of the data."""
        validate_get_examples(get_examples, "Punctuator.initialize")
        if labels is not None:
            self.cfg["labels"] = validate_labels(labels)
        elif not self.labels:
            marks = {t._.punct for eg in get_examples() for t in eg.reference if t._.punct}
            self.cfg["labels"] = labels_for_marks(marks)
        label_set = self.label_set
        initialize_on_sample(
            self.model, get_examples, lambda eg: gold_classes(eg, label_set), len(self.labels), self.name
        )
        if nlp is not None:
            check_downstream_listeners(nlp, self.name)

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """The punctuation scores; then each rewritten prediction is put on
        the reference's tokens (`align.on_reference_tokens`), so that spaCy's
        scorers of the components after this one (which `nlp.evaluate` runs
        next, on the same examples) align it with the reference."""
        validate_examples(examples, "Punctuator.score")
        examples = examples if isinstance(examples, list) else list(examples)
        scores = {} if self.scorer is None else self.scorer(examples, labels=self.labels, **kwargs)
        for example in examples:
            predicted = example.predicted
            if predicted._.source_map is not None and _differ_beyond_case(predicted, example.reference):
                on_reference = on_reference_tokens(predicted, example.reference)
                if on_reference is not None:
                    example.predicted = on_reference
        return scores


def _word_tokens(table: Any, words: Set[int]) -> Set[int]:
    """The tokens of the words whose last tokens are `words` (`Do` and `n't`)."""
    tokens = set(words)
    for i in words:
        j = i
        while j > 0 and not (table.spaced[j - 1] or table.is_space[j - 1] or table.punct[j - 1]):
            j -= 1
            tokens.add(j)
    return tokens


def _differ_beyond_case(predicted: Doc, reference: Doc) -> bool:
    """Whether spaCy cannot align the two docs (E949): other characters than
    whitespace and case."""
    return "".join(predicted.text.split()).lower() != "".join(reference.text.split()).lower()


def _check_bare_input(examples: Sequence[Example], label_set: LabelSet) -> None:
    """Fail at the first training step where the input already has the
    reference's marks: spaCy's own reader gives each doc's punctuated text
    as the input (`spacy init config --pipeline punctuator`)."""
    n_input, n_reference = input_and_reference_marks(examples, label_set)
    if n_reference and n_input >= n_reference / 2:
        raise ValueError(
            f"The punctuator's training input already has {n_input} of the reference's {n_reference} marks: "
            "spaCy's own reader (spacy.Corpus.v1) gives each doc's punctuated text as the input, so there is "
            "nothing to learn. In the config, read the corpora with spacy-punct's reader, which gives the bare "
            'words as the input: [corpora.train] and [corpora.dev] @readers = "spacy_punct.PunctCorpus.v1" '
            "(path = ${paths.train} and ${paths.dev}), and tokenize with "
            '[nlp.tokenizer] @tokenizers = "spacy_punct.Tokenizer.v1" so that spaCy can score the punctuated output.'
        )
