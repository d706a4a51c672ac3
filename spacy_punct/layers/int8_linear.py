"""Linear layers in int8 whose result for a token depends on that token alone.

PyTorch's dynamic quantization scales each layer's input by one number for the
whole batch, so a text's marks changed with the texts batched beside it and
with their padding (class probabilities moved by up to 0.2 with
all-MiniLM-L6-v2). Here every token's input vector has its own scale, the
weights one per output channel, and the product is an exact integer one
(`torch._int_mm`, int32 sums): the same text gives the same numbers in any
batch.

Quantizing the inputs and scaling the products back are passes over memory
that cost more than the integer products themselves, so each is done in as
few passes as torch allows, and the layers of a model share their last
quantized input: a BERT's query, key and value layers read the same tensor,
which is quantized once for the three."""
import copy
import re
import weakref
from typing import Optional, Sequence, Tuple

import torch


def quantize_rows(rows: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """Each row of the 2d float tensor `rows` in int8 with its own scale (its
    largest absolute value over 127): the int8 rows and the scales (rows, 1)."""
    largest = torch.maximum(rows.amax(dim=1, keepdim=True), rows.amin(dim=1, keepdim=True).neg_())
    scale = largest.clamp_(min=1e-12).div_(127.0)
    return torch.mul(rows, scale.reciprocal()).round_().to(torch.int8), scale


class SharedInputs:
    """The last input that a model's int8 layers quantized, with its int8 rows
    and scales: a layer given the same tensor, unchanged since, reuses them."""

    def __init__(self) -> None:
        self._last: Optional[Tuple[weakref.ref, int, torch.Tensor, torch.Tensor]] = None

    def quantize(self, x: torch.Tensor, in_features: int) -> Tuple[torch.Tensor, torch.Tensor]:
        last = self._last  # one read: another thread may replace it meanwhile
        if last is not None and last[0]() is x and last[1] == x._version:
            return last[2], last[3]
        quantized, scale = quantize_rows(x.reshape(-1, in_features).float())
        self._last = (weakref.ref(x), x._version, quantized, scale)
        return quantized, scale

    def __getstate__(self) -> dict:
        # a cache of one input: a copy (nlp.pipe(n_process=...) under spawn) starts without it
        return {"_last": None}


class TokenInt8Linear(torch.nn.Module):
    """A `torch.nn.Linear` in int8: weights with one scale per output channel,
    inputs quantized token by token (through `inputs`, shared by the layers
    of one model, or the layer's own)."""

    weight_t: torch.Tensor
    weight_scale: torch.Tensor
    bias: Optional[torch.Tensor]

    def __init__(self, linear: torch.nn.Linear, inputs: Optional[SharedInputs] = None) -> None:
        super().__init__()
        weight = linear.weight.detach().float()
        scale = weight.abs().amax(dim=1).clamp(min=1e-12) / 127.0
        self.register_buffer("weight_t", torch.round(weight / scale[:, None]).to(torch.int8).t().contiguous())
        self.register_buffer("weight_scale", scale)
        self.register_buffer("bias", None if linear.bias is None else linear.bias.detach().float())
        self.in_features = linear.in_features
        self.out_features = linear.out_features
        self.inputs = inputs if inputs is not None else SharedInputs()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        quantized, scale = self.inputs.quantize(x, self.in_features)
        out = torch._int_mm(quantized, self.weight_t).float().mul_(scale)
        if self.bias is None:
            out.mul_(self.weight_scale)
        else:
            torch.addcmul(self.bias, out, self.weight_scale, out=out)
        return out.reshape(*x.shape[:-1], self.out_features)


def int8_copy(model: torch.nn.Module, keep_float: Sequence[str] = ()) -> torch.nn.Module:
    """A copy of `model` with its linear layers as `TokenInt8Linear` sharing
    their quantized inputs, but those whose module names fully match a
    pattern of `keep_float`."""
    kept = [re.compile(pattern) for pattern in keep_float]
    model = copy.deepcopy(model)
    names = {module: name for name, module in model.named_modules()}
    inputs = SharedInputs()
    for parent in list(model.modules()):
        for child_name, child in list(parent.named_children()):
            if isinstance(child, torch.nn.Linear) and not any(p.fullmatch(names[child]) for p in kept):
                setattr(parent, child_name, TokenInt8Linear(child, inputs))
    return model
