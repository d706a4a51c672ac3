"""Running a Hugging Face encoder so that a text's numbers do not depend on
the texts batched beside it.

Attention over a batch padded to its longest window computes a short
window's values with other kernel shapes than alone: they differ by about
1e-7. In float32 that is invisible, but an int8 layer rounds each value to one
of 255 steps, and a difference of 1e-7 at a step's edge moves a value by a
whole step, which the next layers carry on: `en_punct_trf` gave `the
meeting the We` alone and `the meeting, the We` beside another line (a class
probability moved by 0.024). Here the windows of a batch are run in groups of
the same length rounded up to `step` pieces, each group padded to exactly
that length: a window is computed in the same shapes in any batch.
"""

from typing import Any, Dict, Optional

import torch


class LengthBuckets(torch.nn.Module):
    """`model` (a BERT-like encoder taking right-padded `input_ids` and an
    `attention_mask`) run on each group of rows whose length rounds up to
    the same multiple of `step`, padded to that multiple."""

    def __init__(self, model: torch.nn.Module, step: int = 16) -> None:
        super().__init__()
        self.model = model
        self.step = step

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._modules["model"], name)  # config, embeddings...: the encoder's own

    def forward(self, input_ids: torch.Tensor, attention_mask: Optional[torch.Tensor] = None, **kwargs: Any) -> Any:
        token_type_ids = kwargs.pop("token_type_ids", None)
        plain = attention_mask is None or kwargs.get("output_hidden_states") or kwargs.get("output_attentions")
        lengths = attention_mask.sum(dim=1).long() if attention_mask is not None else None
        if plain or attention_mask is None or lengths is None or not _right_padded(attention_mask, lengths):
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids, **kwargs
            )
        sizes = (lengths + self.step - 1) // self.step * self.step
        n_rows, width = input_ids.shape
        pad = getattr(self.model.config, "pad_token_id", None) or 0
        hidden = None
        pooled = None
        for size in sorted(set(int(size) for size in sizes.tolist())):
            rows = torch.nonzero(sizes == size).squeeze(1)
            keep = min(size, width)
            group: Dict[str, torch.Tensor] = {
                "input_ids": _padded(input_ids[rows, :keep], size, pad),
                "attention_mask": _padded(attention_mask[rows, :keep], size, 0),
            }
            if token_type_ids is not None:
                group["token_type_ids"] = _padded(token_type_ids[rows, :keep], size, 0)
            output = self.model(**group, **kwargs)
            last = output.last_hidden_state
            if hidden is None:
                hidden = last.new_zeros(n_rows, width, last.shape[2])
                first = output
            hidden[rows, :keep] = last[:, :keep]
            if getattr(output, "pooler_output", None) is not None:
                if pooled is None:
                    pooled = output.pooler_output.new_zeros(n_rows, output.pooler_output.shape[1])
                pooled[rows] = output.pooler_output
        result = type(first)(last_hidden_state=hidden)
        if pooled is not None:
            result["pooler_output"] = pooled
        return result


def _right_padded(attention_mask: torch.Tensor, lengths: torch.Tensor) -> bool:
    positions = torch.arange(attention_mask.shape[1], device=attention_mask.device)
    return bool(((positions[None, :] < lengths[:, None]) == attention_mask.bool()).all())


def _padded(rows: torch.Tensor, size: int, value: int) -> torch.Tensor:
    if rows.shape[1] == size:
        return rows
    out = rows.new_full((rows.shape[0], size), value)
    out[:, : rows.shape[1]] = rows
    return out
