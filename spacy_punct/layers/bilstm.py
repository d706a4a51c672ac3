"""A bidirectional LSTM encoder whose output for a doc does not depend on the
other docs of its batch.

spaCy's `spacy.TorchBiLSTMEncoder.v1` runs the LSTM over the zero-padded batch,
so the backward direction of a short doc reads the padding before its own last
token: the same text gets other vectors in another batch. This encoder packs
the sequences (`torch.nn.utils.rnn.pack_padded_sequence`), so each direction
reads only the doc's own tokens. The weights are those of the same
`torch.nn.LSTM`.
"""
from typing import Callable, List, Tuple, cast

import torch
from spacy.util import registry
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from thinc.api import ArgsKwargs, Model, PyTorchWrapper, noop, torch2xp, with_padded, xp2torch
from thinc.types import Floats2d, Floats3d, Padded


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
        # an empty doc is read as one step of padding, whose output is dropped
        packed = pack_padded_sequence(X, lengths.clamp(min=1), enforce_sorted=False)
        Y, _ = self.lstm(packed)
        Y, _ = pad_packed_sequence(Y, total_length=X.shape[0])
        return Y


def _padded_to_torch(model: Model, Xp: Padded, is_train: bool) -> Tuple[ArgsKwargs, Callable]:
    shim = model.shims[0]
    size_at_t, lengths, indices = Xp.size_at_t, Xp.lengths, Xp.indices

    def backprop(d_inputs: ArgsKwargs) -> Padded:
        return Padded(cast(Floats3d, torch2xp(d_inputs.args[0])), size_at_t, lengths, indices)

    X = xp2torch(Xp.data, requires_grad=is_train, device=shim.device)
    lengths_cpu = torch.as_tensor(model.ops.to_numpy(lengths), dtype=torch.int64)
    return ArgsKwargs(args=(X, lengths_cpu), kwargs={}), backprop


def _torch_to_padded(model: Model, inputs_outputs: Tuple, is_train: bool) -> Tuple[Padded, Callable]:
    Xp, Ytorch = inputs_outputs

    def backprop(dYp: Padded) -> ArgsKwargs:
        dY = xp2torch(dYp.data, device=model.shims[0].device)
        return ArgsKwargs(args=(Ytorch,), kwargs={"grad_tensors": dY})

    Y = cast(Floats3d, torch2xp(Ytorch))
    return Padded(Y, Xp.size_at_t, Xp.lengths, Xp.indices), backprop
