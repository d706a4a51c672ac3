"""projects/benchmarks/avx2_speed.py: the int8 layers choose as on a CPU
without int8 instructions, and encoders cut to their lowest layers still run."""

import re

from spacy_punct.layers import int8_linear
from spacy_punct.layers.hf_models import hf_models

from ..conftest import TEXTS
from ..layers.test_transformer import trf_pipeline
from . import benchmark_script


def _module():
    return benchmark_script("avx2_speed")


def test_the_int8_layers_never_take_torchs_int8_product(monkeypatch):
    monkeypatch.setattr(int8_linear, "exact_products", int8_linear.exact_products)
    try:
        _module().without_int_mm()
        for bits in (7, 8):
            levels = int8_linear.weight_levels(bits)
            assert int8_linear.INT_MM not in int8_linear.exact_products(levels)
            assert int8_linear.FLOAT32 in int8_linear.exact_products(levels)
            assert int8_linear.fastest_product(levels) != int8_linear.INT_MM
    finally:
        int8_linear.fastest_product.cache_clear()


def test_a_cut_keeps_the_lowest_layers_of_every_encoder_and_runs(tiny_bert):
    nlp = trf_pipeline(tiny_bert)
    nlp.initialize()
    _module().cut_layers(nlp, 1)
    models = [model for _, model in hf_models(nlp)]
    assert models and all(len(model.encoder.layer) == 1 for model in models)
    assert all(model.config.num_hidden_layers == 1 for model in models)
    words = [re.findall(r"\w+", doc.text.lower()) for doc in nlp.pipe(TEXTS[:2])]
    assert words == [re.findall(r"\w+", text.lower()) for text in TEXTS[:2]]


def test_the_arguments_are_read_as_pairs_or_refused():
    module = _module()
    assert module.pairs(["hu_punct_trf=3"], "PIPELINE=N") == [("hu_punct_trf", "3")]
    try:
        module.pairs(["hu_punct_trf"], "PIPELINE=N")
    except SystemExit as e:
        assert "is not PIPELINE=N" in str(e)
    else:
        raise AssertionError("a value without '=' was taken")
