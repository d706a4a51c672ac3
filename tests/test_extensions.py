from spacy.tokens import Doc

from spacy_punct.extensions import (
    copy_doc_extension_values,
    copy_token_extension_values,
    set_token_extension_values,
    token_extension_values,
)


def test_token_values_by_token(nlp):
    doc = nlp("so how was it")
    set_token_extension_values(doc, doc[1].idx, {"start_time": 0.5, "conf": 0.9})
    doc[3]._.punct = "?"
    values = token_extension_values(doc, skip=("punct",))
    assert values == [{}, {"start_time": 0.5, "conf": 0.9}, {}, {}]
    assert doc[1]._.start_time == 0.5


def test_token_values_are_copied_to_the_tokens_the_offsets_map_to(nlp):
    doc = nlp("so how was it")
    set_token_extension_values(doc, doc[1].idx, {"start_time": 0.5, "conf": 0.9})
    set_token_extension_values(doc, doc[2].idx, {"start_time": 0.7})
    doc[3]._.punct = "?"
    doc.user_data[("._.", "start_time", None, None)] = 1.0  # a doc's value, not a token's
    target = nlp("So, how was it?")
    copy_token_extension_values(doc, target, {doc[1].idx: target[2].idx, doc[3].idx: target[4].idx}, skip=("punct",))
    assert token_extension_values(target) == [{}, {}, {"start_time": 0.5, "conf": 0.9}, {}, {}, {}]


def test_doc_values_are_copied_but_not_ours(nlp):
    if not Doc.has_extension("utt_id"):
        Doc.set_extension("utt_id", default=None)
    doc = nlp("so")
    doc._.utt_id = "u1"
    doc._.source_text = "so"
    target = nlp("so")
    copy_doc_extension_values(doc, target)
    assert target._.utt_id == "u1" and target._.source_text is None


def test_punctuated_before_and_after_the_punctuator(nlp):
    doc = nlp("so how")
    assert doc._.punctuated is None
    for token, mark in zip(doc, [",", "?"]):
        token._.punct = mark
    assert doc._.punctuated == "So, how?"
    assert nlp("")._.punctuated == ""
