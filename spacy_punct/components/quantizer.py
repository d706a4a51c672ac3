"""The `int8_quantizer` pipeline component: the pipeline's transformers run
with int8 weights in their linear layers on the CPU (each token's input
quantized on its own, see `layers.int8_linear`), and so do the hidden ReLU
layers of the heads that read them (`layers.int8_relu`); the pipeline is
saved with its float weights, so that a quantized pipeline is saved and
loaded as any other.

It sits before the transformers: on the first doc it quantizes a copy of each
transformer's model and puts it in place of the float one, which it keeps,
and gives the heads' ReLU layers an int8 forward (their float weights stay);
before the pipeline is saved (its `to_disk` runs before the transformers')
it puts the float models back. While quantized, an encoder set to run in
bfloat16 (`cpu_precision`, see `spacy_punct.layers.transformer`) runs in float32,
which the quantized layers take. Inference only: training needs the float
weights."""

import re
import warnings
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from thinc.api import Model

from ..layers.hf_models import hf_layers, hf_shims

QUANTIZED_TYPES = {"qint8": "qint8", "float16": "float16"}


@Language.factory("int8_quantizer", default_config={"dtype": "qint8", "keep_float": [], "weight_bits": 7})
def make_int8_quantizer(
    nlp: Language, name: str, dtype: str, keep_float: List[str], weight_bits: int
) -> "Int8Quantizer":
    """Quantize the linear layers of the pipeline's transformers at inference
    (`dtype`: "qint8", or "float16" for half-precision weights) and, in
    "qint8", the hidden ReLU layers of the components that listen to them
    (named "<component>.relu"), but those whose names match one of the
    regular expressions in `keep_float` (e.g. "encoder\\.layer\\.\\d+\\.output\\.dense",
    a BERT's feed-forward outputs, or "truecaser\\.relu"). In "qint8" the
    weights take `weight_bits` bits: 7 lets CPUs without int8 dot-product
    instructions compute the exact products with fbgemm's int8 kernels, about
    1.3 times as fast as float32 (see `layers.int8_linear`); 8 keeps one bit
    more."""
    if dtype not in QUANTIZED_TYPES:
        raise ValueError(f"dtype must be one of {sorted(QUANTIZED_TYPES)}, not {dtype!r}.")
    from ..layers.int8_linear import weight_levels

    weight_levels(weight_bits)  # one line for a wrong number
    for pattern in keep_float:
        try:
            re.compile(pattern)
        except re.error as e:
            raise ValueError(f"keep_float: {pattern!r} is not a regular expression ({e}).") from None
    return Int8Quantizer(nlp, name, dtype, keep_float, weight_bits)


def quantized_copy(model: Any, dtype: str = "qint8", keep_float: Sequence[str] = (), weight_bits: int = 7) -> Any:
    """A copy of a torch model for inference with its linear layers in
    `dtype`, but those whose module names fully match a pattern of
    `keep_float`. "qint8": weights of `weight_bits` bits with one scale per output channel
    (which kept test2011 micro F1 within 0.4 of float with all-MiniLM-L6-v2
    where one scale per tensor lost 1.9) and each token's input scaled on
    its own, so that a text's numbers do not depend on its batch (see
    `layers.int8_linear`); "float16": half-precision weights (PyTorch's
    dynamic quantization)."""
    import torch

    model.eval()
    if dtype == "qint8":
        from ..layers.int8_linear import int8_copy
        from ..layers.length_buckets import LengthBuckets

        # windows run in groups of one length: a window's int8 roundings do not depend on its batch
        return LengthBuckets(int8_copy(model, keep_float, weight_bits))
    kept = [re.compile(pattern) for pattern in keep_float]
    spec = {
        name
        for name, module in model.named_modules()
        if isinstance(module, torch.nn.Linear) and not any(pattern.fullmatch(name) for pattern in kept)
    }
    with warnings.catch_warnings():
        # torch.ao's eager quantization warns of its move to torchao, which is not a dependency
        warnings.simplefilter("ignore", DeprecationWarning)
        return torch.ao.quantization.quantize_dynamic(
            model,
            {name: torch.ao.quantization.float16_dynamic_qconfig for name in spec},
            dtype=torch.float16,
            inplace=False,
        )


class Int8Quantizer(Pipe):
    def __init__(
        self,
        nlp: Language,
        name: str = "int8_quantizer",
        dtype: str = "qint8",
        keep_float: Sequence[str] = (),
        weight_bits: int = 7,
    ) -> None:
        self.nlp = nlp
        self.name = name
        self.dtype = dtype
        self.keep_float = list(keep_float)
        self.weight_bits = weight_bits
        self._float: Dict[int, Any] = {}  # id(shim) -> its float model, while quantized
        self._autocast: Dict[int, Any] = {}  # id(layer) -> its autocast dtype, while quantized
        self._relu: Dict[int, Tuple[Model, Any]] = {}  # id(layer) -> the ReLU layer and its float forward

    @property
    def quantized(self) -> bool:
        return bool(self._float)

    def quantize(self) -> int:
        """Put quantized copies of the transformers' models in place; return how many."""
        if self._float:
            return len(self._float)
        shims = hf_shims(self.nlp)
        if not shims:
            raise ValueError(f"'{self.name}': the pipeline has no transformer to quantize.")
        for shim in shims:
            model = shim._model
            shim._model = quantized_copy(model, self.dtype, self.keep_float, self.weight_bits)
            self._float[id(shim)] = model
        for layer in hf_layers(self.nlp):
            if layer.attrs.get("cpu_autocast") is not None:
                self._autocast[id(layer)] = layer.attrs["cpu_autocast"]
                layer.attrs["cpu_autocast"] = None
        if self.dtype == "qint8":
            self._quantize_heads()
        return len(shims)

    def _quantize_heads(self) -> None:
        """Give the ReLU layers of the components that listen to a transformer an int8 forward."""
        from ..layers.int8_relu import int8_relu_forward

        kept = [re.compile(pattern) for pattern in self.keep_float]
        for name, pipe in self.nlp.components:  # the disabled ones too
            model = getattr(pipe, "model", None)
            if not isinstance(model, Model):
                continue
            nodes = list(model.walk())
            if not any(node.name == "transformer-listener" for node in nodes):
                continue
            for node in nodes:
                if node.name != "relu" or any(pattern.fullmatch(f"{name}.relu") for pattern in kept):
                    continue
                forward = int8_relu_forward(node, self.weight_bits)
                if forward is not None:
                    self._relu[id(node)] = (node, node._func)
                    node._func = forward

    def restore(self) -> None:
        """Put the float models back."""
        for shim in hf_shims(self.nlp):
            if id(shim) in self._float:
                shim._model = self._float.pop(id(shim))
        for layer in hf_layers(self.nlp):
            if id(layer) in self._autocast:
                layer.attrs["cpu_autocast"] = self._autocast.pop(id(layer))
        for node, forward in self._relu.values():
            node._func = forward
        self._float.clear()
        self._autocast.clear()
        self._relu.clear()

    def __call__(self, doc: Doc) -> Doc:
        self.quantize()
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        self.quantize()
        yield from stream

    def initialize(self, get_examples=None, *, nlp: Optional[Language] = None) -> None:
        raise ValueError(
            f"'{self.name}' is for inference: train without it, then add it (spacy-punct quantize MODEL OUTPUT)."
        )

    def to_bytes(self, *, exclude=tuple()) -> bytes:
        self.restore()  # the transformers after this component save float weights
        return b""

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()) -> "Int8Quantizer":
        self.restore()
        return self

    def to_disk(self, path, *, exclude=tuple()) -> None:
        self.restore()

    def from_disk(self, path, *, exclude=tuple()) -> "Int8Quantizer":
        self.restore()
        return self


def storage_overrides(nlp: Language, weights_storage: str) -> Dict[str, Any]:
    """The config overrides that load the pipeline `nlp` (as saved) with its
    transformers' weights to be saved in `weights_storage` (see
    `spacy_punct.layers.stored_weights`): for `load_pipeline(..., config=)`."""
    from ..layers.stored_weights import WEIGHTS_STORAGES
    from ..layers.windows import transformer_names

    if weights_storage not in WEIGHTS_STORAGES:
        raise ValueError(f"weights_storage must be one of {', '.join(WEIGHTS_STORAGES)}, not {weights_storage!r}.")
    overrides: Dict[str, Any] = {}
    for name in transformer_names(nlp):
        architecture = nlp.config["components"][name]["model"]["@architectures"]
        if architecture != "spacy_punct.TransformerModel.v1":
            raise ValueError(
                f"'{name}' is built by {architecture}: only spacy_punct.TransformerModel.v1 stores its weights in "
                f"{weights_storage}."
            )
        overrides[name] = {"model": {"weights_storage": weights_storage}}
    return {"components": overrides}


def add_quantizer(nlp: Language, dtype: str = "qint8", keep_float: Sequence[str] = (), weight_bits: int = 7) -> str:
    """Add an `int8_quantizer` before the pipeline's first transformer (its
    linear layers matching `keep_float` left in float32, the others' weights
    in `weight_bits` bits); return its name."""
    from ..layers.windows import transformer_names

    names = transformer_names(nlp)
    if not names:
        raise ValueError("The pipeline has no transformer to quantize: quantization speeds up transformer recipes.")
    if "int8_quantizer" in nlp.pipe_names:
        raise ValueError("The pipeline is quantized already.")
    config = {"dtype": dtype, "keep_float": list(keep_float), "weight_bits": weight_bits}
    nlp.add_pipe("int8_quantizer", before=names[0], config=config)
    return "int8_quantizer"
