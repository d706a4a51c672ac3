"""`python -m spacy_punct`: the `spacy-punct` command line."""

from .cli import app

if __name__ == "__main__":
    app(prog_name="spacy-punct")
