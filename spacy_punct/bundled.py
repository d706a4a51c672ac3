"""The pipelines that ship inside the package, loaded by a short name
(`spacy-punct punctuate en`, `load_pipeline("en_punct_sm")`).

Each language has a fast pipeline (`*_sm`, a CPU recipe) and, where one is
bundled, an accurate one (`*_trf`, a small pretrained transformer); the
language's code alone names its most accurate one."""
from pathlib import Path
from typing import Dict, List, Union

BUNDLED_DIR = Path(__file__).parent / "models"
# a language code loads the most accurate pipeline bundled for it
DEFAULTS: Dict[str, List[str]] = {"en": ["en_punct_trf", "en_punct_sm"]}


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


def resolve_model(model: Union[str, Path]) -> Union[str, Path]:
    """The folder of a bundled pipeline for its name; anything else (a
    folder, an installed package's name) as it is. A pipeline folder of that
    name in the working directory wins over the bundled pipeline; a folder
    that holds no pipeline (no config.cfg) does not hide it."""
    name = str(model)
    if (Path(name) / "config.cfg").is_file() or name not in bundled_names():
        return model
    return BUNDLED_DIR / (default_pipeline(name) or name)
