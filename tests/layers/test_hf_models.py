"""Finding the Hugging Face models inside a pipeline, with the tiny local BERT."""

from spacy_punct.layers.hf_models import hf_layers, hf_models, hf_shims

from .test_transformer import trf_pipeline


def test_the_transformers_model_is_found_once(tiny_bert, trained):
    nlp = trf_pipeline(tiny_bert, cpu_precision="float32")
    nlp.initialize()
    (layer,) = hf_layers(nlp)
    (shim,) = hf_shims(nlp)
    ((name, model),) = list(hf_models(nlp))
    assert name == "transformer" and model is shim._model and shim in layer.shims
    assert hf_layers(trained) == [] and hf_shims(trained) == [] and list(hf_models(trained)) == []
