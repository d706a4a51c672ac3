"""Learning-rate scaling: one component's weights trained at a multiple of the
optimizer's rate."""
from typing import Any

from thinc.api import Optimizer


class ScaledOptimizer:
    """An optimizer that applies another one's update at a scaled learning rate."""

    def __init__(self, optimizer: Optimizer, scale: float) -> None:
        self.optimizer = optimizer
        self.scale = scale

    def __call__(self, key, weights, gradient, *, lr_scale: float = 1.0):
        return self.optimizer(key, weights, gradient, lr_scale=lr_scale * self.scale)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.optimizer, name)
