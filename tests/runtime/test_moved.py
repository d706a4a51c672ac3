"""The modules' old import paths still lead to them."""

import importlib
import pickle

import pytest

from spacy_punct.runtime.moved import MOVED


@pytest.mark.parametrize("old,new", sorted(MOVED.items()))
def test_an_old_import_path_gives_the_module_at_its_new_one(old, new):
    if "distributed" in new:
        pytest.importorskip("ray")
    assert importlib.import_module(old) is importlib.import_module(new)


def test_a_pickle_that_names_an_old_path_loads():
    # what a pipeline pickled before the move names: a function of layers.autocast
    data = b"\x80\x04cspacy_punct.layers.autocast\n_autocast_forward\n."
    from spacy_punct.layers.transformer import _autocast_forward

    assert pickle.loads(data) is _autocast_forward


def test_old_from_imports_work():
    from spacy_punct import Streamer as exported
    from spacy_punct import punctuate as punctuate_exported
    from spacy_punct.streaming import Streamer
    from spacy_punct.texts import punctuate

    assert Streamer is exported and punctuate is punctuate_exported
