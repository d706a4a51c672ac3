from hypothesis import given, settings
from hypothesis import strategies as st

import spacy

from spacy_punct.align import gold_classes
from spacy_punct.labels import LabelSet
from spacy_punct.word_records import WordRecord, example_records, make_example

_NLP = spacy.blank("en")
_WORDS = st.text(alphabet="abcXYZ'ßİ-", min_size=1, max_size=6)
_RECORDS = st.lists(
    st.builds(
        WordRecord,
        text=_WORDS,
        seen=_WORDS,
        space=st.booleans(),
        mark=st.sampled_from([None, "", ",", ".", "?"]),
        extra=st.one_of(st.just({}), st.builds(lambda t: {"start_time": t}, st.floats(0, 9))),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(_RECORDS)
def test_an_example_gives_back_the_records_it_was_built_from(records):
    example = make_example(_NLP.vocab, records)
    assert example_records(example)[:-1] == records[:-1]
    last = example_records(example)[-1]
    assert (last.text, last.seen, last.space, last.mark, last.extra) == (
        records[-1].text, records[-1].seen, False, records[-1].mark, records[-1].extra)
    # the same attributes as spaCy's own Token objects read
    assert [t._.punct for t in example.reference] == [r.mark for r in records]
    assert [t._.start_time for t in example.predicted] == [r.extra.get("start_time") for r in records]


def test_the_gold_classes_of_an_example_follow_its_records():
    records = [WordRecord("So", "so", True, ","), WordRecord("it", "it", True, ""), WordRecord("works", "works", True, "?"),
               WordRecord("yes", "yes", False, None)]
    example = make_example(_NLP.vocab, records)
    assert gold_classes(example, LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])) == [1, 0, 3, -1]
