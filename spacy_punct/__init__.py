"""Punctuation restoration as a spaCy pipeline component."""
from .about import __version__
from .augment import create_asr_noise_augmenter
from .corpus import PunctCorpus, create_punct_corpus
from .extensions import register_extensions
from .model import build_punctuator_model
from .punctuator import Punctuator, make_punctuator
from .rewrite import rewrite_doc
from .scorer import make_punct_scorer, score_punctuation

__all__ = [
    "__version__",
    "Punctuator",
    "PunctCorpus",
    "build_punctuator_model",
    "create_asr_noise_augmenter",
    "create_punct_corpus",
    "make_punct_scorer",
    "make_punctuator",
    "register_extensions",
    "rewrite_doc",
    "score_punctuation",
]
