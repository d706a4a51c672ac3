"""Measuring pipelines: evaluation, tuning, speed, the tables of scores."""

from .scoring import (  # the names of the module this package was
    INPUT_CASES,
    RUN_FILE,
    evaluate,
    punctuated_examples,
    run_pipeline,
    run_record,
    with_gold_marks,
)

__all__ = [
    "INPUT_CASES",
    "RUN_FILE",
    "evaluate",
    "punctuated_examples",
    "run_pipeline",
    "run_record",
    "with_gold_marks",
]
