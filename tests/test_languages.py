from spacy_punct.languages import LanguageRules, language_rules


def test_one_table_of_rules_per_language():
    english = language_rules("en")
    assert "n't" in english.clitics and "dr" in english.lower_abbreviations and english.always_capitalised == {"i"}
    hungarian = language_rules("hu")  # no clitics joined, nothing always capitalised; its interjections
    assert hungarian == LanguageRules(interjections=hungarian.interjections) and "igen" in hungarian.interjections


def test_a_texts_language_is_told_by_its_frequent_words_among_the_languages_that_ship():
    from spacy_punct.languages import LANGUAGES, guess_language

    lists = [entry.common_words for entry in LANGUAGES.values() if entry.common_words]
    assert all(not (a & b) for k, a in enumerate(lists) for b in lists[k + 1 :])  # no word in two lists
    assert guess_language("So how was the trip? It was long, but we saw the coast.".split()) == "en"
    assert guess_language("jó napot kívánok miben segíthetek ma az internet nem működik és már".split()) == "hu"
    assert guess_language("আমি বলেছিলাম যে এই কাজটি করতে হবে কিন্তু তুমি না".split()) == "bn"
    assert guess_language("bonjour je suis ici avec mon ami".split()) is None  # no entry's words
    assert guess_language("the trip".split()) is None  # too few to tell
    assert guess_language("the and it az és hogy".split()) is None  # none stands out
