"""Registered layers, one per module."""

from .bilstm import build_bilstm_encoder
from .lowercase import build_lowercase_embed
from .pauses import build_pause_features
from .repair_head import build_repair_head
from .tok2vec import build_tok2vec
from .transformer import build_transformer_model

__all__ = [
    "build_bilstm_encoder",
    "build_lowercase_embed",
    "build_pause_features",
    "build_repair_head",
    "build_tok2vec",
    "build_transformer_model",
]
