"""`spacy-punct install`: the bundled pipelines as installed spaCy packages."""

from typing import List

import typer

from ..pipelines.packages import PackageError
from ..pipelines.packages import install as install_packages
from ._util import app, fail


@app.command(short_help="Install bundled pipelines as spaCy packages (spacy.load by name).")
def install(
    names: List[str] = typer.Argument(..., metavar="NAME...", help="Bundled pipelines: en, en_punct_trf, en_punct_sm."),
) -> None:
    """Install bundled pipelines as spaCy packages, offline: afterwards
    `spacy.load("en_punct_trf")` loads one by name and `spacy info` lists it.
    Each package is a few hundred bytes that load the pipeline inside
    spacy-punct; `pip uninstall en_punct_trf` removes it."""
    try:
        installed = install_packages(names)
    except PackageError as e:
        fail(str(e))
    for name in installed:
        typer.echo(f"Installed {name}: spacy.load({name!r})")


if __name__ == "__main__":
    app()
