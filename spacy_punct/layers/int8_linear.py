"""Linear layers in int8 whose result for a token depends on that token alone.

PyTorch's dynamic quantization scales each layer's input by one number for the
whole batch, so a text's marks changed with the texts batched beside it and
with their padding (class probabilities moved by up to 0.2 with
all-MiniLM-L6-v2). Here every token's input vector has its own scale, the
weights one per output channel, and the product is an exact integer one
(int32 sums): the same text gives the same numbers in any batch.

Three ways compute the same integer products, and each process takes the
fastest of those that give them exactly on this machine (`fastest_product`):
- `torch._int_mm`, fast where the CPU has int8 dot-product instructions
  (VNNI, AMX) and some forty times slower than float32 where it has not;
- fbgemm's u8 by s8 product, 1.4 to 2 times float32's speed on AVX2 alone. Its
  kernels there add pairs of products in int16, which holds them only for
  weights of at most 7 bits (2 * 255 * 63 < 2**15): there it serves layers whose
  weights are quantized to 7 bits (`weight_bits`);
- float32 on the same integers: every partial sum of at most `exact_span`
  products is an integer below 2**24, which float32 holds exactly whatever
  the order of the sums.

Quantizing the inputs and scaling the products back are passes over memory
that cost more than the integer products themselves, so each is done in as
few passes as torch allows, and the layers of a model share their last
quantized input: a BERT's query, key and value layers read the same tensor,
which is quantized once for the three."""

import copy
import functools
import re
import time
import warnings
import weakref
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import torch

INPUT_LEVELS = 127  # an input row is quantized to integers in [-127, 127]
WEIGHT_BITS = (7, 8)
INT_MM, U8S8, FLOAT32 = "torch._int_mm", "fbgemm u8s8", "float32"


def weight_levels(weight_bits: int) -> int:
    """The largest integer of a weight quantized to `weight_bits` bits (one for the sign)."""
    if weight_bits not in WEIGHT_BITS:
        raise ValueError(f"weight_bits must be one of {', '.join(map(str, WEIGHT_BITS))}, not {weight_bits!r}.")
    return 2 ** (weight_bits - 1) - 1


def exact_span(levels: int = 127) -> int:
    """How many products of an input integer and a weight integer of at most
    `levels` float32 sums exactly: any partial sum stays below 2**24."""
    return (2**24 - 1) // (INPUT_LEVELS * levels)


def quantize_rows(rows: torch.Tensor, dtype: torch.dtype = torch.int8) -> Tuple[torch.Tensor, torch.Tensor]:
    """Each row of the 2d float tensor `rows` in int8 with its own scale (its
    largest absolute value over 127): the int8 rows (as `dtype`: int8, or the
    same integers in float32) and the scales (rows, 1)."""
    largest = torch.maximum(rows.amax(dim=1, keepdim=True), rows.amin(dim=1, keepdim=True).neg_())
    scale = largest.clamp_(min=1e-12).div_(float(INPUT_LEVELS))
    quantized = torch.mul(rows, scale.reciprocal()).round_()
    return (quantized if dtype == torch.float32 else quantized.to(dtype)), scale


def quantize_weight(weight: torch.Tensor, levels: int) -> Tuple[torch.Tensor, torch.Tensor]:
    """The float weight (out, in) as integers of at most `levels` with one
    scale per output channel: (int8 weight, scales). At 127 levels the scale
    is the channel's largest absolute value over 127; at fewer, each channel
    takes, of scales from that down to three quarters of it, the one whose
    rounding leaves the least squared error (clipping its few largest values)."""
    largest = weight.abs().amax(dim=1).clamp(min=1e-12)
    scale = largest / levels
    if levels < 127:
        best = None
        for fraction in torch.linspace(1.0, 0.76, 9).tolist():
            candidate = largest * fraction / levels
            error = _rounded(weight, candidate, levels).mul_(candidate[:, None]).sub_(weight).pow_(2).sum(dim=1)
            if best is None:
                best, scale = error, candidate
            else:
                better = error < best
                best, scale = torch.where(better, error, best), torch.where(better, candidate, scale)
    return _rounded(weight, scale, levels).to(torch.int8), scale


def _rounded(weight: torch.Tensor, scale: torch.Tensor, levels: int) -> torch.Tensor:
    return torch.div(weight, scale[:, None]).round_().clamp_(-levels, levels)


def float_integer_product(rows: torch.Tensor, weight: torch.Tensor, levels: int = 127) -> torch.Tensor:
    """`rows @ weight` for float32 tensors holding integers (the rows' of at
    most 127, the weight's of at most `levels`), exact as the int32 product
    converted to float32 (`torch._int_mm(...).float()`): spans of at most
    `exact_span(levels)` products summed in float32, the spans in float64."""
    width, span = rows.shape[1], exact_span(levels)
    if width <= span:
        return rows @ weight
    spans = -(-width // span)
    step = -(-width // spans)
    total = torch.zeros(rows.shape[0], weight.shape[1], dtype=torch.float64)
    for start in range(0, width, step):
        total += rows[:, start : start + step] @ weight[start : start + step]
    return total.float()


def packed_weight(weight_t: torch.Tensor) -> Any:
    """The int8 weight (in, out) packed for `u8s8_product`."""
    out_features = weight_t.shape[1]
    with warnings.catch_warnings():
        # torch warns that its quantized tensors are to be replaced; the packed weight is one
        warnings.simplefilter("ignore")
        quantized = torch._make_per_channel_quantized_tensor(
            weight_t.t().contiguous(),
            torch.ones(out_features, dtype=torch.float64),
            torch.zeros(out_features, dtype=torch.int64),
            0,
        )
        return torch.ops.quantized.linear_prepack(quantized, None)


def u8s8_product(rows: torch.Tensor, packed: Any) -> torch.Tensor:
    """`rows @ weight` for float32 rows holding integers of at most 127 and a
    weight packed by `packed_weight`: fbgemm's integer product (the rows
    shifted by 128 into u8), in float32."""
    return torch.ops.quantized.linear_with_input_q_dq_qweight_dq_output_fp32(rows, 1.0, 128, packed)


def _sample(levels: int) -> Tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(0)
    rows = torch.randint(-INPUT_LEVELS, INPUT_LEVELS + 1, (512, 384), generator=generator, dtype=torch.int8)
    weight = torch.randint(-levels, levels + 1, (384, 384), generator=generator, dtype=torch.int8)
    rows[0], rows[1], weight[:, 0], weight[:, 1] = INPUT_LEVELS, -INPUT_LEVELS, levels, -levels  # the largest sums
    return rows, weight


def _products(levels: int) -> Dict[str, Callable[[], torch.Tensor]]:
    rows, weight = _sample(levels)
    rows_float, weight_float = rows.float(), weight.float()
    products = {
        INT_MM: lambda: torch._int_mm(rows, weight).float(),
        FLOAT32: lambda: float_integer_product(rows_float, weight_float, levels),
    }
    try:
        packed = packed_weight(weight)
        products[U8S8] = lambda: u8s8_product(rows_float, packed)
    except (RuntimeError, AttributeError):  # no fbgemm in this build of torch
        pass
    return products


@functools.lru_cache(maxsize=None)
def exact_products(levels: int = 127) -> Tuple[str, ...]:
    """The ways of computing the integer products of inputs and weights of
    at most `levels` that run here and give the exact numbers on a sample
    with the largest sums the ranges allow."""
    products = _products(levels)
    exact = products.pop(FLOAT32)()
    ways = [FLOAT32]
    with torch.no_grad():
        for way, product in products.items():
            try:
                if torch.equal(product(), exact):
                    ways.append(way)
            except (RuntimeError, NotImplementedError):
                pass
    return tuple(ways)


@functools.lru_cache(maxsize=None)
def fastest_product(levels: int = 127) -> str:
    """The fastest of `exact_products(levels)` on this machine (all give the
    same numbers), measured once a process on a product of a few windows'
    size: the best of three of each, where one call does not already take
    more than twice the float32 product."""
    products = _products(levels)

    def seconds(way: str) -> float:
        start = time.perf_counter()
        products[way]()
        return time.perf_counter() - start

    times: Dict[str, float] = {}
    with torch.no_grad():
        for way in exact_products(levels):
            products[way]()  # the first call of each sets up its kernels
            first = seconds(way)
            if way != FLOAT32 and first > 2 * times[FLOAT32]:
                continue
            times[way] = min(first, seconds(way), seconds(way))
    return min(times, key=times.__getitem__)


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
    """A `torch.nn.Linear` in int8: weights of `weight_bits` bits (7 or 8)
    with one scale per output channel, inputs quantized token by token
    (through `inputs`, shared by the layers of one model, or the layer's own)."""

    weight_t: torch.Tensor
    weight_scale: torch.Tensor
    bias: Optional[torch.Tensor]

    def __init__(self, linear: torch.nn.Linear, inputs: Optional[SharedInputs] = None, weight_bits: int = 7) -> None:
        super().__init__()
        self.levels = weight_levels(weight_bits)
        weight_int8, scale = quantize_weight(linear.weight.detach().float(), self.levels)
        self.register_buffer("weight_t", weight_int8.t().contiguous())
        self.register_buffer("weight_scale", scale)
        self.register_buffer("bias", None if linear.bias is None else linear.bias.detach().float())
        self.in_features = linear.in_features
        self.out_features = linear.out_features
        self.inputs = inputs if inputs is not None else SharedInputs()
        self._derived: Dict[str, Tuple[torch.Tensor, int, Any]] = {}

    def derived_weight(self, way: str) -> Any:
        """`weight_t` as the product `way` takes it (float32, or packed for
        fbgemm), made once for the buffer as it is."""
        cached = self._derived.get(way)
        if cached is None or cached[0] is not self.weight_t or cached[1] != self.weight_t._version:
            made = packed_weight(self.weight_t) if way == U8S8 else self.weight_t.float()
            cached = self._derived[way] = (self.weight_t, self.weight_t._version, made)
        return cached[2]

    def __getstate__(self) -> Dict[str, Any]:
        state = self.__dict__.copy()
        state["_derived"] = {}  # made again from weight_t where it is needed
        return state

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        way = fastest_product(self.levels)
        if way == INT_MM:
            quantized, scale = self.inputs.quantize(x, self.in_features)
            out = torch._int_mm(quantized, self.weight_t).float()
        else:
            quantized, scale = self.inputs.quantize(x, self.in_features, torch.float32)
            if way == U8S8:
                out = u8s8_product(quantized, self.derived_weight(U8S8))
            else:
                out = float_integer_product(quantized, self.derived_weight(FLOAT32), self.levels)
        out.mul_(scale)
        if self.bias is None:
            out.mul_(self.weight_scale)
        else:
            torch.addcmul(self.bias, out, self.weight_scale, out=out)
        return out.reshape(*x.shape[:-1], self.out_features)


def int8_copy(model: torch.nn.Module, keep_float: Sequence[str] = (), weight_bits: int = 7) -> torch.nn.Module:
    """A copy of `model` with its linear layers as `TokenInt8Linear` (weights
    of `weight_bits` bits) sharing their quantized inputs, but those whose
    module names fully match a pattern of `keep_float`."""
    kept = [re.compile(pattern) for pattern in keep_float]
    model = copy.deepcopy(model)
    names = {module: name for name, module in model.named_modules()}
    inputs = SharedInputs()
    for parent in list(model.modules()):
        for child_name, child in list(parent.named_children()):
            if isinstance(child, torch.nn.Linear) and not any(p.fullmatch(names[child]) for p in kept):
                setattr(parent, child_name, TokenInt8Linear(child, inputs, weight_bits))
    return model
