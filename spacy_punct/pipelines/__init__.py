"""Pipelines: loading one (a bundled name, a package, a folder), the
bundled ones, their spaCy packages, the teacher pass."""

from .loading import (  # the names of the module this package was
    PipelineError,
    find_punctuator,
    load_for_long_run,
    load_pipeline,
    predict_probs,
    settings_cfg,
)

__all__ = [
    "PipelineError",
    "find_punctuator",
    "load_for_long_run",
    "load_pipeline",
    "predict_probs",
    "settings_cfg",
]
