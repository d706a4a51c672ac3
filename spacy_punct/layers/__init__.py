"""Registered layers, one per module."""
from .bilstm import build_bilstm_encoder
from .pauses import build_pause_features

__all__ = ["build_bilstm_encoder", "build_pause_features"]
