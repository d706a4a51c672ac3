"""Training: the reader, the augmenters, the time-limited loop, frozen layers
and warm starts (the layout of `spacy/training/`)."""
from .augment import create_asr_noise_augmenter, create_case_noise_augmenter, create_chained_augmenters
from .freeze import create_freeze_embeddings, create_freeze_layers, freeze_input_embeddings, freeze_lower_layers
from ..word_records import WordRecord, make_example, read_docbins, strip_docs, word_records
from .corpus import PunctCorpus
from .loop import TrainingEnd, create_time_limit, train_for
from .spoken_numbers import create_spoken_numbers_augmenter
from .warm_start import create_warm_start, warm_start

__all__ = [
    "PunctCorpus",
    "TrainingEnd",
    "WordRecord",
    "create_asr_noise_augmenter",
    "create_case_noise_augmenter",
    "create_chained_augmenters",
    "create_freeze_embeddings",
    "create_freeze_layers",
    "create_spoken_numbers_augmenter",
    "create_time_limit",
    "create_warm_start",
    "freeze_input_embeddings",
    "freeze_lower_layers",
    "make_example",
    "read_docbins",
    "strip_docs",
    "train_for",
    "warm_start",
    "word_records",
]
