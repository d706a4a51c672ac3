"""Words per second side by side: the lines timed and the rounds."""

import gzip

import pytest
import spacy

from spacy_punct.evaluation.speed import benchmark_lines, compare_speeds, count_words, words_per_second
from spacy_punct.formats.textio import InputError

from ..conftest import TEXTS


def test_a_test_set_is_read_as_evaluate_reads_it_and_cut_into_lines(nlp, corpus_path):
    lines = benchmark_lines(nlp, corpus_path, words_per_line=7)
    words = " ".join(benchmark_lines(nlp, corpus_path, words_per_line=0)).split()
    assert len(words) == 70 and all(word.islower() or not word.isalpha() for word in words)
    assert "?" not in words and "," not in words
    assert [len(line.split()) for line in lines] == [7] * 10
    assert " ".join(lines).split() == words
    whole = benchmark_lines(nlp, corpus_path, words_per_line=0)
    assert len(whole) == len(TEXTS) and whole[0].startswith("so how was the trip it was long")


def test_a_text_file_is_read_line_by_line(nlp, tmp_path):
    path = tmp_path / "in.txt.gz"
    path.write_bytes(gzip.compress("so how was it\r\n\r\n   \nwhere did you stay\n".encode("utf8")))
    assert benchmark_lines(nlp, path) == ["so how was it", "where did you stay"]


@pytest.mark.parametrize("content", [b"", b"\n  \n\t\n"])
def test_no_words_no_benchmark(nlp, tmp_path, content):
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="no words to time"):
        benchmark_lines(nlp, path)


def test_binary_input_is_refused(nlp, tmp_path):
    path = tmp_path / "model.bin"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(InputError):
        benchmark_lines(nlp, path)


def test_every_pipeline_is_timed_each_round():
    pipelines = {"a": spacy.blank("en"), "b": spacy.blank("en")}
    timed = []
    lines = ["so how was the trip", "where did you stay"] * 20
    speeds = compare_speeds(pipelines, lines, batch_size=8, rounds=3, progress=timed.append)
    assert list(speeds) == ["a", "b"] and all(rate > 0 for rate in speeds.values())
    assert timed == [1] * 6
    assert count_words(lines) == 180 and words_per_second(pipelines["a"], lines, 8) > 0
    with pytest.raises(ValueError, match="rounds >= 1"):
        compare_speeds(pipelines, lines, rounds=0)
    with pytest.raises(ValueError, match="n_process >= 1"):
        compare_speeds(pipelines, lines, n_process=0)


def test_the_machine_names_the_cpu_and_how_int8_products_run(monkeypatch):
    from spacy_punct import benchmark

    asked = []
    for way, words in benchmark.PRODUCT_NAMES.items():
        monkeypatch.setattr(benchmark, "fastest_product", lambda levels, way=way: asked.append(levels) or way)
        assert benchmark.machine() == {
            "cpu": benchmark.cpu_name(),
            "instructions": benchmark.vector_instructions(benchmark.cpu_flags()),
            "int8_products": words,
        }
    assert benchmark.machine([8])["int8_products"] == benchmark.PRODUCT_NAMES["float32"]
    assert asked == [63, 63, 63, 127]  # the quantizer's default weights, 7 bits, unless told
    monkeypatch.setattr(benchmark, "fastest_product", lambda levels: "float32" if levels == 127 else "fbgemm u8s8")
    both = benchmark.machine([7, 8])["int8_products"]
    assert both == "fbgemm's int8 kernels and float32 (no fast int8 product)"
    assert benchmark.machine([])["int8_products"] == "none (no int8 layers)"
    assert benchmark.cpu_name() not in ("", "unknown")


def test_the_machine_says_which_vector_instructions_the_cpu_has():
    from spacy_punct.evaluation.speed import machine_in_words, vector_instructions

    # an AVX2 CPU without int8 dot products and one with them share a name
    assert vector_instructions(["fpu", "avx", "avx2", "fma"]) == "avx2"
    assert vector_instructions(["avx512_vnni", "avx2", "avx512f", "avx_vnni"]) == "avx2, avx512f, avx512_vnni, avx_vnni"
    assert vector_instructions([]).startswith("none of avx2")
    host = {"cpu": "AMD EPYC", "instructions": "avx2", "int8_products": "fbgemm's int8 kernels"}
    assert machine_in_words(host) == "AMD EPYC (avx2), the int8 layers' products in fbgemm's int8 kernels"
    del host["instructions"]  # a record written before the instructions were
    assert machine_in_words(host) == "AMD EPYC, the int8 layers' products in fbgemm's int8 kernels"


def test_the_int8_weight_bits_are_those_of_the_pipelines_quantizer():
    from spacy_punct import load_pipeline
    from spacy_punct.evaluation.speed import int8_weight_bits

    assert int8_weight_bits(load_pipeline("en_punct_trf")) == {7}
    assert int8_weight_bits(load_pipeline("en_punct_sm")) == set()
