"""multilingual-e5-small's container as a Hugging Face folder, on a tiny container of the same layout."""

import struct
import sys
from pathlib import Path

import numpy
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))  # a build tool, not the library
from e5_container import (  # noqa: E402
    ContainerError,
    build_hf_folder,
    dequantize_q4_0,
    pieces_for_texts,
    read_container,
    subset_container,
)

H, LAYERS, HEADS, FF, POSITIONS, TYPES = 32, 1, 2, 64, 16, 2
PIECES = ["<s>", "<pad>", "</s>", "<unk>", "\u2581", "\u2581so", "\u2581how", "\u2581was", "\u2581it", "s", "o", "."]


def _q4_0(values):
    """Encode float values as Q4_0 blocks (what the container stores)."""
    out = b""
    for block in values.reshape(-1, 32):
        scale = numpy.float16(numpy.abs(block).max() / 8 or 1.0)
        nibbles = numpy.clip(numpy.round(block / numpy.float32(scale)) + 8, 0, 15).astype(numpy.uint8)
        out += scale.tobytes() + (nibbles[:16] | (nibbles[16:] << 4)).tobytes()
    return out


def _container(path, rng, extra_rows=0):
    """A container of PIECES; `extra_rows` more embedding rows than pieces, as
    multilingual-e5-small's matrix has (250,037 rows, 250,002 pieces)."""
    tensors, quantized = {}, set()

    def add(name, shape, q4=False):
        tensors[name] = rng.standard_normal(shape).astype(numpy.float32) * 0.1
        if q4:
            quantized.add(name)

    vocab = len(PIECES) + extra_rows
    add("emb.word", (vocab, H), q4=True)
    add("emb.pos", (POSITIONS, H))
    add("emb.type", (TYPES, H))
    tensors["emb.ln.w"], tensors["emb.ln.b"] = numpy.ones(H, "f"), numpy.zeros(H, "f")
    for i in range(LAYERS):
        for part, shape in (
            ("q", (H, H)),
            ("k", (H, H)),
            ("v", (H, H)),
            ("ao", (H, H)),
            ("fi", (FF, H)),
            ("fo", (H, FF)),
        ):
            add(f"l{i}.{part}.w", shape, q4=True)
            add(f"l{i}.{part}.b", (shape[0],))
        for part in ("aln", "oln"):
            tensors[f"l{i}.{part}.w"], tensors[f"l{i}.{part}.b"] = numpy.ones(H, "f"), numpy.zeros(H, "f")
    header = b"E5S1" + struct.pack("<I7ifi", 1, H, LAYERS, HEADS, FF, vocab, POSITIONS, TYPES, 1e-12, 32)
    blob = "".join(PIECES).encode("utf8")
    offsets = numpy.cumsum([0] + [len(p.encode("utf8")) for p in PIECES]).tolist()
    tokenizer = struct.pack("<5iQ", len(PIECES), 0, 2, 1, 3, len(blob))
    tokenizer += struct.pack(f"<{len(offsets)}I", *offsets) + struct.pack(
        f"<{len(PIECES)}f", *[-float(i) for i in range(len(PIECES))]
    )
    tokenizer += blob
    norm_entries = struct.pack("<IB", 0x3000, 1) + struct.pack("<I", 0x20)  # ideographic space -> space
    tokenizer += struct.pack("<iI", 1, len(norm_entries)) + norm_entries
    payloads = {name: _q4_0(values) if name in quantized else values.tobytes() for name, values in tensors.items()}
    directory_size = 4 + sum(2 + len(name) + 1 + 4 + 8 + 8 for name in tensors)
    offset = len(header) + len(tokenizer) + directory_size
    directory, data = struct.pack("<i", len(tensors)), b""
    for name, payload in payloads.items():
        directory += struct.pack("<H", len(name)) + name.encode("ascii")
        directory += struct.pack(
            "<BIQQ", 1 if name in quantized else 0, tensors[name].size, offset + len(data), len(payload)
        )
        data += payload
    path.write_bytes(header + tokenizer + directory + data)
    return tensors, quantized


def test_q4_0_blocks_read_back_as_the_package_writes_them():
    values = numpy.tile(numpy.arange(-8, 8, dtype=numpy.float32), 2) * 0.25  # on the 4-bit grid of scale 0.25
    assert numpy.array_equal(dequantize_q4_0(_q4_0(values), 32), values)


def test_a_tiny_container_becomes_a_hugging_face_folder(tmp_path):
    rng = numpy.random.default_rng(0)
    tensors, quantized = _container(tmp_path / "tiny.bin", rng)
    model = read_container(tmp_path / "tiny.bin")
    assert (model.hidden, model.layers, model.heads, model.vocab) == (H, LAYERS, HEADS, len(PIECES))
    assert model.pieces == PIECES and model.special == {"bos": 0, "eos": 2, "pad": 1, "unk": 3}
    assert model.normalisation == {0x3000: (0x20,)}
    for name, values in tensors.items():  # 4-bit matrices within a step of their values, the rest exact
        read = model.tensors[name].reshape(values.shape)
        assert numpy.abs(read - values).max() <= (1.01 * numpy.abs(values).max() / 8 if name in quantized else 0)

    from transformers import AutoModel, AutoTokenizer

    build_hf_folder(tmp_path / "tiny.bin", tmp_path / "hf")
    tokenizer = AutoTokenizer.from_pretrained(tmp_path / "hf")
    assert tokenizer.convert_ids_to_tokens(tokenizer("so how was it")["input_ids"]) == [
        "<s>",
        "\u2581so",
        "\u2581how",
        "\u2581was",
        "\u2581it",
        "</s>",
    ]
    bert = AutoModel.from_pretrained(tmp_path / "hf")
    weight = bert.encoder.layer[0].attention.self.query.weight.detach().numpy()
    assert numpy.array_equal(weight, model.tensors["l0.q.w"].reshape(H, H))


def test_another_file_is_refused(tmp_path):
    (tmp_path / "x.bin").write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(ContainerError, match="not an E5S1 container"):
        read_container(tmp_path / "x.bin")


def test_a_cut_container_keeps_the_values_and_pieces_it_keeps(tmp_path):
    rng = numpy.random.default_rng(1)
    _container(tmp_path / "tiny.bin", rng)
    full = read_container(tmp_path / "tiny.bin")
    keep = [PIECES.index(p) for p in ("\u2581so", "\u2581it", "s")]
    assert subset_container(tmp_path / "tiny.bin", tmp_path / "cut.bin", keep, layers=1) == 3 + 4  # with the specials
    cut = read_container(tmp_path / "cut.bin")
    kept = sorted(set(keep) | {0, 1, 2, 3})
    assert cut.pieces == [PIECES[i] for i in kept] and cut.special == full.special
    assert cut.scores == [full.scores[i] for i in kept] and cut.normalisation == full.normalisation
    assert numpy.array_equal(cut.tensors["emb.word"].reshape(-1, H), full.tensors["emb.word"].reshape(-1, H)[kept])
    assert all(numpy.array_equal(cut.tensors[name], full.tensors[name]) for name in full.tensors if name != "emb.word")
    with pytest.raises(ContainerError, match="has 1 layers, not 2"):
        subset_container(tmp_path / "tiny.bin", tmp_path / "x.bin", keep, layers=2)


def test_a_cut_to_fewer_layers_keeps_every_piece_and_row(tmp_path):
    """Rows past the last piece stay rows (the whole encoder's layers cut: `e5_encoder.py --layers N`)."""
    _container(tmp_path / "tiny.bin", numpy.random.default_rng(3), extra_rows=3)
    full = read_container(tmp_path / "tiny.bin")
    assert subset_container(tmp_path / "tiny.bin", tmp_path / "cut.bin", None, layers=1) == len(PIECES)
    cut = read_container(tmp_path / "cut.bin")
    assert (cut.vocab, cut.pieces, cut.scores, cut.special) == (len(PIECES) + 3, PIECES, full.scores, full.special)
    assert all(numpy.array_equal(cut.tensors[name], full.tensors[name]) for name in full.tensors)
    with pytest.raises(ContainerError, match="piece ids run from 0 to 11"):
        subset_container(tmp_path / "tiny.bin", tmp_path / "x.bin", [len(PIECES)], layers=1)
    build_hf_folder(tmp_path / "cut.bin", tmp_path / "hf")


def test_the_pieces_of_a_text_and_its_characters_are_kept(tmp_path):
    _container(tmp_path / "tiny.bin", numpy.random.default_rng(2))
    ids = pieces_for_texts(tmp_path / "tiny.bin", ["So it"])
    assert {PIECES[i] for i in ids} >= {"\u2581so", "\u2581it", "s", "o"}
    assert "\u2581how" not in {PIECES[i] for i in ids}
