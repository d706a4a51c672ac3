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

Only attention mixes a window's tokens; the linear layers, layer norms and
activations work on each token alone. So a BERT (`packed_forward`) runs
those on all the batch's tokens at once, packed without padding, and only
its attention group by group: the numbers are those of the groups run one by
one, to the bit, while a batch of a few short texts of different lengths
takes one product per layer instead of one per group (each of a few rows,
where the int8 products are several times slower a row).
"""

from typing import Any, Dict, List, Optional, Tuple

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
        if _packs(self.model, kwargs):
            return packed_forward(self.model, input_ids, attention_mask, token_type_ids, lengths, sizes)
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


def _packs(model: Any, kwargs: Dict[str, Any]) -> bool:
    """Whether `packed_forward` computes what `model` would: a BERT encoder
    with absolute positions and SDPA attention, run for inference."""
    from transformers import BertModel
    from transformers.models.bert.modeling_bert import BertSdpaSelfAttention

    config = model.config
    return (
        isinstance(model, BertModel)
        and not model.training
        and not torch.is_grad_enabled()
        and not config.is_decoder
        and getattr(config, "position_embedding_type", "absolute") == "absolute"
        and getattr(config, "_attn_implementation", None) == "sdpa"
        and all(type(layer.attention.self) is BertSdpaSelfAttention for layer in model.encoder.layer)
        and not any(kwargs.get(key) is not None for key in ("head_mask", "inputs_embeds", "position_ids"))
        and not any(kwargs.get(key) for key in ("output_attentions", "output_hidden_states"))
    )


def packed_forward(
    model: Any,
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    token_type_ids: Optional[torch.Tensor],
    lengths: torch.Tensor,
    sizes: torch.Tensor,
) -> Any:
    """A BERT's output on right-padded rows, the tokens of all rows through
    each token-wise layer at once and attention run per group of rows of one
    `size`, padded to it, as `LengthBuckets` runs the whole model."""
    from transformers.modeling_attn_mask_utils import _prepare_4d_attention_mask_for_sdpa
    from transformers.modeling_outputs import BaseModelOutputWithPoolingAndCrossAttentions

    n_rows, width = input_ids.shape
    real = attention_mask.bool()
    n_tokens = int(real.sum())
    token_at = torch.full((n_rows, width), n_tokens, dtype=torch.long)  # n_tokens: a padding row
    token_at[real] = torch.arange(n_tokens)
    positions = torch.arange(width).expand(n_rows, width)
    types = token_type_ids if token_type_ids is not None else torch.zeros_like(input_ids)
    hidden = model.embeddings(
        input_ids=input_ids[real][None], position_ids=positions[real][None], token_type_ids=types[real][None]
    )[0]
    groups: List[Tuple[torch.Tensor, torch.Tensor, Optional[torch.Tensor]]] = []
    for size in sorted(set(int(size) for size in sizes.tolist())):
        if size == 0:
            continue
        rows = torch.nonzero(sizes == size).squeeze(1)
        keep = min(size, width)
        index = _padded(token_at[rows, :keep], size, n_tokens)
        mask = _prepare_4d_attention_mask_for_sdpa(
            _padded(attention_mask[rows, :keep], size, 0), hidden.dtype, tgt_len=size
        )
        groups.append((index, index < n_tokens, mask))
    for layer in model.encoder.layer:
        attention = layer.attention.self
        heads, head_size = attention.num_attention_heads, attention.attention_head_size
        padded = [
            torch.cat([projection(hidden), hidden.new_zeros(1, heads * head_size)])
            for projection in (
                attention.query,
                attention.key,
                attention.value,
            )
        ]
        context = hidden.new_zeros(n_tokens, heads * head_size)
        for index, is_real, mask in groups:
            n, size = index.shape
            query, key, value = (values[index].view(n, size, heads, head_size).permute(0, 2, 1, 3) for values in padded)
            out = torch.nn.functional.scaled_dot_product_attention(query, key, value, attn_mask=mask)
            out = out.transpose(1, 2).reshape(n, size, heads * head_size)
            context[index[is_real]] = out[is_real]
        attended = layer.attention.output(context, hidden)
        hidden = layer.output(layer.intermediate(attended), attended)
    last = hidden.new_zeros(n_rows, width, hidden.shape[1])
    last[real] = hidden
    pooled = model.pooler(last) if model.pooler is not None else None
    return BaseModelOutputWithPoolingAndCrossAttentions(last_hidden_state=last, pooler_output=pooled)
