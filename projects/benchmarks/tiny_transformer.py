"""Build a small, randomly initialised BERT with a WordPiece vocabulary trained
on a corpus's words, saved where `from_pretrained` (and so a spaCy transformer
config's `name`) can load it. No pretrained weights are involved: scores of
pipelines built on it are from-scratch scores.

Usage: python projects/benchmarks/tiny_transformer.py CORPUS.spacy OUTPUT_DIR [--layers 4 --hidden 256 --vocab-size 8000]
"""

import argparse
from pathlib import Path
from typing import Iterator, List

import spacy
import torch
from tokenizers import BertWordPieceTokenizer
from transformers import BertConfig, BertModel, BertTokenizerFast

from spacy_punct.training.corpus import read_docbins
from spacy_punct.words import punct_flags


def corpus_lines(path: Path, lang: str) -> Iterator[str]:
    """The corpus's documents as lines of lower-cased words without punctuation."""
    for doc in read_docbins(path, spacy.blank(lang).vocab):
        words: List[str] = [t.lower_ for t, p in zip(doc, punct_flags(doc)) if not (p or t.is_space)]
        yield " ".join(words)


def build(
    corpus: Path, output: Path, lang: str, layers: int, hidden: int, heads: int, vocab_size: int, seed: int
) -> None:
    output.mkdir(parents=True, exist_ok=True)
    wordpiece = BertWordPieceTokenizer(lowercase=True)
    wordpiece.train_from_iterator(corpus_lines(corpus, lang), vocab_size=vocab_size, show_progress=False)
    wordpiece.save_model(str(output))
    tokenizer = BertTokenizerFast(vocab_file=str(output / "vocab.txt"), do_lower_case=True)
    tokenizer.save_pretrained(output)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=4 * hidden,
        max_position_embeddings=512,
    )
    torch.manual_seed(seed)
    model = BertModel(config)
    model.save_pretrained(output)
    n_params = sum(p.numel() for p in model.parameters())
    print(
        f"Saved a {layers}-layer BERT (hidden {hidden}, {n_params / 1e6:.1f}M parameters, "
        f"vocabulary {tokenizer.vocab_size}) to {output}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    build(args.corpus, args.output, args.lang, args.layers, args.hidden, args.heads, args.vocab_size, args.seed)


if __name__ == "__main__":
    main()
