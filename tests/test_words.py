import spacy

from spacy_punct.words import is_invisible, mark_slots, marks_after, punct_flags, token_table, word_offsets


def _slots(nlp, text):
    doc = nlp(text)
    slots = mark_slots(doc)
    return doc, slots, {doc[i].text: i for i in slots.words}


def test_marks_after():
    nlp = spacy.blank("en")
    doc = nlp('"Well," she said - it\'s a co-pilot?! Yes.')
    marks = dict(zip([t.text for t in doc], marks_after(doc)))
    assert marks["Well"] == ","
    assert marks["said"] == "-"
    assert marks["co"] == ""
    assert marks["pilot"] == "?"
    assert marks["Yes"] == "."


def test_punct_flags_follow_part_of_speech_when_present(nlp):
    from spacy.tokens import Doc

    doc = Doc(nlp.vocab, words=["mistakes", "--", ".", "so"])
    assert punct_flags(doc) == [False, True, True, False]
    assert marks_after(doc)[0] == "."
    doc = Doc(nlp.vocab, words=["mistakes", "--", ".", "so"], pos=["X", "X", "PUNCT", "X"])
    assert punct_flags(doc) == [False, False, True, False]
    assert marks_after(doc)[:2] == ["", "."]


def test_word_offsets_ignore_case_spaces_and_punctuation(nlp):
    a = word_offsets(nlp("So, how  was it?"))
    b = word_offsets(nlp("so how was it"))
    assert a[0] == b[0] == "sohowwasit"
    assert a[1] == [2, None, 5, None, 8, 10, None]  # the double space is a token


def test_slots_are_words_before_whitespace(nlp):
    doc, slots, words = _slots(nlp, "a start-up, win-win c:/users/me/doc.txt and don't")
    assert list(words) == ["a", "up", "win", "doc.txt", "and", "n't"]
    assert [doc[i].text for i in slots.written[words["up"]]] == [","] and slots.existing[words["up"]] == ","
    # the first "win" is written together with the second: only the last is a slot
    assert words["win"] == [t.text for t in doc].index("win", 6)
    # a token of format characters alone is no word: no mark goes after it
    assert list(_slots(nlp, "so \u200b how \ufeff")[2]) == ["so", "how"]
    assert not is_invisible("") and not is_invisible("a\u200d") and is_invisible("\u200c\u2060")


def test_a_recognisers_tags_are_no_words(nlp):
    doc, slots, words = _slots(nlp, "[Music] so <unk> how {noise} was [sic] it [1] x[a] [MUSIC PLAYING] ok")
    assert list(words) == ["so", "how", "was", "it", "1", "x[a", "ok"]  # `[1]`, `x[a]`: no tags
    table = token_table(doc)
    hidden = [text for text, space in zip(table.texts, table.is_space) if space]
    assert hidden[:12] == ["[", "Music", "]", "<", "unk", ">", "{", "noise", "}", "[", "sic", "]"]
    assert hidden[12:] == ["[", "MUSIC", "PLAYING", "]"]  # several words in square brackets: Whisper's tags
    # an unclosed bracket, a closed one after seven words, or one with a mark after it: words
    for text in ("[so how was it", "[a b c d e f g] ok", "[so how]. ok"):
        assert "so" in _slots(nlp, text)[2] or "a" in _slots(nlp, text)[2], text
    assert not any(punct for punct, space in zip(table.punct, table.is_space) if space)


def test_slot_existing_marks_and_anchor(nlp):
    doc, slots, words = _slots(nlp, 'he said "hello" (maybe). ok ?! fine , yes')
    assert words["said"] not in slots.existing  # quotes are never replaced
    # a mark after "hello" goes after its closing quote
    assert words["hello"] not in slots.existing and slots.anchor(words["hello"]) == words["hello"] + 1
    assert doc[slots.anchor(words["maybe"])].text == ")" and slots.existing[words["maybe"]] == "."
    assert slots.existing[words["ok"]] == "?" and len(slots.written[words["ok"]]) == 2
    assert slots.standing == {words["ok"]}  # a run standing alone: kept as written
    assert slots.existing[words["fine"]] == ","
    doc, slots, words = _slots(nlp, "well — maybe, and then -")
    assert slots.existing[words["well"]] == "-" and slots.standing == {words["well"], words["then"]}
    assert words["well"] not in slots.written  # a dash is never dropped


def test_abbreviation_periods_are_not_replaceable(nlp):
    doc, slots, words = _slots(nlp, "dr. smith and the u.s. army etc. the end.")
    dr = words["dr"]
    assert dr in slots.abbreviations and dr not in slots.existing and doc[slots.anchor(dr)].text == "."
    assert words["u.s"] in slots.abbreviations and words["etc"] in slots.abbreviations
    assert words["end"] not in slots.abbreviations and slots.existing[words["end"]] == "."


def test_sentence_spans_cover_the_words_and_end_at_sentence_final_marks():
    from spacy_punct.words import sentence_spans

    assert sentence_spans(["", ",", ".", "", "?", ""]) == [(0, 3), (3, 5), (5, 6)]
    assert sentence_spans(["", "."]) == [(0, 2)]
    assert sentence_spans([None, ";", None]) == [(0, 3)]  # a semicolon ends no sentence; None: no gold
    assert sentence_spans(["!", "."]) == [(0, 1), (1, 2)]
    assert sentence_spans([]) == []
