"""The `spacy-punct` command line: one module per command, each a thin
wrapper over the library, as in spaCy's own `spacy/cli/`."""

from . import (  # noqa: F401  (each module registers its command, in this order in --help)
    benchmark,
    convert,
    distill,
    evaluate,
    fit_repair,
    install,
    punctuate,
    quantize,
    serve,
    split,
    stats,
    stream,
    strip,
    train,
    tune,
)
from ._util import app

__all__ = ["app"]
