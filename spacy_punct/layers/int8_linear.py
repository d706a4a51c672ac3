"""Linear layers in int8 whose result for a token depends on that token alone.

PyTorch's dynamic quantization scales each layer's input by one number for the
whole batch, so a text's marks changed with the texts batched beside it and
with their padding (class probabilities moved by up to 0.2 with
all-MiniLM-L6-v2). Here every token's input vector has its own scale, the
weights one per output channel, and the product is an exact integer one
(int32 sums): the same text gives the same numbers in any batch.

`torch._int_mm` computes the integer products fast where the CPU has int8
dot-product instructions (VNNI, AMX) and some forty times slower than a
float32 product where it has not (AVX2 alone). There the same integers are
multiplied as float32: every partial sum of at most `EXACT_SPAN` products of
two int8 values is an integer below 2**24, which float32 holds exactly
whatever the order of the sums, so both ways give the same numbers to the
bit, and each process takes the faster one (`int8_products_are_fast`).

Quantizing the inputs and scaling the products back are passes over memory
that cost more than the integer products themselves, so each is done in as
few passes as torch allows, and the layers of a model share their last
quantized input: a BERT's query, key and value layers read the same tensor,
which is quantized once for the three."""
import copy
import functools
import re
import time
import weakref
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import torch


# 127 * 127 * 1040 < 2**24: float32 sums of up to this many int8 products are exact
EXACT_SPAN = 1040


def quantize_rows(rows: torch.Tensor, dtype: torch.dtype = torch.int8) -> Tuple[torch.Tensor, torch.Tensor]:
    """Each row of the 2d float tensor `rows` in int8 with its own scale (its
    largest absolute value over 127): the int8 rows (as `dtype`: int8, or the
    same integers in float32) and the scales (rows, 1)."""
    largest = torch.maximum(rows.amax(dim=1, keepdim=True), rows.amin(dim=1, keepdim=True).neg_())
    scale = largest.clamp_(min=1e-12).div_(127.0)
    quantized = torch.mul(rows, scale.reciprocal()).round_()
    return (quantized if dtype == torch.float32 else quantized.to(dtype)), scale


def float_integer_product(rows: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """`rows @ weight` for float32 tensors holding int8 values, exact as the
    int32 product converted to float32 (`torch._int_mm(...).float()`): spans
    of at most `EXACT_SPAN` products summed in float32, the spans in float64."""
    width = rows.shape[1]
    if width <= EXACT_SPAN:
        return rows @ weight
    spans = -(-width // EXACT_SPAN)
    step = -(-width // spans)
    total = torch.zeros(rows.shape[0], weight.shape[1], dtype=torch.float64)
    for start in range(0, width, step):
        total += rows[:, start : start + step] @ weight[start : start + step]
    return total.float()


@functools.lru_cache(maxsize=None)
def int8_products_are_fast() -> bool:
    """Whether `torch._int_mm` is faster than the exact float32 product on
    this machine (both give the same numbers), measured once a process on a
    product of a few windows' size: the best of three of each, or one integer
    product where it alone takes more than twice the float32 one."""
    rows = torch.randint(-127, 128, (512, 384), dtype=torch.int8)
    weight = torch.randint(-127, 128, (384, 384), dtype=torch.int8)
    rows_float, weight_float = rows.float(), weight.float()

    def seconds(product: Callable[[], torch.Tensor]) -> float:
        start = time.perf_counter()
        product()
        return time.perf_counter() - start

    def integer() -> torch.Tensor:
        return torch._int_mm(rows, weight)

    def float32() -> torch.Tensor:
        return float_integer_product(rows_float, weight_float)

    with torch.no_grad():
        integer(), float32()  # the first call of each sets up its kernels
        float_time = min(seconds(float32) for _ in range(3))
        integer_time = seconds(integer)
        if integer_time > 2 * float_time:
            return False
        return min(integer_time, *(seconds(integer) for _ in range(2))) < float_time


class SharedInputs:
    """The last input that a model's int8 layers quantized, with its int8 rows
    and scales: a layer given the same tensor, unchanged since, reuses them."""

    def __init__(self) -> None:
        self._last: Optional[Tuple[weakref.ref, int, torch.dtype, torch.Tensor, torch.Tensor]] = None

    def quantize(
        self, x: torch.Tensor, in_features: int, dtype: torch.dtype = torch.int8
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        last = self._last  # one read: another thread may replace it meanwhile
        if last is not None and last[0]() is x and last[1] == x._version and last[2] == dtype:
            return last[3], last[4]
        quantized, scale = quantize_rows(x.reshape(-1, in_features).float(), dtype)
        self._last = (weakref.ref(x), x._version, dtype, quantized, scale)
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
        self._float_weight: Optional[Tuple[torch.Tensor, int, torch.Tensor]] = None

    def float_weight_t(self) -> torch.Tensor:
        """`weight_t`'s integers in float32, made once for the buffer as it is."""
        cached = getattr(self, "_float_weight", None)  # None too in layers pickled before it
        if cached is None or cached[0] is not self.weight_t or cached[1] != self.weight_t._version:
            cached = (self.weight_t, self.weight_t._version, self.weight_t.float())
            self._float_weight = cached
        return cached[2]

    def __getstate__(self) -> Dict[str, Any]:
        state = self.__dict__.copy()
        state["_float_weight"] = None  # made again from weight_t where it is needed
        return state

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if int8_products_are_fast():
            quantized, scale = self.inputs.quantize(x, self.in_features)
            out = torch._int_mm(quantized, self.weight_t).float()
        else:
            quantized, scale = self.inputs.quantize(x, self.in_features, torch.float32)
            out = float_integer_product(quantized, self.float_weight_t())
        out.mul_(scale)
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
