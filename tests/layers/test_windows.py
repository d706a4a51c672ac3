import pytest
from spacy.tokens import Doc, DocBin

from spacy_punct.layers.windows import set_windows, transformer_names

from ..conftest import TEXTS, reader_examples
from .test_transformer import trf_pipeline


@pytest.fixture(scope="module")
def trf_nlp(tiny_bert, tmp_path_factory):
    nlp = trf_pipeline(tiny_bert, window=32, stride=24)
    path = tmp_path_factory.mktemp("windows") / "tiny.spacy"
    DocBin(docs=[nlp.make_doc(t) for t in TEXTS]).to_disk(path)
    examples = reader_examples(nlp, path)
    nlp.initialize(lambda: examples)
    return nlp


@pytest.mark.parametrize("stride,expected", [(32, 4), (16, 7), (8, 13)])
def test_set_windows_predictions_per_token(trf_nlp, stride, expected):
    assert set_windows(trf_nlp, 32, stride) == ["transformer"]
    spans = trf_nlp.get_pipe("transformer").model.attrs["get_spans"]([Doc(trf_nlp.vocab, words=["w"] * 128)])[0]
    assert len(spans) == expected
    covered = [sum(span.start <= i < span.end for span in spans) for i in range(128)]
    assert max(covered) == 32 // stride and min(covered) >= 1
    doc = trf_nlp("so how was the trip it was long but we saw the coast " * 10)
    assert len(doc) > 100


def test_a_stride_alone_keeps_the_configured_window(trf_nlp):
    """window 0 is the configured window (32 here), stride 0 the window."""
    set_windows(trf_nlp, 0, 8)
    spans = trf_nlp.get_pipe("transformer").model.attrs["get_spans"]([Doc(trf_nlp.vocab, words=["w"] * 128)])[0]
    assert {len(span) for span in spans[:-4]} == {32} and spans[1].start == 8
    set_windows(trf_nlp, 16, 0)
    spans = trf_nlp.get_pipe("transformer").model.attrs["get_spans"]([Doc(trf_nlp.vocab, words=["w"] * 128)])[0]
    assert [span.start for span in spans] == list(range(0, 128, 16))
    set_windows(trf_nlp, 32, 24)


def test_set_windows_keeps_counting_words(trf_nlp):
    """With `spacy_punct.word_strided_spans.v1` configured, the new windows
    count words too: whitespace tokens take no place."""
    set_windows(trf_nlp, 8, 8)
    doc = trf_nlp.make_doc("\n".join(["w"] * 32))
    spans = trf_nlp.get_pipe("transformer").model.attrs["get_spans"]([doc])[0]
    assert [sum(not t.is_space for t in span) for span in spans] == [8, 8, 8, 8]
    set_windows(trf_nlp, 32, 24)


def test_set_windows_refuses_bad_values_and_tok2vec_pipelines(trf_nlp, trained):
    with pytest.raises(ValueError, match="stride"):
        set_windows(trf_nlp, 32, 64)
    with pytest.raises(ValueError, match="stride"):
        set_windows(trf_nlp, 0, 64)  # the configured window is 32
    with pytest.raises(ValueError, match="no transformer"):
        set_windows(trained, 32, 16)
    assert transformer_names(trained) == []


def test_cli_sets_windows(trf_nlp, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import spacy_punct.layers.windows
    from spacy_punct.cli import app

    calls = []

    def recording_set_windows(nlp, window, stride):
        calls.append((window, stride))
        return set_windows(nlp, window, stride)

    monkeypatch.setattr(spacy_punct.layers.windows, "set_windows", recording_set_windows)
    trf_nlp.to_disk(tmp_path / "model")
    args = ["punctuate", str(tmp_path / "model"), "--window", "16", "--stride", "4", "--format", "jsonl"]
    result = CliRunner().invoke(app, args, input="so how was the trip it was long but we saw the coast\n")
    assert result.exit_code == 0, result.output
    assert '"text": "so how was the trip it was long but we saw the coast"' in result.output
    assert calls == [(16, 4)]
