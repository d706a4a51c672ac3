"""Millions of documents on Ray: the engine and its inputs and outputs (the
`ray` extra)."""

from .engine import (  # the names of the module this package was
    IDLE_IO_WORKERS,
    IO_CPUS,
    OUTPUT_SCHEMA,
    PunctuateBatch,
    PunctuateLines,
    init_ray,
    input_format,
    punctuate_dataset,
    punctuate_files,
    read_records,
)

__all__ = [
    "IDLE_IO_WORKERS",
    "IO_CPUS",
    "OUTPUT_SCHEMA",
    "PunctuateBatch",
    "PunctuateLines",
    "init_ray",
    "input_format",
    "punctuate_dataset",
    "punctuate_files",
    "read_records",
]
