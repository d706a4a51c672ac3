from spacy.tokens import Span

from spacy_punct.rewrite import plan_rewrite, rewrite_doc


def _marked(nlp, text, marks):
    doc = nlp(text)
    for token in doc:
        token._.punct = marks.get(token.i, "")
    return doc


def test_marks_spacing_and_sentence_case(nlp):
    doc = _marked(nlp, "so how was the trip it was long", {0: ",", 4: "?", 7: "."})
    new = rewrite_doc(doc)
    assert new.text == "So, how was the trip? It was long."
    assert [s.text for s in new.sents] == ["So, how was the trip?", "It was long."]
    assert new._.punctuated == new.text
    assert plan_rewrite(doc).text == new.text


def test_english_i_and_contractions(nlp):
    doc = _marked(nlp, "yes i don't think i'm late", {0: ",", 7: "."})
    assert rewrite_doc(doc).text == "Yes, I don't think I'm late."


def test_numbers_and_dash(nlp):
    doc = _marked(nlp, "it cost 3.50 dollars in 2020 well", {3: "-", 5: ","})
    assert rewrite_doc(doc).text == "It cost 3.50 dollars - in 2020, well"


def test_offset_map_leads_back_to_the_input(nlp):
    text = "hello  there\nhow are you"
    doc = _marked(nlp, text, {2: "."})
    new = rewrite_doc(doc)
    assert new.text == "Hello  there.\nHow are you"
    assert new._.source_text == text
    for token in new:
        if token._.source_i is None:
            assert token.text == "."
        else:
            assert doc[token._.source_i].text.lower() == token.text.lower()
            start = token._.source_idx
            assert text[start : start + len(token.text)].lower() == token.text.lower()


def test_existing_marks_are_replaced_or_kept(nlp):
    doc = _marked(nlp, "well, hello there. bye", {3: ",", 5: "."})
    # replaced: the predictions decide
    assert rewrite_doc(doc).text == "Well hello there, bye."
    # kept: where the decided mark is the one written, the input stays
    doc = _marked(nlp, "well, hello there?! bye", {0: ",", 3: "?", 6: "."})
    assert rewrite_doc(doc).text == "Well, hello there?! Bye."
    # a removed mark does not glue its neighbours together
    doc = _marked(nlp, "hello ,world", {})
    assert rewrite_doc(doc).text == "Hello world"


def test_unclassed_punctuation_stays(nlp):
    doc = _marked(nlp, "a co-pilot (maybe) ok", {5: "."})
    assert rewrite_doc(doc).text == "A co-pilot (maybe). Ok"


def test_annotations_are_carried(nlp):
    doc = _marked(nlp, "we met anna in paris", {1: ",", 4: "."})
    doc[2].tag_ = "NNP"
    doc.ents = [Span(doc, 2, 3, label="PERSON"), Span(doc, 4, 5, label="GPE")]
    from spacy.tokens import Token

    if not Token.has_extension("start"):
        Token.set_extension("start", default=None)
    for token in doc:
        token._.start = token.i * 0.5
    new = rewrite_doc(doc)
    assert new.text == "We met, anna in paris."
    assert [(e.text, e.label_) for e in new.ents] == [("anna", "PERSON"), ("paris", "GPE")]
    assert new[3].tag_ == "NNP"
    assert [t._.start for t in new if t._.source_i is not None] == [0.0, 0.5, 1.0, 1.5, 2.0]


def test_empty_and_whitespace(nlp):
    assert rewrite_doc(nlp("")).text == ""
    assert rewrite_doc(nlp("   ")).text == "   "
