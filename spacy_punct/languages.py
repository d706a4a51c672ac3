"""Per-language rules, in one table: the clitics a corpus splits off that are
written joined to the word before, abbreviations written in lower case that
spaCy's tokenizer exceptions do not list, and words always written with a
capital. A language without an entry has none of them."""
from dataclasses import dataclass, field
from typing import Dict, FrozenSet


@dataclass(frozen=True)
class LanguageRules:
    # pieces a source splits off (`it 's`, `do n't`), written joined to the word before
    clitics: FrozenSet[str] = field(default_factory=frozenset)
    # abbreviations written in lower case, which spaCy's tokenizer exceptions
    # list capitalised only (or not at all)
    lower_abbreviations: FrozenSet[str] = field(default_factory=frozenset)
    # words written with a capital in any position (English "I")
    always_capitalised: FrozenSet[str] = field(default_factory=frozenset)


RULES: Dict[str, LanguageRules] = {
    "en": LanguageRules(
        clitics=frozenset({"'s", "'re", "'ve", "'ll", "'d", "'m", "n't", "’s", "’re", "’ve", "’ll", "’d", "’m", "n’t"}),
        lower_abbreviations=frozenset(
            "dr mr mrs ms prof st jr sr etc vs inc ltd co corp dept approx gov gen rev sen rep mt".split()
        ),
        always_capitalised=frozenset({"i"}),
    ),
}


def language_rules(lang: str) -> LanguageRules:
    """The rules of language `lang` (none for a language without an entry)."""
    return RULES.get(lang, LanguageRules())
