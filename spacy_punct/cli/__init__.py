"""The `spacy-punct` command line: one module per command, each a thin
wrapper over the library, as in spaCy's own `spacy/cli/`."""
from ._util import app
from . import (  # noqa: F401  (each module registers its command, in this order in --help)
    convert,
    stats,
    punctuate,
    stream,
    serve,
    quantize,
    evaluate,
    benchmark,
    train,
    split,
    tune,
    distill,
    strip,
    install,
)

__all__ = ["app"]
