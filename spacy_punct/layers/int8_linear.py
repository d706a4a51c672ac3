"""Linear layers in int8 whose result for a token depends on that token alone.

PyTorch's dynamic quantization scales each layer's input by one number for the
whole batch, so a text's marks changed with the texts batched beside it and
with their padding (class probabilities moved by up to 0.2 with
all-MiniLM-L6-v2). Here every token's input vector has its own scale, the
weights one per output channel, and the product is an exact integer one
(`torch._int_mm`, int32 sums): the same text gives the same numbers in any
batch."""
import copy
import re
from typing import Sequence

import torch


class TokenInt8Linear(torch.nn.Module):
    """A `torch.nn.Linear` in int8: weights with one scale per output channel,
    inputs quantized token by token."""

    def __init__(self, linear: torch.nn.Linear) -> None:
        super().__init__()
        weight = linear.weight.detach().float()
        scale = weight.abs().amax(dim=1).clamp(min=1e-12) / 127.0
        self.register_buffer("weight_t", torch.round(weight / scale[:, None]).to(torch.int8).t().contiguous())
        self.register_buffer("weight_scale", scale)
        self.register_buffer("bias", None if linear.bias is None else linear.bias.detach().float())
        self.in_features = linear.in_features
        self.out_features = linear.out_features

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows = x.reshape(-1, self.in_features).float()
        scale = rows.abs().amax(dim=1, keepdim=True).clamp_(min=1e-12).div_(127.0)
        quantized = (rows / scale).round_().to(torch.int8)
        out = torch._int_mm(quantized, self.weight_t).float().mul_(scale).mul_(self.weight_scale)
        if self.bias is not None:
            out.add_(self.bias)
        return out.reshape(*x.shape[:-1], self.out_features)


def int8_copy(model: torch.nn.Module, keep_float: Sequence[str] = ()) -> torch.nn.Module:
    """A copy of `model` with its linear layers as `TokenInt8Linear`, but those
    whose module names fully match a pattern of `keep_float`."""
    kept = [re.compile(pattern) for pattern in keep_float]
    model = copy.deepcopy(model)
    names = {module: name for name, module in model.named_modules()}
    for parent in list(model.modules()):
        for child_name, child in list(parent.named_children()):
            if isinstance(child, torch.nn.Linear) and not any(p.fullmatch(names[child]) for p in kept):
                setattr(parent, child_name, TokenInt8Linear(child))
    return model
