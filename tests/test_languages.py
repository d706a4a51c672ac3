from spacy_punct.languages import LanguageRules, language_rules


def test_one_table_of_rules_per_language():
    english = language_rules("en")
    assert "n't" in english.clitics and "dr" in english.lower_abbreviations and english.always_capitalised == {"i"}
    assert language_rules("hu") == LanguageRules()  # no rules: nothing joined, nothing always capitalised
