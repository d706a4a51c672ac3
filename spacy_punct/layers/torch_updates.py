"""How the project's PyTorch shims differ from thinc's: optimizer steps that
keep each PyTorch weight in its own tensor, and predictions that never
switch a shared module's mode.

thinc's `PyTorchShim.finish_update` hands the optimizer a NumPy (or CuPy)
view of each parameter's tensor, which the optimizer updates in place, and
then gives the parameter a new tensor made from that view
(`torch_data.data = xp2torch(param)`). The new tensor holds the view, the view
the tensor it was made from, and that one the one before: every step adds a
link per parameter to a chain that is never freed, and resident memory grows
for as long as training runs (Bangla on six encoder layers: 2.0 GB after half
a minute, 5.2 GB after five; a two-hour run was killed at 15.5 GB). Here each
parameter keeps its tensor: the optimizer's result is already in it, and is
copied into it where an optimizer returns another array. The arithmetic is
thinc's, so training gives the same weights.

thinc's `PyTorchShim.predict` puts the module in eval mode, runs it, and
puts it back in train mode. One pipeline called from several threads shares
the module: a thread that finished put it in train mode while another was
still reading, whose dropout then fired at inference (`en_punct_sm` from 4
threads: 146 of 180 documents came out other than from one thread). Here
`predict` leaves the module in eval mode, and `begin_update` puts it in train
mode as thinc's does.
"""

from typing import Any, cast

import torch
from thinc.api import ArgsKwargs, Model, Optimizer, torch2xp, xp2torch
from thinc.shims.pytorch import PyTorchShim
from thinc.types import FloatsXd


class InPlaceUpdates:
    """A `PyTorchShim` mixin: `finish_update` without the chain (see above)."""

    def finish_update(self: Any, optimizer: Optimizer) -> None:
        for name, torch_data in self._model.named_parameters():
            if torch_data.grad is None:
                continue
            if not self._grad_scaler.found_inf:  # skip the step where a gradient overflowed
                weights, gradient = cast(FloatsXd, torch2xp(torch_data.data)), cast(FloatsXd, torch2xp(torch_data.grad))
                param, _ = optimizer((self.id, name), weights, gradient)
                updated = xp2torch(param, device=torch_data.device)
                if updated.data_ptr() != torch_data.data_ptr():
                    with torch.no_grad():
                        torch_data.copy_(updated)
            torch_data.grad.zero_()
        self._grad_scaler.update()


class SteadyPredict:
    """A `PyTorchShim` mixin: `predict` without the switch back to train mode
    (see above); the outputs are thinc's."""

    def predict(self: Any, inputs: ArgsKwargs) -> Any:
        if self._model.training:
            self._model.eval()
        with torch.no_grad():
            with torch.autocast(device_type="cuda", enabled=self._mixed_precision):
                return self._model(*inputs.args, **inputs.kwargs)


class InPlacePyTorchShim(SteadyPredict, InPlaceUpdates, PyTorchShim):
    """thinc's `PyTorchShim`, its weights updated in place, its predictions
    safe from several threads."""


def update_in_place(model: Model) -> None:
    """Make every plain `PyTorchShim` in `model` update its weights in place
    (its class swapped; module-level, so the model still pickles)."""
    for node in model.walk():
        for shim in node.shims:
            if type(shim) is PyTorchShim:
                shim.__class__ = InPlacePyTorchShim
