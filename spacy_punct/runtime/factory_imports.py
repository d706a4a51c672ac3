"""Loading a pipeline imports the factories its config names, not every
installed one.

`spacy.Language()` imports the `spacy_factories` entry point of every
installed package, so loading the CPU recipe imports spacy-transformers and
with it transformers: about 2 s of every process start (the command line, each
Ray actor). Here each factory the config names is looked up (which imports its
own entry point only) and the blanket import is skipped while the pipeline
loads. A config whose factories are not all found, or that sources components
from other pipelines, loads the usual way.
"""

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union

from spacy import util


def config_path(model: Union[str, Path]) -> Optional[Path]:
    """The config.cfg of a pipeline folder or installed pipeline package."""
    path = Path(model)
    if path.is_dir():
        return path / "config.cfg" if (path / "config.cfg").is_file() else None
    if isinstance(model, str) and util.is_package(model):
        return next(iter(sorted(util.get_package_path(model).glob("*/config.cfg"))), None)
    return None


def factory_names(config: Dict[str, Any]) -> Optional[List[str]]:
    """The factories of the config's components; None where a component is
    sourced from another pipeline."""
    names = []
    for component in config.get("components", {}).values():
        if "source" in component or "factory" not in component:
            return None
        names.append(component["factory"])
    return names


def _all_found(config: Dict[str, Any]) -> bool:
    names = factory_names(config)
    if names is None:
        return False
    try:
        from spacy.pipeline.factories import register_factories  # spaCy >= 3.8 registers built-ins lazily
    except ImportError:
        pass
    else:
        register_factories()
    lang_cls = util.get_lang_class(config["nlp"]["lang"])
    for name in names:
        if not lang_cls.has_factory(name):
            util.registry._entry_point_factories.get_entry_point(name)  # imports that package's factory
    return all(lang_cls.has_factory(name) for name in names)


@contextmanager
def named_factories_only(model: Union[str, Path], overrides: Optional[Dict[str, Any]] = None) -> Iterator[None]:
    """While this is open, `spacy.load(model, config=overrides)` imports only
    the factories the pipeline's config names."""
    entry_points = util.registry._entry_point_factories
    path = config_path(model)
    try:
        config = util.load_config(path, overrides=util.dict_to_dot(overrides or {})) if path else None
        skip = entry_points.entry_points and config is not None and _all_found(config)
    except Exception:  # an unreadable config: spacy.load reports it
        skip = False
    if not skip:
        yield
        return
    entry_points.entry_points = False
    try:
        yield
    finally:
        entry_points.entry_points = True
