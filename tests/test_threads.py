import pytest
import torch

from spacy_punct.threads import set_threads


def test_set_threads():
    before = torch.get_num_threads()
    try:
        assert set_threads(1) == 1 == torch.get_num_threads()
        assert set_threads(None) == 1
        with pytest.raises(ValueError, match="at least 1"):
            set_threads(0)
    finally:
        torch.set_num_threads(before)
