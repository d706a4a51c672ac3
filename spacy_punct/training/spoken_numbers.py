"""Numbers as an English speech recogniser writes them: `1995` as `nineteen
ninety five`, `25%` as `twenty five percent`. Written text has digits where
recognisers write words, so a model trained on written text alone reads
`in nineteen ninety five` as words it has rarely seen together."""
import re
from dataclasses import replace
from typing import List, Optional

from spacy.util import registry

from ..casing import capitalise
from ..labels import ends_sentence
from ..word_records import WordRecord
from .augment import Augment, per_example

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10**9, "billion"), (10**6, "million"), (1000, "thousand"))
_ORDINAL = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
            "nine": "ninth", "twelve": "twelfth"}
# a sign written before the amount and said after it
_CURRENCIES = {"$": "dollars", "£": "pounds", "€": "euros"}
_NUMBER = re.compile(r"^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")
_ORDINAL_NUMBER = re.compile(r"^(\d+)(?:st|nd|rd|th)$", re.IGNORECASE)
_DECADES = re.compile(r"^(\d*0)'?s$", re.IGNORECASE)
_LARGEST = 10**12


def cardinal(n: int) -> List[str]:
    """The words of a whole number below a trillion, as said (no `and`)."""
    if n < 20:
        return [_ONES[n]]
    if n < 100:
        return [_TENS[n // 10]] + ([_ONES[n % 10]] if n % 10 else [])
    if n < 1000:
        return [_ONES[n // 100], "hundred"] + (cardinal(n % 100) if n % 100 else [])
    for scale, name in _SCALES:
        if n >= scale:
            return cardinal(n // scale) + [name] + (cardinal(n % scale) if n % scale else [])
    raise ValueError(n)  # unreachable: every n >= 1000 has a scale


def year(n: int) -> List[str]:
    """A year as said: `nineteen ninety five`, `nineteen oh five`,
    `nineteen hundred`, `two thousand five`, `twenty twenty`."""
    if 2000 <= n < 2010 or n % 1000 == 0:
        return cardinal(n)
    high, low = divmod(n, 100)
    if low == 0:
        return cardinal(high) + ["hundred"]
    return cardinal(high) + (["oh", _ONES[low]] if low < 10 else cardinal(low))


def spoken(text: str) -> Optional[List[str]]:
    """The words a recogniser writes for a written number (`1,200`, `3.5`,
    `1995`, `3rd`, `1990s`), or None where `text` is none of these."""
    for pattern, said in ((_ORDINAL_NUMBER, _ordinal), (_DECADES, _plural)):
        match = pattern.match(text)
        if match:
            words = _whole(match.group(1))
            if words is not None:
                words[-1] = said(words[-1])
            return words
    if not _NUMBER.match(text):
        return None
    whole, _, fraction = text.partition(".")
    words = _whole(whole.replace(",", ""), year_like="," not in whole and not fraction)
    if words is None:
        return None
    return words + (["point"] + [_ONES[int(digit)] for digit in fraction] if fraction else [])


def _ordinal(word: str) -> str:
    return _ORDINAL.get(word) or (word[:-1] + "ieth" if word.endswith("y") else word + "th")


def _plural(word: str) -> str:
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


def _whole(digits: str, year_like: bool = True) -> Optional[List[str]]:
    """The words of a whole number written in digits; four digits from 1100
    to 2099 said as a year where `year_like`."""
    n = int(digits)
    if n >= _LARGEST:
        return None
    if year_like and len(digits) == 4 and 1100 <= n < 2100:
        return year(n)
    return cardinal(n)


@registry.augmenters("spacy_punct.spoken_numbers_en.v1")
def create_spoken_numbers_augmenter(share: float = 0.5) -> Augment:
    """Write the numbers of an example as an English recogniser writes them,
    in a `share` of the examples (a recogniser writes all of them so, or
    none): `1,200` as `one thousand two hundred`, `1995` as `nineteen ninety
    five`, `3rd` as `third`, `25 %` as `twenty five percent`, `$ 5` as
    `five dollars`. Both sides of the example change alike: the reference
    holds the same words, the first capitalised where it starts a sentence;
    the number's mark, space and attributes (timings, a teacher's
    probabilities) go to its last word.
    """

    def say_numbers(records: List[WordRecord]) -> List[WordRecord]:
        out: List[WordRecord] = []
        i = 0
        while i < len(records):
            record = records[i]
            currency = _CURRENCIES.get(record.seen) if not record.mark else None
            if currency and i + 1 < len(records) and spoken(records[i + 1].seen):
                number, unit, used = records[i + 1], currency, 2
            else:
                number, unit, used = record, None, 1
            words = spoken(number.seen)
            if words is None:
                out.append(record)
                i += 1
                continue
            after = records[i + used] if i + used < len(records) else None
            last = number
            if unit is None and after is not None and after.seen == "%" and not number.mark:
                unit, last, used = "percent", after, used + 1
            if unit:
                words = words + [unit]
            starts = not out or bool(out[-1].mark and ends_sentence(out[-1].mark))
            out.extend(_records(words, last, starts))
            i += used
        return out

    return per_example(share, say_numbers)


def _records(words: List[str], last: WordRecord, starts_sentence: bool) -> List[WordRecord]:
    """Records for the spoken words of a number whose last written record is
    `last` (its mark, space and attributes go to the last word)."""
    texts = [capitalise(words[0])] + words[1:] if starts_sentence else list(words)
    made = [WordRecord(text, word, True, "") for text, word in zip(texts[:-1], words[:-1])]
    return made + [replace(last, text=texts[-1], seen=words[-1])]
