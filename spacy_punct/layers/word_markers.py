"""A marker piece after every word, from which the word is read.

spacy-transformers gives each spaCy token the mean of its word pieces'
vectors. Minixhofer et al. (2021, §3.1) put a classification token after
every word instead and classify each word from it: the encoder then has a
position of its own for what follows the word, which is where a mark goes.
Here the tokenizer writes `marker` (e.g. "[MASK]") after the last piece of
every word its pre-tokenizer finds, and the word's own pieces align with no
spaCy token, so a token's vector is the mean of the markers within it: its
one marker, or one per part of a token the pre-tokenizer splits (`don't`).
Windows get longer (a marker per word), so fewer words fit the encoder's
limit, which `piece_limit` counts with the markers.
"""

from typing import Any, Dict, List, Optional, Tuple

import numpy
from transformers import BatchEncoding


class WordMarkingTokenizer:
    """A fast Hugging Face tokenizer that writes the piece `marker` after
    each word, with the word's characters as the marker's offsets and none
    for the word's pieces. Anything else is the wrapped tokenizer's."""

    def __init__(self, tokenizer: Any, marker: str) -> None:
        if not getattr(tokenizer, "is_fast", False):
            raise ValueError(
                f"A word marker needs a fast tokenizer (tokenizer_config use_fast = true), not {type(tokenizer).__name__}."
            )
        marker_id = tokenizer.convert_tokens_to_ids(marker)
        if marker_id is None or (marker_id == tokenizer.unk_token_id and marker != tokenizer.unk_token):
            raise ValueError(f"The word marker {marker!r} is not a piece of the tokenizer's vocabulary.")
        self.tokenizer = tokenizer
        self.marker_id = int(marker_id)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "tokenizer":  # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self.tokenizer, name)

    def __call__(
        self,
        texts: List[str],
        *,
        add_special_tokens: bool = True,
        return_tensors: Optional[str] = None,
        padding: Any = False,
        **kwargs: Any,
    ) -> BatchEncoding:
        """The encoding of `texts` with the markers, as the wrapped tokenizer
        returns it with offsets (`padding` "longest" or none, `return_tensors`
        "np" or none); other arguments are ignored."""
        encoding = self.tokenizer(
            texts,
            add_special_tokens=add_special_tokens,
            return_offsets_mapping=True,
            return_attention_mask=True,
            verbose=False,
        )
        rows = [self._mark(encoding, i) for i in range(len(texts))]
        data: Dict[str, Any] = {
            "input_ids": [ids for ids, _, _ in rows],
            "token_type_ids": [types for _, types, _ in rows],
            "offset_mapping": [offsets for _, _, offsets in rows],
        }
        if "token_type_ids" not in encoding:  # a model that takes none (DistilBERT)
            del data["token_type_ids"]
        data["attention_mask"] = [[1] * len(ids) for ids in data["input_ids"]]
        if padding:
            width = max((len(ids) for ids in data["input_ids"]), default=0)
            fill = {
                "input_ids": self.tokenizer.pad_token_id,
                "token_type_ids": self.tokenizer.pad_token_type_id,
                "attention_mask": 0,
                "offset_mapping": (0, 0),
            }
            for key in data:
                data[key] = [row + [fill[key]] * (width - len(row)) for row in data[key]]
        if return_tensors == "np":
            data = {key: numpy.asarray(value, dtype="int64") for key, value in data.items()}
            if data["offset_mapping"].ndim < 3:  # no rows, or rows of no pieces
                data["offset_mapping"] = data["offset_mapping"].reshape(len(texts), -1, 2)
        return BatchEncoding(data)

    def _mark(self, encoding: BatchEncoding, i: int) -> Tuple[List[int], List[int], List[Tuple[int, int]]]:
        ids, offsets, words = encoding["input_ids"][i], encoding["offset_mapping"][i], encoding.word_ids(i)
        types = encoding["token_type_ids"][i] if "token_type_ids" in encoding else [0] * len(ids)
        marked_ids: List[int] = []
        marked_types: List[int] = []
        marked_offsets: List[Tuple[int, int]] = []
        start = 0
        for j, (piece, piece_type, (begin, end), word) in enumerate(zip(ids, types, offsets, words)):
            marked_ids.append(piece)
            marked_types.append(piece_type)
            marked_offsets.append((0, 0))
            if word is None:
                continue
            if j == 0 or words[j - 1] != word:
                start = begin
            if j + 1 == len(ids) or words[j + 1] != word:
                marked_ids.append(self.marker_id)
                marked_types.append(piece_type)
                marked_offsets.append((start, end))
        return marked_ids, marked_types, marked_offsets


def word_marked_transformer_model(word_marker: str, *args: Any, **kwargs: Any) -> Any:
    """spacy-transformers' `TransformerModel` (same arguments) reading
    `word_marker` after every word."""
    from spacy_transformers.layers import TransformerModel

    class WordMarkedTransformerModel(TransformerModel):
        """Its `tokenizer` (what its forward pass, initialization and
        `piece_limit` tokenize with) writes the word markers."""

        def __init__(self) -> None:
            super().__init__(*args, **kwargs)
            self._marking: Optional[WordMarkingTokenizer] = None

        @property
        def tokenizer(self) -> Any:
            inner = super().tokenizer
            if inner is None:
                return None
            if self._marking is None or self._marking.tokenizer is not inner:
                self._marking = WordMarkingTokenizer(inner, word_marker)
            return self._marking

        def copy(self) -> Any:
            copied = super().copy()
            copied.__class__ = WordMarkedTransformerModel
            copied._marking = None
            return copied

    return WordMarkedTransformerModel()
