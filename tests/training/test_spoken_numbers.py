import random

import pytest
import spacy
from hypothesis import given
from hypothesis import strategies as st
from spacy.util import registry

from spacy_punct.training.spoken_numbers import cardinal, create_spoken_numbers_augmenter, spoken
from spacy_punct.word_records import example_records, make_example, word_records


@pytest.mark.parametrize("written, said", [
    ("0", "zero"), ("7", "seven"), ("13", "thirteen"), ("40", "forty"), ("42", "forty two"),
    ("100", "one hundred"), ("115", "one hundred fifteen"), ("1,200", "one thousand two hundred"),
    ("2,000,005", "two million five"), ("12,000,000,000", "twelve billion"),
    ("1995", "nineteen ninety five"), ("1905", "nineteen oh five"), ("1900", "nineteen hundred"),
    ("2000", "two thousand"), ("2007", "two thousand seven"), ("2020", "twenty twenty"),
    ("3000", "three thousand"), ("3.5", "three point five"), ("0.25", "zero point two five"),
    ("1st", "first"), ("2nd", "second"), ("3rd", "third"), ("12th", "twelfth"), ("20th", "twentieth"),
    ("21st", "twenty first"), ("100th", "one hundredth"), ("1990s", "nineteen nineties"),
    ("80s", "eighties"), ("1900s", "nineteen hundreds"),
])
def test_numbers_as_a_recogniser_writes_them(written, said):
    assert spoken(written) == said.split()


@pytest.mark.parametrize("text", ["word", "1,20", "3.", "-5", "1e5", "7pm", "2nd-hand", "1" * 13, "", "s"])
def test_what_is_no_written_number_is_left_alone(text):
    assert spoken(text) is None


@given(st.integers(min_value=0, max_value=10**12 - 1))
def test_every_whole_number_has_words_and_no_digits(n):
    words = cardinal(n)
    assert words and all(word.isalpha() and word.islower() for word in words)
    assert (n == 0) == (words == ["zero"])


def _records(text):
    return word_records(spacy.blank("en")(text))


def _spoken(text, nlp=None):
    nlp = nlp or spacy.blank("en")
    augment = create_spoken_numbers_augmenter(share=1.0)
    example = make_example(nlp.vocab, _records(text))
    (out,) = list(augment(nlp, example))
    return example_records(out)


def test_numbers_in_a_text_become_words_with_their_marks():
    records = _spoken("It cost $5 or 25% of 1,200 in 1995, the 3rd time. 2007 was better.")
    said = " ".join(r.seen + (r.mark or "") for r in records)
    assert said == ("It cost five dollars or twenty five percent of one thousand two hundred in nineteen "
                    "ninety five, the third time. two thousand seven was better.")
    # the reference starts its sentence with a capital; the model reads the words as said
    assert [r.text for r in records if r.seen in ("two", "thousand", "seven")][-3:] == ["Two", "thousand", "seven"]
    assert all(r.space for r in records[:-1])


def test_a_number_keeps_its_attributes_on_its_last_word():
    records = _records("in 1995 we")
    records[1] = records[1].__class__(records[1].text, records[1].seen, True, ",", {"start": 1.0, "end": 1.5})
    augment = create_spoken_numbers_augmenter(share=1.0)
    (out,) = list(augment.augment_records(records))
    assert [(r.seen, r.mark, r.extra) for r in out[1:4]] == [
        ("nineteen", "", {}), ("ninety", "", {}), ("five", ",", {"start": 1.0, "end": 1.5})]


def test_share_is_per_example_and_zero_changes_nothing():
    records = _records("in 1995 and 2007")
    assert list(create_spoken_numbers_augmenter(share=0.0).augment_records(records)) == [records]
    random.seed(0)
    augment = create_spoken_numbers_augmenter(share=0.5)
    outcomes = {len(out) for _ in range(40) for out in augment.augment_records(records)}
    assert outcomes == {4, 8}  # all numbers said, or none
    with pytest.raises(ValueError, match="share"):
        create_spoken_numbers_augmenter(share=1.5)


def test_registered_for_configs():
    assert registry.augmenters.get("spacy_punct.spoken_numbers_en.v1") is create_spoken_numbers_augmenter
