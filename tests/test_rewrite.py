import numpy
import pytest
import spacy
from spacy.tokens import Doc, Span

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
    # the input's words, counted by the rewrite: not its whitespace, nor the marks it adds
    assert new._.source_words == 5
    assert rewrite_doc(_marked(nlp, "", {}))._.source_words == 0


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


LABELS = ["EMPTY", "COMMA", "PERIOD", "QUESTION"]


def _punctuate(nlp, text, marks=None, default="EMPTY", keep_existing=False):
    """Decide with probabilities that put `marks[word]` (else `default`) after
    each word, through the component's own annotations, then rewrite."""
    nlp = spacy.blank(nlp.lang)
    pipe = nlp.add_pipe("punctuator", config={"keep_existing": keep_existing})
    doc = nlp.make_doc(text)
    probs = numpy.zeros((len(doc), 4), dtype="f")
    for token in doc:
        probs[token.i, LABELS.index((marks or {}).get(token.text, default))] = 1.0
    pipe.set_annotations([doc], [probs])
    return rewrite_doc(doc)


def test_doc_extensions_survive(nlp):
    if not Doc.has_extension("utt_id"):
        Doc.set_extension("utt_id", default=None)
    doc = _marked(nlp, "so how was it", {3: "?"})
    doc._.utt_id = "u1"
    assert rewrite_doc(doc)._.utt_id == "u1"


def test_no_mark_inside_a_word(nlp):
    text = "a start-up is a win-win see c:/users/me/doc.txt at 100 km/h a well-known o'brien"
    out = _punctuate(nlp, text, default="QUESTION")
    assert out.text == ("A? Start-up? Is? A? Win-win? See? c:/users/me/doc.txt? At? 100? km/h? A? Well-known? O'brien?")


def test_replacing_keeps_quotes_abbreviations_and_numbers(nlp):
    text = 'he said "hello" to dr. smith in the u.s. army, etc. it cost 3.5 dollars'
    assert _punctuate(nlp, text).text == 'He said "hello" to dr. smith in the u.s. army etc. it cost 3.5 dollars'
    # a predicted full stop after an abbreviation is its period: not written twice
    assert _punctuate(nlp, "we live in the u.s. now", {"u.s": "PERIOD"}).text == "We live in the u.s. Now"


def test_a_removed_sentence_end_lowers_the_capital_after_it(nlp):
    out = _punctuate(nlp, "So how was the trip. It was long. NASA said so", {"trip": "COMMA", "long": "COMMA"})
    assert out.text == "So how was the trip, it was long, NASA said so"


def test_keep_existing_does_not_end_sentences_at_semicolons(nlp):
    out = _punctuate(nlp, "he left; nobody cared", {"cared": "PERIOD"}, keep_existing=True)
    assert out.text == "He left; nobody cared."
    assert [s.text for s in out.sents] == ["He left; nobody cared."]


def test_urls_and_addresses_keep_their_case(nlp):
    out = _punctuate(nlp, "www.example.com is down me@example.com wrote", {"down": "PERIOD"})
    assert out.text == "www.example.com is down. me@example.com wrote"


def test_whitespace_makes_no_sentence_of_its_own(nlp):
    out = _punctuate(nlp, " so how was it ", {"it": "QUESTION"})
    assert out.text == " So how was it? "
    assert [s.text for s in out.sents] == [" So how was it?"]


def test_a_symbol_opens_no_sentence(nlp):
    """An emoji or symbol is no word to capitalise: the word after it is;
    a number is one, and the word after it stays lower-case."""
    doc = _marked(nlp, "i'm fine 🙂 thanks and you", {2: ".", 6: "?"})
    assert rewrite_doc(doc).text == "I'm fine. 🙂 Thanks and you?"
    assert rewrite_doc(_marked(nlp, "→ so it goes", {3: "."})).text == "→ So it goes."
    assert rewrite_doc(_marked(nlp, "3 people came", {2: "."})).text == "3 people came."


def test_a_recognisers_tags_take_no_mark_and_keep_their_case(nlp):
    doc = _marked(nlp, "[music] so how was it [laughter] fine thanks <unk>", {2: ".", 6: "?", 9: ".", 14: "."})
    new = rewrite_doc(doc)
    assert new.text == "[music] So how was it? [laughter] Fine thanks <unk>"
    assert [s.text for s in new.sents] == ["[music] So how was it?", "[laughter] Fine thanks <unk>"]


def test_an_abbreviation_in_one_token_takes_no_second_period(nlp):
    """`e.g.` and `i.e.` are one token each: a full stop predicted after them
    was written as `e.g..`."""
    doc = _marked(nlp, "we use e.g. this or i.e. that", {2: ".", 5: "?"})
    assert [t.text for t in doc][2] == "e.g."
    assert rewrite_doc(doc).text == "We use e.g. This or i.e.? That"
    assert _punctuate(nlp, "we use e.g.", {"e.g.": "PERIOD"}).text == "We use e.g."


TECHNICAL_WORDS = [
    "/home/i/notes",
    "c:/users/i/docs",
    "km/h",
    "co-operate",
    "v1.2.3",
    "1.2.3",
    "bob@x.org",
    "https://x.org/i/a",
    "snake_case",
    "re-use",
    "and/or",
]


@pytest.mark.parametrize("word", TECHNICAL_WORDS)
@pytest.mark.parametrize("form", [str.upper, str.title])
def test_no_letter_inside_a_word_changes_case(nlp, word, form):
    """A truecaser's forms and English `i` changed letters inside words:
    `/home/I/notes`, `km/H`, `CO-operate`, `V1.2.3`. Only a word's first
    letter at a sentence start may change, or a one-token word as a whole."""
    for text in (f"we saw {word} there", f"{word} is here"):
        doc = _marked(nlp, text, {len(nlp(text)) - 1: "."})
        for token in doc:
            token._.truecase = form(token.text)  # a truecaser that writes every token in capitals or title case
        out = rewrite_doc(doc).text.rstrip(".").split()
        assert len(out) == len(text.split())
        written = out[text.split().index(word)]
        allowed = {word, word[0].upper() + word[1:]}
        if "-" in word and form is str.title:  # a hyphenated name takes its parts' capitals: Jean-Luc
            allowed.add(word.title())
        assert written in allowed, (text, out)
        if written == word[0].upper() + word[1:] != word:
            assert text.startswith(word) and word[0].isalpha()


def test_a_standalone_ellipsis_is_kept(nlp):
    """A `...` or `…` between spaces was dropped as a replaced mark: a word lost."""
    for ellipsis in ("...", "…"):
        out = _punctuate(nlp, f"well {ellipsis} i think so", {"well": "COMMA", "so": "PERIOD"}).text
        assert out == f"Well, {ellipsis} I think so."
    # written onto the word, it is the word's mark: the label set cannot write
    # it, so it stays where a mark is predicted and goes where none is
    assert _punctuate(nlp, "well... i think so", {"well": "COMMA", "so": "PERIOD"}).text == "Well... I think so."
    assert _punctuate(nlp, "well... i think so", {"so": "PERIOD"}).text == "Well I think so."


def test_a_run_of_marks_standing_alone_is_kept(nlp):
    """`why !! london` lost its `!!` (a word and its spaces) in replace mode."""
    for run in ("!!", "?!", "..", "!?!"):
        out = _punctuate(nlp, f"why {run} london is big", {"big": "PERIOD"}).text
        assert out == f"Why {run} London is big." or out == f"Why {run} london is big.", out
        assert len(out.split()) == 5
    # one mark standing alone is the word's mark, which a prediction replaces
    assert _punctuate(nlp, "why , london is big", {"big": "PERIOD"}).text.split()[1] != ","


def test_a_dash_after_a_word_is_kept_with_no_mark_before_it(nlp):
    """`well — maybe` came out `Well, — maybe.`: a dash counts as COMMA."""
    for dash in ("—", "-", "--", "–"):
        for before in ("COMMA", "PERIOD", "EMPTY"):
            out = _punctuate(nlp, f"well {dash} maybe so", {"well": before, "so": "PERIOD"}).text
            assert out == f"Well {dash} maybe so.", (before, out)
    # a mark the writer put before it stays too
    assert _punctuate(nlp, "well, — maybe so", {"so": "PERIOD"}).text == "Well, — maybe so."
    # a hyphen inside a word is no dash
    assert _punctuate(nlp, "a co-pilot flew", {"co": "COMMA", "flew": "PERIOD"}).text == "A co-pilot flew."


def test_a_removed_mark_before_a_tab_adds_no_space(nlp):
    assert _punctuate(nlp, "so how was it,\tfine").text == "So how was it\tfine"


def test_a_mark_goes_after_a_closing_quote(nlp):
    assert _punctuate(nlp, 'he said "hello"', {"hello": "PERIOD"}).text == 'He said "hello".'
    assert _punctuate(nlp, "he said “hello” then", {"hello": "COMMA"}).text == "He said “hello”, then"


def _truecased(nlp, text, forms, marks=None):
    doc = _marked(nlp, text, marks or {})
    for token in doc:
        token._.truecase = forms.get(token.i)
    return rewrite_doc(doc).text


def test_a_hyphenated_word_takes_the_truecaser_s_capitals_whole_or_not_at_all(nlp):
    # x-ray: x 0, - 1, ray 2
    assert _truecased(nlp, "an x-ray", {3: "Ray"}).endswith("x-ray")
    assert _truecased(nlp, "ab-ab-ab", {0: "Ab", 2: "Ab"}) == "Ab-ab-ab"  # a sentence's capital alone
    assert _truecased(nlp, "the jean-luc show", {1: "Jean", 3: "Luc"}) == "The Jean-Luc show"
    # each word of a text on its own: a capitalised neighbour does not count
    assert _truecased(nlp, "the jean-luc x-ray", {1: "Jean", 3: "Luc", 6: "Ray"}) == "The Jean-Luc x-ray"


def test_a_sentence_start_leaves_versions_codes_and_sharp_s_alone(nlp):
    assert _truecased(nlp, "v2 is out. mp3 files", {}, {2: "."}).split()[::3] == ["v2", "mp3"]
    assert _truecased(nlp, "ßa ok", {}).startswith("ßa")


def test_annotations_the_rewrite_does_not_own_are_carried(nlp):
    """A norm set before the punctuator, span extension values and the user's own
    user_data keys were dropped by the rewrite."""
    if not Span.has_extension("speaker"):
        Span.set_extension("speaker", default=None)
    doc = _marked(nlp, "so how was the trip i'm fine", {4: "?", 7: "."})
    doc[1].norm_ = "HOW"
    turn = doc[0:5]
    turn._.speaker = "A"
    doc.spans["turns"] = [turn]
    doc.user_data["session"] = 7
    new = rewrite_doc(doc)
    assert new.text == "So how was the trip? I'm fine."
    assert new[1].norm_ == "HOW" and new[7].norm_ == "am"  # the tokenizer's own norm for 'm stays too
    assert [(span.text, span._.speaker) for span in new.spans["turns"]] == [("So how was the trip", "A")]
    assert new.user_data["session"] == 7


def test_a_language_writes_its_own_full_stop_and_keeps_the_inputs():
    """Bangla's full stop is the dari `।`: `.` was written after Bangla sentences."""
    bangla = spacy.blank("bn")
    doc = _marked(bangla, "আমি ভাত খাই তুমি কোথায়", {2: ".", 4: "?"})
    assert rewrite_doc(doc).text == "আমি ভাত খাই। তুমি কোথায়?"
    doc = _marked(bangla, "আমি ভাত খাই. তুমি", {2: ".", 4: "."})  # a `.` written in the input stays `.`
    assert rewrite_doc(doc).text == "আমি ভাত খাই. তুমি।"


def test_a_function_word_after_a_closing_quote_takes_no_capital_mid_sentence(nlp):
    """`She said, "Hello", And left.`: the encoder reads the closing quote as a sentence's end."""
    # she said " hello " and left (tokens 0-6); the truecaser wrote `Hello` and `And`
    assert (
        _truecased(nlp, 'she said "hello" and left', {3: "Hello", 5: "And"}, {3: ","}) == 'She said "Hello", and left'
    )
    # a name keeps its capital there, and a sentence that starts there its own
    assert (
        _truecased(nlp, 'she said "hello" anna left', {3: "Hello", 5: "Anna"}, {3: ","})
        == 'She said "Hello", Anna left'
    )
    assert (
        _truecased(nlp, 'she said "hello" and left', {3: "Hello", 5: "And"}, {3: "."}) == 'She said "Hello". And left'
    )


def test_repair_keeps_the_case_of_the_inputs_words_but_after_an_end_it_lacks(nlp):
    text = "We saw the sea we drove home. et al. then we slept"
    marks = {3: ".", 6: ".", 9: ".", 13: "."}
    doc = _marked(nlp, text, marks)
    doc._.case_fill = {0, 1, 2, 3}  # `We saw the sea` lost its marks; the rest is the input's punctuated text
    # `we` takes the capital lost with the period before it; `et` and `then` keep their case
    assert rewrite_doc(doc).text == "We saw the sea. We drove home. et al. then we slept."
    assert rewrite_doc(_marked(nlp, text, marks)).text == "We saw the sea. We drove home. Et al. Then we slept."


def test_a_function_word_after_a_mark_the_decision_removed_takes_no_capital_from_the_truecaser():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("note : it was long")
    doc[0]._.truecase, doc[2]._.truecase = "Note", "It"  # the truecaser read the colon as a break
    for token, mark in zip(doc, ["", "", "", "", "."]):
        token._.punct = mark
    doc[0].is_sent_start = True
    for token in doc[1:]:
        token.is_sent_start = False
    assert rewrite_doc(doc).text == "Note it was long."
