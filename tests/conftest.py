import gc
import os
import random
from pathlib import Path
from typing import List

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import DocBin
from spacy.training import Example

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

TEXTS = [
    "So, how was the trip? It was long, but we saw the coast.",
    "I think we should leave now. Do you agree? Yes, I do.",
    "Well, the weather was fine. We walked, we talked, and we ate fish.",
    "Where did you stay? In a small hotel near the harbour.",
    "My sister doesn't like boats, so she took the train.",
    "Can you send me the photos tomorrow? Sure, no problem.",
]


@pytest.fixture(autouse=True)
def _thaw_frozen_objects():
    """Commands take the objects alive after loading out of the garbage
    collector's scans for good (`spacy_punct.runtime.collector`); the suite runs them
    in one process, so each test's objects are put back after it."""
    yield
    gc.unfreeze()


@pytest.fixture
def nlp() -> Language:
    return spacy.blank("en")


@pytest.fixture
def corpus_path(tmp_path: Path, nlp: Language) -> Path:
    """A DocBin of natural punctuated text."""
    doc_bin = DocBin(docs=[nlp(text) for text in TEXTS])
    path = tmp_path / "tiny.spacy"
    doc_bin.to_disk(path)
    return path


def train(nlp: Language, examples: List[Example], n_iter: int, seed: int = 0) -> dict:
    """Initialize and update a pipeline on a few examples; return the last losses."""
    spacy.util.fix_random_seed(seed)
    optimizer = nlp.initialize(lambda: examples)
    losses: dict = {}
    rng = random.Random(seed)
    for _ in range(n_iter):
        rng.shuffle(examples)
        losses = {}
        nlp.update(examples, sgd=optimizer, drop=0.0, losses=losses)
    return losses


def _tiny_bert(path: Path) -> Path:
    """A randomly initialised, BERT-shaped transformer with a WordPiece vocabulary
    of the test texts, saved where `from_pretrained` can load it.

    The vocabulary is built, not trained: a trained WordPiece vocabulary differs
    from process to process, and so would the model and the tests' results."""
    import torch
    from tokenizers import normalizers, pre_tokenizers
    from transformers import BertConfig, BertModel, BertTokenizerFast

    normalizer = normalizers.BertNormalizer(lowercase=True)
    pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    words = {word for text in TEXTS for word, _ in pre_tokenizer.pre_tokenize_str(normalizer.normalize_str(text))}
    chars = sorted({char for word in words for char in word})
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = specials + sorted(words | set(chars)) + ["##" + char for char in chars]
    path.mkdir(parents=True, exist_ok=True)
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf8")
    BertTokenizerFast(vocab_file=str(path / "vocab.txt"), do_lower_case=True, model_max_length=128).save_pretrained(
        path
    )
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
    )
    torch.manual_seed(0)
    BertModel(config).save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory) -> Path:
    return _tiny_bert(tmp_path_factory.mktemp("tiny_bert"))


LISTENER_CONFIG = {
    "model": {
        "@architectures": "spacy_punct.PunctuatorModel.v1",
        "hidden_width": 128,
        "dropout": 0.0,
        "tok2vec": {"@architectures": "spacy.Tok2VecListener.v1", "width": 96, "upstream": "*"},
    }
}
TOK2VEC_CONFIG = {
    "model": {
        "@architectures": "spacy.HashEmbedCNN.v2",
        "pretrained_vectors": None,
        "width": 96,
        "depth": 2,
        "embed_size": 2000,
        "window_size": 1,
        "maxout_pieces": 3,
        "subword_features": True,
    }
}


def split_marks(doc):
    """The words of a doc, their spaces and the mark after each, as the reader reads them."""
    from spacy_punct.word_records import word_records

    records = word_records(doc)
    return [r.text for r in records], [r.space for r in records], [r.mark for r in records]


def gold(vocab, words, marks, spaces=None):
    """A reference doc: the words with the gold mark after each."""
    from spacy_punct.word_records import WordRecord, gold_doc

    spaces = [True] * len(words) if spaces is None else spaces
    return gold_doc(vocab, [WordRecord(w, w, s, m) for w, s, m in zip(words, spaces, marks)])


def listener_pipeline() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec", config=TOK2VEC_CONFIG)
    nlp.add_pipe("punctuator", config=LISTENER_CONFIG)
    return nlp


def reader_examples(nlp: Language, path: Path) -> List[Example]:
    from spacy_punct.training.corpus import PunctCorpus

    return list(PunctCorpus(path, max_length=0)(nlp))


@pytest.fixture(scope="session")
def trained_bytes(tmp_path_factory) -> bytes:
    """A tok2vec + punctuator pipeline that has learned the test corpus."""
    nlp = listener_pipeline()
    path = tmp_path_factory.mktemp("corpus") / "tiny.spacy"
    DocBin(docs=[nlp.make_doc(text) for text in TEXTS]).to_disk(path)
    train(nlp, reader_examples(nlp, path), n_iter=60)
    return nlp.to_bytes()


@pytest.fixture
def trained(trained_bytes) -> Language:
    """A fresh copy of the trained pipeline (tests may change its settings)."""
    return listener_pipeline().from_bytes(trained_bytes)
