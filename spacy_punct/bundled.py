"""The pipelines that ship inside the package, loaded by a short name
(`spacy-punct punctuate en`, `load_pipeline("en")`)."""
from pathlib import Path
from typing import List, Union

BUNDLED_DIR = Path(__file__).parent / "models"


def bundled_names() -> List[str]:
    """The short names of the pipelines in the package."""
    if not BUNDLED_DIR.is_dir():
        return []
    return sorted(path.name for path in BUNDLED_DIR.iterdir() if (path / "config.cfg").is_file())


def resolve_model(model: Union[str, Path]) -> Union[str, Path]:
    """The folder of a bundled pipeline for its short name; anything else (a
    folder, an installed package's name) as it is. A folder of that name in
    the working directory wins over the bundled pipeline."""
    name = str(model)
    if name in bundled_names() and not Path(name).exists():
        return BUNDLED_DIR / name
    return model
