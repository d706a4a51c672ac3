from spacy_punct.casing import capitalise, decapitalise, is_placeholder, is_uncasable


def test_capitalise():
    assert capitalise("hello") == "Hello"
    assert capitalise("ßa") == "ßa"
    assert capitalise("") == ""


def test_decapitalise():
    assert decapitalise("It") == "it"
    assert decapitalise("NASA") == "NASA" and decapitalise("McDonald") == "McDonald"
    assert decapitalise("I") == "I" and decapitalise("it") == "it"


def test_uncasable_tokens():
    for text in ("www.example.com", "https://x.org/a", "me@example.com", "c:/users", "doc.txt", "example.com",
                 "getValue", "snake_case"):
        assert is_uncasable(text), text
    for text in ("hello", "paris", "u.s", "e.g.", "3.5", "o'brien", "jean"):
        assert not is_uncasable(text), text


def test_placeholders():
    for text in ("[UNK]", "[PAUSE]"):
        assert is_placeholder(text), text
    for text in ("[", "[unk]", "UNK", "[UNK", "NASA"):
        assert not is_placeholder(text), text
