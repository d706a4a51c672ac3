from spacy_punct.casing import capitalise, decapitalise, is_placeholder, is_uncasable, written_in_capitals


def test_capitalise():
    assert capitalise("hello") == "Hello"
    assert capitalise("ßa") == "ßa"
    assert capitalise("") == ""


def test_decapitalise():
    assert decapitalise("It") == "it"
    assert decapitalise("NASA") == "NASA" and decapitalise("McDonald") == "McDonald"
    assert decapitalise("I") == "I" and decapitalise("it") == "it"


def test_uncasable_tokens():
    for text in (
        "www.example.com",
        "https://x.org/a",
        "me@example.com",
        "c:/users",
        "doc.txt",
        "example.com",
        "getValue",
        "snake_case",
    ):
        assert is_uncasable(text), text
    for text in ("hello", "paris", "u.s", "e.g.", "3.5", "o'brien", "jean"):
        assert not is_uncasable(text), text


def test_placeholders():
    for text in ("[UNK]", "[PAUSE]"):
        assert is_placeholder(text), text
    for text in ("[", "[unk]", "UNK", "[UNK", "NASA"):
        assert not is_placeholder(text), text


def test_texts_written_in_capitals():
    for texts in (["SO", "HOW", "WAS", "IT", "?"], ["I", "MET", "[UNK]", "AT", "5PM"], ["SEE", "www.nasa.gov", "NOW"]):
        assert written_in_capitals(texts), texts
    # a lower-case letter anywhere, or no word that shows it: nothing to say
    for texts in (["THE", "BBC", "said"], ["I", "A", "."], ["[UNK]", "I"], ["WWW.NASA.GOV"], ["5", "-"], []):
        assert not written_in_capitals(texts), texts


def test_a_title_in_capitals_before_a_name_is_written_as_a_title():
    from spacy_punct.casing import titles_before_names

    titles = frozenset({"ms", "dr"})
    texts = ["thank", " ", "you", " ", "ms", " ", "moreno", ",", " ", "ms", " ", "is", " ", "rare"]
    cased = ["thank", None, "you", None, "MS", None, "Moreno", None, None, "MS", None, "is", None, "rare"]
    titles_before_names(texts, cased, titles)
    assert cased[4] == "Ms" and cased[9] == "MS"  # before a name; before a lower-case word it stays
    marked = ["MS", None, "Moreno"]
    titles_before_names(["ms", ".", "moreno"], marked, titles)  # a mark between them: no title
    assert marked[0] == "MS"
