"""A spacy-transformers transformer whose encoder runs in bfloat16 on the CPU.

`spacy-transformers.TransformerModel.v3` offers mixed precision on CUDA only.
On a CPU with bfloat16 matrix instructions (AVX512-BF16, AMX, Arm BF16),
`torch.autocast("cpu", torch.bfloat16)` runs the encoder's matrix products in
bfloat16 with float32 weights, layer norms and softmax: all-MiniLM-L6-v2's
forward and backward pass in half the time of float32, a pipeline reading
twice the words a second, with the same scores (IWSLT test2011 micro F1 66.3
either way; see the README's speed measurements). On a
CPU without those instructions bfloat16 is emulated and slower than float32,
which is why the default, "auto", autocasts only where the CPU has them.
Outputs are returned in float32, and the weights stay float32: a pipeline
trained either way loads and runs either way.
"""

from typing import Any, Callable, Dict, List, Optional, Tuple

from spacy.language import Language
from spacy.util import registry
from thinc.api import Model

CPU_PRECISIONS = ("auto", "bfloat16", "float32")


@registry.architectures("spacy_punct.TransformerModel.v1")
def build_transformer_model(
    name: str,
    get_spans: Callable,
    tokenizer_config: Optional[Dict[str, Any]] = None,
    transformer_config: Optional[Dict[str, Any]] = None,
    mixed_precision: bool = False,
    grad_scaler_config: Optional[Dict[str, Any]] = None,
    cpu_precision: str = "auto",
    weights_storage: str = "float32",
    word_marker: Optional[str] = None,
) -> Model:
    """`spacy-transformers.TransformerModel.v3` (same arguments) whose
    encoder runs on the CPU in `cpu_precision`: "float32", "bfloat16"
    (autocast), or "auto" (bfloat16 where the CPU computes it natively),
    whose windows over the encoder's limit are split, not cut
    (`piece_limit`), and whose weights are saved in `weights_storage`
    ("float32", or "int8": a quarter of the size, see `stored_weights`).
    With `word_marker` (a piece of the vocabulary, e.g. "[MASK]"), that piece
    is read after every word and each word's vector is taken from it
    (`word_markers`); without, a word's vector is the mean of its pieces'."""
    from spacy_transformers.layers import TransformerModel

    from .piece_limit import limit_window_pieces
    from .stored_weights import store_weights
    from .word_markers import word_marked_transformer_model

    args = (
        name,
        get_spans,
        tokenizer_config or {},
        transformer_config or {},
        mixed_precision,
        grad_scaler_config or {},
    )
    model = TransformerModel(*args) if word_marker is None else word_marked_transformer_model(word_marker, *args)
    limit_window_pieces(model)
    store_weights(model, weights_storage)
    dtype = autocast_dtype(cpu_precision)
    if dtype is not None:
        autocast_layer(model.layers[0], dtype)
    return model


def autocast_dtype(cpu_precision: str) -> Optional[Any]:
    """The torch dtype to autocast to on the CPU, or None for float32."""
    if cpu_precision not in CPU_PRECISIONS:
        raise ValueError(f"cpu_precision must be one of {', '.join(CPU_PRECISIONS)}, not {cpu_precision!r}.")
    if cpu_precision == "float32" or (cpu_precision == "auto" and not native_bfloat16()):
        return None
    import torch

    return torch.bfloat16


def native_bfloat16() -> bool:
    """Whether this CPU has bfloat16 matrix instructions that PyTorch uses."""
    import torch

    try:
        return bool(torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False


def apply_transformer_settings(nlp: Language, window: int = 0, stride: int = 0, cpu_precision: str = "") -> None:
    """Set the transformers' window and stride (0: as configured) and their
    CPU precision ("": as configured), as a command, a Ray worker or a
    service asks; ValueError for settings the pipeline cannot take."""
    from .windows import set_windows

    if window or stride:
        set_windows(nlp, window, stride)
    if cpu_precision:
        set_cpu_precision(nlp, cpu_precision)


def set_cpu_precision(nlp: Language, cpu_precision: str) -> List[str]:
    """Run the encoders of the pipeline's transformers in `cpu_precision`
    from now on, whatever their architecture (a pipeline trained with
    spacy-transformers' own). Returns the names of the components changed."""
    from .hf_models import hf_layers
    from .windows import transformer_names

    dtype = autocast_dtype(cpu_precision)
    names = transformer_names(nlp)
    if not names:
        raise ValueError("The pipeline has no transformer, so it has no encoder precision to set.")
    if "int8_quantizer" in nlp.pipe_names:
        raise ValueError(
            "The pipeline is quantized: its int8 layers run in float32 (load it without its int8_quantizer)."
        )
    for layer in hf_layers(nlp):
        if "cpu_autocast" in layer.attrs:
            layer.attrs["cpu_autocast"] = dtype
        elif dtype is not None:
            autocast_layer(layer, dtype)
    return names


def autocast_layer(layer: Model, dtype: Any) -> None:
    """Run the PyTorch wrapper `layer` (spacy-transformers' HFWrapper) under
    CPU autocast to `dtype`, with its floating-point outputs in float32 (the
    pooler's output comes out of autocast in bfloat16, which NumPy cannot
    hold). Its backward pass runs as recorded, outside autocast. The layer's
    `attrs["cpu_autocast"]` holds the dtype; setting it to None (as the
    int8 quantizer does while quantized) runs the layer in float32."""
    layer.attrs["cpu_autocast"] = dtype
    if layer._func is not _autocast_forward:
        layer.attrs["autocast_inner"] = layer._func
        layer._func = _autocast_forward


def _autocast_forward(model: Model, X: Any, is_train: bool) -> Tuple[Any, Callable]:
    # module-level, its state in attrs, so that the pipeline pickles (nlp.pipe(n_process=...) under spawn)
    import torch

    inner = model.attrs["autocast_inner"]
    dtype = model.attrs.get("cpu_autocast")
    if dtype is None:
        return inner(model, X, is_train)
    with torch.autocast("cpu", dtype=dtype):
        Y, backprop = inner(model, X, is_train)
    for key, value in list(Y.items()):
        if torch.is_tensor(value) and value.is_floating_point() and value.dtype != torch.float32:
            Y[key] = value.float()
    return Y, backprop
