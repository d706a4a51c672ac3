"""The `punctuator` pipeline component."""
import weakref
from itertools import islice
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy
from spacy.attrs import SENT_START
from spacy.errors import Errors
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.util import minibatch
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer
from thinc.types import Floats2d

from .extensions import register_extensions
from .labels import (
    DEFAULT_LABELS,
    EMPTY,
    LABEL_MARKS,
    SENTENCE_FINAL,
    label_for_mark,
    labels_for_marks,
    marks_after,
    punct_flags,
    validate_labels,
)
from .rewrite import RewritePlan, build_rewritten, plan_rewrite
from .scorer import word_offsets

register_extensions()

DEFAULT_MODEL_CONFIG = """
[model]
@architectures = "spacy_punct.PunctuatorModel.v1"
hidden_width = 128
dropout = 0.2
nO = null

[model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 96
depth = 4
embed_size = 2000
window_size = 1
maxout_pieces = 3
subword_features = true
"""
DEFAULT_MODEL = Config().from_str(DEFAULT_MODEL_CONFIG)["model"]


@Language.factory(
    "punctuator",
    assigns=["token._.punct", "token.is_sent_start", "doc._.punctuated"],
    default_config={
        "model": DEFAULT_MODEL,
        "labels": list(DEFAULT_LABELS),
        "empty_weight": 1.0,
        "thresholds": {},
        "keep_existing": False,
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
    thresholds: Dict[str, float],
    keep_existing: bool,
    rewrite: bool,
    store_probs: bool,
    learn_rate_scale: float,
    scorer: Optional[Callable],
) -> "Punctuator":
    """Restore punctuation, sentence case and sentence boundaries.

    labels: the classes (EMPTY first); null to infer them from the training data.
    empty_weight: loss weight of tokens whose gold class is EMPTY (< 1 counters
        the class imbalance).
    thresholds: per class, the probability from which its mark is written (and
        below which it is not), whatever the other classes' probabilities.
    keep_existing: keep punctuation already in the input and only fill gaps.
    rewrite: return a new, punctuated Doc (else annotate the input in place).
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
        thresholds=thresholds,
        keep_existing=keep_existing,
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
        thresholds: Optional[Dict[str, float]] = None,
        keep_existing: bool = False,
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
        self.thresholds = dict(thresholds or {})
        self.keep_existing = keep_existing
        self.rewrite = rewrite
        self.store_probs = store_probs
        if not learn_rate_scale >= 0.0:
            raise ValueError(f"learn_rate_scale must be >= 0, not {learn_rate_scale}.")
        self.learn_rate_scale = learn_rate_scale
        self.scorer = scorer
        self._nlp = _PipelineRef(nlp)
        self._checked_pipeline: Optional[Tuple[str, ...]] = None

    @property
    def labels(self) -> Tuple[str, ...]:
        return tuple(self.cfg["labels"])

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

    def __call__(self, doc: Doc) -> Doc:
        error_handler = self.get_error_handler()
        try:
            plans = self._annotate([doc], self.predict([doc]))
            return self._output(doc, plans[0])
        except Exception as e:
            error_handler(self.name, self, [doc], e)

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Punctuate a stream of docs; yields the rewritten docs when `rewrite`."""
        error_handler = self.get_error_handler()
        for docs in minibatch(stream, size=batch_size):
            try:
                plans = self._annotate(docs, self.predict(docs))
                yield from (self._output(doc, plan) for doc, plan in zip(docs, plans))
            except Exception as e:
                error_handler(self.name, self, docs, e)

    def _output(self, doc: Doc, plan: RewritePlan) -> Doc:
        if not self.rewrite:
            return doc
        self._check_downstream_listeners()
        return build_rewritten(doc, plan)

    def predict(self, docs: Iterable[Doc]) -> List[Floats2d]:
        """Class probabilities per token, one array per doc."""
        docs = list(docs)
        if not self.is_initialized:
            raise ValueError(
                f"The '{self.name}' component is not initialized: train it, or call "
                "nlp.initialize() before using it."
            )
        if not any(len(doc) for doc in docs):
            return [self.model.ops.alloc2f(len(doc), len(self.labels)) for doc in docs]
        return self.model.predict(docs)

    def set_annotations(self, docs: Iterable[Doc], scores: List[Floats2d]) -> None:
        """Write `token._.punct`, sentence starts, `doc._.punctuated` and,
        when asked for, `doc._.punct_probs`."""
        self._annotate(docs, scores)

    def _annotate(self, docs: Iterable[Doc], scores: List[Floats2d]) -> List[RewritePlan]:
        """Set the annotations; return each doc's rewrite plan."""
        labels = self.labels
        marks = [LABEL_MARKS[label] for label in labels]
        final = {i for i, label in enumerate(labels) if label in SENTENCE_FINAL}
        plans = []
        for doc, probs in zip(docs, scores):
            probs = self.model.ops.to_numpy(probs)
            punct = punct_flags(doc)
            guesses = self._decode(doc, probs, punct)
            # 1: starts a sentence, -1: does not (set at once: per token is O(n))
            starts = numpy.full(len(doc), -1, dtype="int64")
            sentence_open = False
            for token, guess, is_punct in zip(doc, guesses, punct):
                token._.punct = marks[guess]
                if not (token.is_space or is_punct):
                    starts[token.i] = -1 if sentence_open else 1
                    sentence_open = guess not in final
            if len(doc):
                starts[0] = 1
                doc.from_array([SENT_START], starts.astype("uint64").reshape(-1, 1))
            if self.store_probs:
                doc._.punct_probs = probs
            plan = plan_rewrite(doc, self.keep_existing)
            doc._.punctuated = plan.text
            plans.append(plan)
        return plans

    def _decode(self, doc: Doc, probs: numpy.ndarray, punct: Sequence[bool]) -> List[int]:
        """The class index per token (see `decide`); EMPTY on whitespace and
        punctuation tokens and inside words (`do|n't`); the written mark where
        `keep_existing` and the input has one."""
        labels = self.labels
        guesses = decide(probs, labels, self.thresholds).tolist()
        existing = marks_after(doc, punct) if self.keep_existing else None
        for token, is_punct in zip(doc, punct):
            if token.is_space or is_punct or _glued(token, punct):
                guesses[token.i] = 0
            elif existing and existing[token.i]:
                guesses[token.i] = labels.index(label_for_mark(existing[token.i], labels))
        return guesses

    def _check_downstream_listeners(self) -> None:
        """Refuse components after this one that listen to an upstream component
        before it: they would read vectors of the input doc, not of the rewritten one."""
        nlp = self._nlp()
        if nlp is None or tuple(nlp.pipe_names) == self._checked_pipeline:
            return
        check_downstream_listeners(nlp, self.name)
        self._checked_pipeline = tuple(nlp.pipe_names)

    # -- training -----------------------------------------------------------

    def get_loss(self, examples: Iterable[Example], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        """Weighted cross-entropy against the gold class of every token."""
        validate_examples(examples, "Punctuator.get_loss")
        ops = self.model.ops
        loss = 0.0
        n_tokens = 0
        d_scores = []
        for example, probs in zip(examples, scores):
            gold, weights = self._gold(example)
            gold_idx = ops.asarray1i(gold)
            weight = ops.asarray1f(weights)
            truth = ops.alloc2f(*probs.shape)
            if len(gold):
                truth[ops.xp.arange(len(gold)), gold_idx] = 1.0
                gold_probs = probs[ops.xp.arange(len(gold)), gold_idx]
                loss += float(-(weight * ops.xp.log(gold_probs + 1e-9)).sum())
            d_scores.append((probs - truth) * weight[:, None])
            n_tokens += len(gold)
        n_tokens = max(n_tokens, 1)
        return loss / n_tokens, [d / n_tokens for d in d_scores]

    def _gold(self, example: Example) -> Tuple[List[int], List[float]]:
        """Per predicted token, the gold class index and the loss weight (0 for
        whitespace and punctuation tokens)."""
        labels = self.labels
        pred_text, pred_ends = word_offsets(example.predicted)
        gold_text, gold_ends = word_offsets(example.reference)
        if pred_text != gold_text:
            raise ValueError(
                "The predicted and reference docs of a training example have different "
                f"words: {pred_text[:60]!r} vs {gold_text[:60]!r}."
            )
        gold_at = {
            end: labels.index(label_for_mark(token._.punct or "", labels))
            for token, end in zip(example.reference, gold_ends)
            if end is not None
        }
        gold, weights = [], []
        for end in pred_ends:
            if end is None:
                gold.append(0)
                weights.append(0.0)
            else:
                index = gold_at.get(end, 0)
                gold.append(index)
                weights.append(self.empty_weight if index == 0 else 1.0)
        return gold, weights

    def finish_update(self, sgd: Optimizer) -> None:
        """Update the component's weights, at `learn_rate_scale` times the
        optimizer's learning rate."""
        if self.learn_rate_scale != 1.0:
            sgd = ScaledOptimizer(sgd, self.learn_rate_scale)
        self.model.finish_update(sgd)

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
        doc_sample, label_sample = [], []
        for example in islice(get_examples(), 10):
            gold, _ = self._gold(example)
            one_hot = numpy.zeros((len(gold), len(self.labels)), dtype="f")
            one_hot[numpy.arange(len(gold)), gold] = 1.0
            doc_sample.append(example.predicted)
            label_sample.append(self.model.ops.asarray2f(one_hot))
        if not doc_sample:
            raise ValueError(Errors.E923.format(name=self.name))
        output_layer = self.model.get_ref("output_layer")
        if not output_layer.has_dim("nO"):
            output_layer.set_dim("nO", len(self.labels))
        self.model.initialize(X=doc_sample, Y=label_sample)
        if nlp is not None:
            check_downstream_listeners(nlp, self.name)

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        validate_examples(examples, "Punctuator.score")
        return self.scorer(examples, labels=self.labels, **kwargs)



class ScaledOptimizer:
    """An optimizer that applies another one's update at a scaled learning rate."""

    def __init__(self, optimizer: Optimizer, scale: float) -> None:
        self.optimizer = optimizer
        self.scale = scale

    def __call__(self, key, weights, gradient, *, lr_scale: float = 1.0):
        return self.optimizer(key, weights, gradient, lr_scale=lr_scale * self.scale)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.optimizer, name)


class _PipelineRef:
    """A weak reference to the pipeline that pickles as an empty one."""

    def __init__(self, nlp: Optional[Language] = None) -> None:
        self._ref = weakref.ref(nlp) if nlp is not None else None

    def __call__(self) -> Optional[Language]:
        return self._ref() if self._ref is not None else None

    def __reduce__(self):
        return (_PipelineRef, ())


def decide(probs: numpy.ndarray, labels: Sequence[str], thresholds: Dict[str, float]) -> numpy.ndarray:
    """The class index per row of `probs`. A class with a threshold is chosen
    wherever its probability reaches the threshold (the most probable such
    class first), and never below it; elsewhere the most probable class wins."""
    unknown = set(thresholds) - set(labels)
    if unknown:
        raise ValueError(f"Thresholds given for unknown labels {sorted(unknown)}.")
    scores = numpy.array(probs, copy=True)
    for label, threshold in thresholds.items():
        if label == EMPTY:
            continue
        column = labels.index(label)
        reached = probs[:, column] >= threshold
        scores[~reached, column] = -1.0
        scores[reached, column] += 1.0
    return scores.argmax(axis=1) if len(scores) else numpy.zeros((0,), dtype="i")


def _glued(token, punct: Sequence[bool]) -> bool:
    """Whether the token is joined to the next word without a space (`do` in `don't`)."""
    if token.whitespace_ or token.i + 1 >= len(token.doc):
        return False
    return not token.doc[token.i + 1].is_space and not punct[token.i + 1]


def find_punctuator(nlp: Language) -> Tuple[str, Punctuator]:
    """The pipeline's punctuator and its name."""
    for name, pipe in nlp.pipeline:
        if isinstance(pipe, Punctuator):
            return name, pipe
    raise ValueError(f"The pipeline has no punctuator component (it has {nlp.pipe_names}).")


def check_downstream_listeners(nlp: Language, name: str) -> None:
    """Raise if a component after `name` listens to one before it while `name`
    rewrites docs."""
    component = nlp.get_pipe(name)
    if not getattr(component, "rewrite", False):
        return
    names = nlp.pipe_names
    position = names.index(name)
    for upstream in names[:position]:
        listening = getattr(nlp.get_pipe(upstream), "listening_components", None) or []
        late = [listener for listener in listening if listener in names[position + 1 :]]
        if late:
            raise ValueError(
                f"Component(s) {late} listen to '{upstream}', which runs before "
                f"'{name}'. '{name}' rewrites each doc, so they would see vectors of "
                "the unpunctuated input. Give them their own tok2vec (or run "
                f"'{name}' with rewrite = false)."
            )
