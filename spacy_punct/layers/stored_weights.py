"""How a transformer's weights are stored when its pipeline is saved.

spacy-transformers saves an encoder's weights as float32 (all-MiniLM-L6-v2
cut to three layers: 68 MB, two thirds of it the word-piece table). With
`weights_storage = "int8"` every weight matrix (the word-piece, position and
type tables and the linear layers' weights) is saved as int8 with one float32
scale per row, and read back into float32 when the pipeline is loaded: a
quarter of the size, and a pipeline that loads and trains as any other. The
linear layers' rows are their output channels, which is how the int8
quantizer (`spacy_punct.components.quantizer`) quantizes them again at inference, so the
quantized pipeline runs on nearly the values it was saved with. Biases and
layer norms stay float32.

The shim also builds the model it loads from the class its config names
(`BertModel` for "bert"), not through `AutoModel.from_config`, which first
imports every model type transformers knows: 0.9 s of each pipeline's load.
"""

import contextlib
from io import BytesIO
from typing import Any, Dict

import srsly
import torch
from spacy_transformers.layers.hf_shim import HFShim
from thinc.api import Model

from .torch_updates import InPlaceUpdates, SteadyPredict

WEIGHTS_STORAGES = ("float32", "int8")
INT8_SUFFIX = ".__int8__"
SCALE_SUFFIX = ".__scale__"


def store_weights(model: Model, weights_storage: str) -> None:
    """Save the spacy-transformers `TransformerModel` `model`'s encoder
    weights in `weights_storage`; either storage is read back on loading."""
    if weights_storage not in WEIGHTS_STORAGES:
        raise ValueError(f"weights_storage must be one of {', '.join(WEIGHTS_STORAGES)}, not {weights_storage!r}.")
    for layer in model.walk():
        for shim in layer.shims:
            if isinstance(shim, HFShim):
                # the shim is made inside spacy-transformers' TransformerModel: its
                # class is swapped for the subclass that only changes (de)serialization
                shim.__class__ = StoredHFShim
                setattr(shim, "weights_storage", weights_storage)
                shim.model_cls = ConfiguredModelClass(shim.model_cls)


class ConfiguredModelClass:
    """What `HFShim.from_bytes` asks of `AutoModel` (`from_config`),
    answered by the model class that the config's `model_type` names, and
    by `auto` (AutoModel) for a type transformers does not map."""

    def __init__(self, auto: Any) -> None:
        self.auto = auto

    def from_config(self, config: Any) -> Any:
        import transformers
        from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES

        if getattr(config, "_attn_implementation_autoset", False):
            # transformers 4.46 saves in the config that it chose the attention
            # itself; read back, that mark kept it from choosing again and the
            # model ran the unfused "eager" attention, not the one it was trained with
            config._attn_implementation_autoset = False
        name = MODEL_MAPPING_NAMES.get(str(getattr(config, "model_type", "")))
        model_class = getattr(transformers, name, None) if isinstance(name, str) else None
        if model_class is None:
            return self.auto.from_config(config)
        return model_class._from_config(config)


class StoredHFShim(SteadyPredict, InPlaceUpdates, HFShim):
    """spacy-transformers' `HFShim`, its weights saved in `weights_storage`,
    updated in place, and its predictions safe from several threads
    (`torch_updates`)."""

    weights_storage = "float32"

    def to_bytes(self) -> bytes:
        data = super().to_bytes()
        if self.weights_storage == "float32":
            return data
        msg = srsly.msgpack_loads(data)
        if msg["state"]:
            msg["state"] = _save(compact_state(_load(msg["state"])))
            msg["weights_storage"] = self.weights_storage
        return srsly.msgpack_dumps(msg)

    def from_bytes(self, bytes_data: bytes) -> "StoredHFShim":
        msg = srsly.msgpack_loads(bytes_data)
        if msg.get("weights_storage", "float32") != "float32":
            msg["state"] = _save(expand_state(_load(msg.pop("state"))))
            del msg["weights_storage"]
            bytes_data = srsly.msgpack_dumps(msg)
        # the model is built from its config and then given the saved weights:
        # initializing it at random first would be time thrown away
        with _no_init_weights():
            return super().from_bytes(bytes_data)


def compact_state(state: Dict[str, Any]) -> Dict[str, Any]:
    """The state dict with each floating-point matrix as int8 rows and a
    float32 scale per row (the row's largest magnitude over 127)."""
    compact = {}
    for key, value in state.items():
        if torch.is_tensor(value) and value.is_floating_point() and value.dim() == 2:
            value = value.float()
            scale = value.abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / 127.0
            compact[key + INT8_SUFFIX] = torch.round(value / scale).to(torch.int8)
            compact[key + SCALE_SUFFIX] = scale
        else:
            compact[key] = value
    return compact


def expand_state(compact: Dict[str, Any]) -> Dict[str, Any]:
    """The float32 state dict of a `compact_state`."""
    state = {}
    for key, value in compact.items():
        if key.endswith(INT8_SUFFIX):
            name = key[: -len(INT8_SUFFIX)]
            state[name] = value.float() * compact[name + SCALE_SUFFIX]
        elif not key.endswith(SCALE_SUFFIX):
            state[key] = value
    return state


def _no_init_weights() -> Any:
    """transformers' context in which a model built from its config skips
    initializing its weights (a no-op context where transformers lacks it)."""
    try:
        from transformers.modeling_utils import no_init_weights
    except ImportError:
        return contextlib.nullcontext()
    return no_init_weights()


def _load(data: bytes) -> Dict[str, Any]:
    return torch.load(BytesIO(data), map_location="cpu", weights_only=True)  # tensors only: no code runs


def _save(state: Dict[str, Any]) -> bytes:
    buffer = BytesIO()
    torch.save(state, buffer)
    return buffer.getvalue()
