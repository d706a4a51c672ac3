"""The pipelines that ship inside the package, loaded by a short name
(`spacy-punct punctuate en`, `load_pipeline("en_punct_sm")`).

Each language has a fast pipeline (`*_sm`, a CPU recipe) and, where one is
bundled, an accurate one (`*_trf`, a small pretrained transformer); the
language's code alone names its most accurate one."""

import os
import warnings
from pathlib import Path
from typing import Dict, List, Union

from ..languages import LANGUAGES

BUNDLED_DIR = Path(__file__).parent.parent / "models"
# a language code loads the most accurate pipeline bundled for it
DEFAULTS: Dict[str, List[str]] = {code: list(entry.pipelines) for code, entry in LANGUAGES.items() if entry.pipelines}


def _folders() -> List[str]:
    if not BUNDLED_DIR.is_dir():
        return []
    return sorted(path.name for path in BUNDLED_DIR.iterdir() if (path / "config.cfg").is_file())


def default_pipeline(lang: str) -> Union[str, None]:
    """The bundled pipeline that the language code `lang` names, if any."""
    folders = _folders()
    return next((name for name in DEFAULTS.get(lang, []) if name in folders), None)


def bundled_names() -> List[str]:
    """The names that load a bundled pipeline: each pipeline's and the
    language codes'."""
    folders = _folders()
    return sorted(folders + [lang for lang in DEFAULTS if default_pipeline(lang)])


class ShadowedPipelineWarning(UserWarning):
    """A pipeline folder in the working directory has a bundled pipeline's name."""


def resolve_model(model: Union[str, Path]) -> Union[str, Path]:
    """The folder of a bundled pipeline for its name; anything else (a
    folder, an installed package's name) as it is. As with `spacy.load`,
    where names come before paths, a bundled name loads the bundled pipeline
    even where the working directory has a pipeline folder of that name (a
    warning says so): `./en` or a `Path` loads the folder."""
    if isinstance(model, Path):
        return model
    name = str(model)
    if name not in bundled_names():
        return model
    if (Path(name) / "config.cfg").is_file():
        warnings.warn(
            f"{name!r} loads the bundled pipeline {default_pipeline(name) or name}, not the pipeline folder "
            f"{name}{os.sep} in the working directory: give ./{name} to load that one.",
            ShadowedPipelineWarning,
            stacklevel=3,
        )
    return BUNDLED_DIR / (default_pipeline(name) or name)
