import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st

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
        records[-1].text,
        records[-1].seen,
        False,
        records[-1].mark,
        records[-1].extra,
    )
    # the same attributes as spaCy's own Token objects read
    assert [t._.punct for t in example.reference] == [r.mark for r in records]
    assert [t._.start_time for t in example.predicted] == [r.extra.get("start_time") for r in records]


def test_the_gold_classes_of_an_example_follow_its_records():
    records = [
        WordRecord("So", "so", True, ","),
        WordRecord("it", "it", True, ""),
        WordRecord("works", "works", True, "?"),
        WordRecord("yes", "yes", False, None),
    ]
    example = make_example(_NLP.vocab, records)
    assert gold_classes(example, LabelSet(["EMPTY", "COMMA", "PERIOD", "QUESTION"])) == [1, 0, 3, -1]


def test_docbin_parts_hold_at_most_their_tokens_and_give_back_every_doc(tmp_path):
    from spacy_punct.word_records import read_docbins, write_docbin_parts

    nlp = spacy.blank("en")
    lengths = [3, 4, 2, 9, 1, 5]
    docs = [spacy.tokens.Doc(nlp.vocab, words=[f"w{i}x{j}" for j in range(n)]) for i, n in enumerate(lengths)]
    docs[2].user_data["mark"] = 2
    paths = write_docbin_parts(iter(docs), tmp_path, tokens_per_file=7)
    # 3+4 | 2 | 9 (longer than a file: alone) | 1+5
    assert [p.name for p in paths] == [f"part-{i:05d}.spacy" for i in range(4)]
    assert [[len(d) for d in read_docbins(p, nlp.vocab)] for p in paths] == [[3, 4], [2], [9], [1, 5]]
    back = list(read_docbins(tmp_path, nlp.vocab))
    assert [d.text for d in back] == [d.text for d in docs]
    assert back[2].user_data["mark"] == 2
    assert write_docbin_parts(iter([]), tmp_path / "none", tokens_per_file=7) == []


def test_docbin_parts_go_on_from_a_number_and_are_counted(tmp_path):
    from spacy_punct.word_records import docbin_parts, read_docbins, write_docbin_parts

    nlp = spacy.blank("en")
    docs = [spacy.tokens.Doc(nlp.vocab, words=["w"] * n) for n in [3, 4, 2, 9, 1]]
    write_docbin_parts(iter(docs[:2]), tmp_path, tokens_per_file=4)
    assert docbin_parts(tmp_path) == (2, 2)
    paths = write_docbin_parts(iter(docs[2:]), tmp_path, tokens_per_file=4, first=2)
    assert [p.name for p in paths] == ["part-00002.spacy", "part-00003.spacy", "part-00004.spacy"]
    assert docbin_parts(tmp_path) == (5, 5)
    assert [len(d) for d in read_docbins(tmp_path, nlp.vocab)] == [3, 4, 2, 9, 1]
    assert not list(tmp_path.glob("*.partial"))  # written aside, then renamed
    (tmp_path / "part-00003.spacy").unlink()
    with pytest.raises(ValueError, match="without a gap"):
        docbin_parts(tmp_path)
