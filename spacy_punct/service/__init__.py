"""The punctuation service: `spacy-punct serve` (the `serve` extra)."""
