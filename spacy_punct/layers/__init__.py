"""Registered layers, one per module."""
from .bilstm import build_bilstm_encoder

__all__ = ["build_bilstm_encoder"]
