"""Punctuation restoration as a spaCy pipeline component."""

from .runtime import moved
from .runtime.native_caches import bound_native_caches

bound_native_caches()  # before torch runs its first CPU kernel
moved.install()  # the modules' old import paths

from .about import __version__
from .components.punctuator import Punctuator, make_punctuator
from .components.rewriter import PunctRewriter, make_punct_rewriter
from .components.tokenizer import PunctTokenizer
from .decode import DecisionSettings
from .evaluation.scoring import evaluate
from .extensions import register_extensions
from .formats.records import output_record
from .formats.timed import RecordError, TimedWord
from .inference.folders import punctuate_folder, punctuate_folder_in_processes
from .inference.records import punctuate_records
from .inference.streaming import CommittedWord, EntropyLookahead, FixedLookahead, Streamer, stream_punctuate
from .inference.texts import punctuate, punctuate_pieces
from .inference.transcripts import punctuate_recognised, punctuate_recognised_many
from .labels import LabelSet
from .layers.classifier import build_punctuator_model
from .pipelines.loading import PipelineError, find_punctuator, load_pipeline
from .rewrite import rewrite_doc
from .scorer import make_punct_scorer, score_punctuation
from .training import PunctCorpus, create_asr_noise_augmenter, create_case_noise_augmenter

__all__ = [
    "__version__",
    "CommittedWord",
    "DecisionSettings",
    "EntropyLookahead",
    "FixedLookahead",
    "LabelSet",
    "PipelineError",
    "PunctCorpus",
    "PunctRewriter",
    "PunctTokenizer",
    "Punctuator",
    "RecordError",
    "Streamer",
    "TimedWord",
    "build_punctuator_model",
    "create_asr_noise_augmenter",
    "create_case_noise_augmenter",
    "evaluate",
    "find_punctuator",
    "load_pipeline",
    "make_punct_rewriter",
    "make_punct_scorer",
    "make_punctuator",
    "output_record",
    "punctuate",
    "punctuate_folder",
    "punctuate_folder_in_processes",
    "punctuate_pieces",
    "punctuate_recognised",
    "punctuate_recognised_many",
    "punctuate_records",
    "register_extensions",
    "rewrite_doc",
    "score_punctuation",
    "stream_punctuate",
]
