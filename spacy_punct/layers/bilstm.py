"""A bidirectional LSTM encoder whose output for a doc does not depend on the
other docs of its batch.

spaCy's `spacy.TorchBiLSTMEncoder.v1` runs the LSTM over the zero-padded batch,
so the backward direction of a short doc reads the padding before its own last
token: the same text gets other vectors in another batch. This encoder packs
the sequences (`torch.nn.utils.rnn.pack_padded_sequence`), so each direction
reads only the doc's own tokens. The weights are those of the same
`torch.nn.LSTM`.

Torch's fused CPU kernel (oneDNN) takes padded batches only, and runs a packed
one step by step, two to three times slower, in training as at inference. On
the CPU each direction of each layer therefore runs as a one-way LSTM over
the padded batch, the backward one over every doc reversed within its own
length: the padding comes after each doc's tokens in both directions, so the
outputs and gradients are those of the packed run (which other devices take).
At inference the docs of each length run together with no padding at all:
with mixed lengths, a third faster than the padded batch.
"""

from typing import Callable, List, Tuple, cast

import torch
from spacy.util import registry
from thinc.api import ArgsKwargs, Model, PyTorchWrapper, noop, torch2xp, with_padded, xp2torch
from thinc.types import Floats2d, Floats3d, Padded
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .torch_updates import update_in_place


@registry.architectures("spacy_punct.BiLSTMEncoder.v1")
def build_bilstm_encoder(width: int, depth: int, dropout: float) -> Model[List[Floats2d], List[Floats2d]]:
    """Encode context with `depth` bidirectional LSTM layers of `width` units
    (half per direction); `dropout` between layers. Input and output width are
    `width`, as for `spacy.TorchBiLSTMEncoder.v1`, for which it is a drop-in
    replacement in a `spacy.Tok2Vec.v2`."""
    if depth == 0:
        return noop()
    lstm = PackedBiLSTM(torch.nn.LSTM(width, width // 2, depth, bidirectional=True, dropout=dropout))
    wrapper = PyTorchWrapper(lstm, convert_inputs=_padded_to_torch, convert_outputs=_torch_to_padded)
    wrapper.set_dim("nI", width)
    wrapper.set_dim("nO", width)
    update_in_place(wrapper)
    return with_padded(wrapper)


class PackedBiLSTM(torch.nn.Module):
    """A bidirectional `torch.nn.LSTM` run over packed sequences, taking and
    giving padded tensors (time, batch, width)."""

    def __init__(self, lstm: torch.nn.LSTM) -> None:
        super().__init__()
        self.lstm = lstm

    def forward(self, X: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        if X.shape[0] == 0:  # every doc of the batch is empty
            return X.new_zeros(X.shape[0], X.shape[1], 2 * self.lstm.hidden_size)
        if X.device.type != "cpu":
            return self._packed_forward(X, lengths)
        if self.training or torch.is_grad_enabled():
            return self._padded_forward(X, lengths)
        return self._grouped_forward(X, lengths)

    def _packed_forward(self, X: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        # an empty doc is read as one step of padding, whose output is dropped
        packed = pack_padded_sequence(X, lengths.clamp(min=1), enforce_sorted=False)
        Y, _ = self.lstm(packed)
        Y, _ = pad_packed_sequence(Y, total_length=X.shape[0])
        return Y

    def _padded_forward(self, X: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """The packed run's outputs (zero on padding), direction by direction
        over the padded batch."""
        steps = torch.arange(X.shape[0]).unsqueeze(1)
        lengths = lengths.unsqueeze(0)
        valid = steps < lengths
        # step t of a doc reversed within its length; padding stays in place
        reverse = torch.where(valid, lengths - 1 - steps, steps).unsqueeze(2)
        mask = valid.unsqueeze(2).to(X.dtype)
        H = X * mask
        for layer in range(self.lstm.num_layers):
            if layer:  # as torch.nn.LSTM: dropout on the outputs of every layer but the last
                H = torch.nn.functional.dropout(H, self.lstm.dropout, self.training)
            forward = self._run_one_way(H, layer, "")
            backward = self._run_one_way(H.gather(0, reverse.expand_as(H)), layer, "_reverse")
            backward = backward.gather(0, reverse.expand_as(backward))
            H = torch.cat([forward, backward], dim=2) * mask
        return H

    def _grouped_forward(self, X: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """The packed run's outputs at inference: the docs of each length read
        together, with no padding (less work than the padded batch when the
        lengths are mixed)."""
        Y = X.new_zeros(X.shape[0], X.shape[1], 2 * self.lstm.hidden_size)
        for length in lengths.unique().tolist():
            if length == 0:
                continue
            docs = (lengths == length).nonzero().squeeze(1)
            H = X[:length, docs]
            for layer in range(self.lstm.num_layers):
                forward = self._run_one_way(H, layer, "")
                backward = self._run_one_way(H.flip(0), layer, "_reverse").flip(0)
                H = torch.cat([forward, backward], dim=2)
            Y[:length, docs] = H
        return Y

    def _run_one_way(self, H: torch.Tensor, layer: int, direction: str) -> torch.Tensor:
        # torch.lstm, the functional form: the weights are arguments, so threads
        # sharing this module never see each other's (torch.func.functional_call
        # swaps them into a shared module for the call)
        weights = [
            getattr(self.lstm, f"{name}_l{layer}{direction}")
            for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        ]
        zeros = H.new_zeros(1, H.shape[1], self.lstm.hidden_size)
        return torch.lstm(H, (zeros, zeros), weights, True, 1, 0.0, self.training, False, False)[0]


def _padded_to_torch(model: Model, Xp: Padded, is_train: bool) -> Tuple[ArgsKwargs, Callable]:
    shim = model.shims[0]
    size_at_t, lengths, indices = Xp.size_at_t, Xp.lengths, Xp.indices

    def backprop(d_inputs: ArgsKwargs) -> Padded:
        return Padded(cast(Floats3d, torch2xp(d_inputs.args[0])), size_at_t, lengths, indices)

    X = xp2torch(Xp.data, requires_grad=is_train, device=getattr(shim, "device"))
    lengths_cpu = torch.as_tensor(model.ops.to_numpy(lengths), dtype=torch.int64)
    return ArgsKwargs(args=(X, lengths_cpu), kwargs={}), backprop


def _torch_to_padded(model: Model, inputs_outputs: Tuple, is_train: bool) -> Tuple[Padded, Callable]:
    Xp, Ytorch = inputs_outputs

    def backprop(dYp: Padded) -> ArgsKwargs:
        dY = xp2torch(dYp.data, device=getattr(model.shims[0], "device"))
        return ArgsKwargs(args=(Ytorch,), kwargs={"grad_tensors": dY})

    Y = cast(Floats3d, torch2xp(Ytorch))
    return Padded(Y, Xp.size_at_t, Xp.lengths, Xp.indices), backprop
