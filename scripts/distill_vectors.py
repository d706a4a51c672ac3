"""Static word vectors distilled from a transformer's word-piece embeddings,
for `[initialize] vectors` with `include_static_vectors = true` in a CPU
recipe: each word of the training corpus is the mean of its word pieces'
input embeddings, reduced to a few dimensions by PCA.

    python scripts/distill_vectors.py sentence-transformers/all-MiniLM-L6-v2 corpus/en/train corpus/en/vectors
"""

import argparse
from collections import Counter
from pathlib import Path

import numpy
import spacy

from spacy_punct.training.corpus import read_docbins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="a Hugging Face model name or folder")
    parser.add_argument("corpus", type=Path, help="a .spacy file or folder: the words to give vectors")
    parser.add_argument("output", type=Path, help="where to save the vectors (a spaCy pipeline folder)")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--words", type=int, default=20000, help="the most frequent words that get a vector")
    parser.add_argument("--dims", type=int, default=64, help="dimensions kept by PCA")
    args = parser.parse_args()
    from transformers import AutoModel, AutoTokenizer

    nlp = spacy.blank(args.lang)
    counts = Counter(
        token.lower_
        for doc in read_docbins(args.corpus, nlp.vocab)
        for token in doc
        if not token.is_space and not token.is_punct
    )
    words = [word for word, _ in counts.most_common(args.words)]
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    table = AutoModel.from_pretrained(args.model).get_input_embeddings().weight.detach().numpy()
    pieces = tokenizer(words, add_special_tokens=False)["input_ids"]
    vectors = numpy.stack([table[ids].mean(axis=0) if ids else numpy.zeros(table.shape[1]) for ids in pieces])
    centred = vectors - vectors.mean(axis=0)
    _, singular, axes = numpy.linalg.svd(centred, full_matrices=False)
    reduced = (centred @ axes[: args.dims].T).astype("float32")
    kept = (singular[: args.dims] ** 2).sum() / (singular**2).sum()
    for word, vector in zip(words, reduced):
        nlp.vocab.set_vector(word, vector)
    nlp.to_disk(args.output)
    print(f"{len(words)} words x {args.dims} dimensions ({100 * kept:.0f}% of the variance) -> {args.output}")


if __name__ == "__main__":
    main()
