"""The length buckets: a BERT's tokens packed through its token-wise layers."""

import pytest
import torch

from spacy_punct.layers import length_buckets
from spacy_punct.layers.int8_linear import int8_copy
from spacy_punct.layers.length_buckets import LengthBuckets


def _bert(int8: bool) -> torch.nn.Module:
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=50,
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        attn_implementation="sdpa",
    )
    model = BertModel(config).eval()
    return LengthBuckets(int8_copy(model) if int8 else model, step=4)


def _batch(lengths, width):
    generator = torch.Generator().manual_seed(1)
    ids = torch.randint(1, 50, (len(lengths), width), generator=generator)
    mask = (torch.arange(width)[None, :] < torch.tensor(lengths)[:, None]).long()
    return ids * mask, mask


@pytest.mark.parametrize("int8", [True, False])
def test_packed_tokens_give_the_groups_numbers_to_the_bit(int8, monkeypatch):
    model = _bert(int8)
    ids, mask = _batch([3, 9, 4, 12, 1, 9], 12)
    with torch.no_grad():
        assert length_buckets._packs(model.model, {})
        packed = model(input_ids=ids, attention_mask=mask)
        monkeypatch.setattr(length_buckets, "_packs", lambda model, kwargs: False)
        grouped = model(input_ids=ids, attention_mask=mask)
    real = mask.bool()
    if int8:  # integer products: exact in any shape
        assert torch.equal(packed.last_hidden_state[real], grouped.last_hidden_state[real])
        assert torch.equal(packed.pooler_output, grouped.pooler_output)
    else:  # float products of other shapes differ in the last bits
        torch.testing.assert_close(packed.last_hidden_state[real], grouped.last_hidden_state[real])
        torch.testing.assert_close(packed.pooler_output, grouped.pooler_output)
    assert not packed.last_hidden_state[~real].any()  # padding holds nothing


def test_a_rows_numbers_do_not_depend_on_its_batch():
    model = _bert(True)
    ids, mask = _batch([5, 9, 2, 7], 9)
    with torch.no_grad():
        together = model(input_ids=ids, attention_mask=mask).last_hidden_state
        for row in range(4):
            length = int(mask[row].sum())
            alone = model(input_ids=ids[row : row + 1, :length], attention_mask=mask[row : row + 1, :length])
            assert torch.equal(alone.last_hidden_state[0], together[row, :length])


def test_training_and_other_outputs_run_the_whole_model():
    model = _bert(False)
    with torch.no_grad():
        assert not length_buckets._packs(model.model, {"output_hidden_states": True})
    assert not length_buckets._packs(model.model, {})  # gradients on: a training step
    model.train()
    with torch.no_grad():
        assert not length_buckets._packs(model.model, {})
