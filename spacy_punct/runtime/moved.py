"""The modules' old import paths, from before the package had its floors in
folders (0.1.0) and its file formats a folder of their own: `import
spacy_punct.texts` or a pickle naming `spacy_punct.layers.autocast` or
`spacy_punct.inference.timed` finds the module where it lives now."""

import importlib
import importlib.abc
import importlib.util
import sys
from typing import Any, Optional, Sequence

MOVED = {
    "spacy_punct.threads": "spacy_punct.runtime.threads",
    "spacy_punct.collector": "spacy_punct.runtime.collector",
    "spacy_punct.native_caches": "spacy_punct.runtime.native_caches",
    "spacy_punct.factory_imports": "spacy_punct.runtime.factory_imports",
    "spacy_punct.bundled": "spacy_punct.pipelines.bundled",
    "spacy_punct.packages": "spacy_punct.pipelines.packages",
    "spacy_punct.distillation": "spacy_punct.pipelines.distillation",
    "spacy_punct.texts": "spacy_punct.inference.texts",
    "spacy_punct.records": "spacy_punct.inference.records",
    "spacy_punct.streaming": "spacy_punct.inference.streaming",
    "spacy_punct.text_jobs": "spacy_punct.inference.text_jobs",
    "spacy_punct.textio": "spacy_punct.formats.textio",
    "spacy_punct.timed": "spacy_punct.formats.timed",
    "spacy_punct.captions": "spacy_punct.formats.captions",
    "spacy_punct.input_formats": "spacy_punct.formats.input_formats",
    "spacy_punct.output_formats": "spacy_punct.formats.output_formats",
    "spacy_punct.inference.output_formats": "spacy_punct.formats.output_formats",
    "spacy_punct.inference.textio": "spacy_punct.formats.textio",
    "spacy_punct.inference.timed": "spacy_punct.formats.timed",
    "spacy_punct.inference.captions": "spacy_punct.formats.captions",
    "spacy_punct.inference.input_formats": "spacy_punct.formats.input_formats",
    "spacy_punct.tuning": "spacy_punct.evaluation.tuning",
    "spacy_punct.benchmark": "spacy_punct.evaluation.speed",
    "spacy_punct.score_tables": "spacy_punct.evaluation.score_tables",
    "spacy_punct.ray_io": "spacy_punct.distributed.ray_io",
    "spacy_punct.hf_models": "spacy_punct.layers.hf_models",
    "spacy_punct.windows": "spacy_punct.layers.windows",
    "spacy_punct.word_classifier": "spacy_punct.components.word_classifier",
    "spacy_punct.layers.autocast": "spacy_punct.layers.transformer",
    "spacy_punct.layers.spaces": "spacy_punct.layers.tok2vec",
    "spacy_punct.components.model": "spacy_punct.layers.classifier",
    "spacy_punct.components.span_getters": "spacy_punct.layers.span_getters",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and gives the module at its new one (the same module object)."""

    def find_spec(self, name: str, path: Optional[Sequence[str]] = None, target: Any = None) -> Any:
        if name not in MOVED:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: Any) -> Any:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: Any) -> None:
        pass  # run once, at its new path


def install() -> None:
    """Let the old paths be imported (safe to call repeatedly)."""
    if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModules())
