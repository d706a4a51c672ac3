"""Millions of documents on Ray: the engine and its inputs and outputs (the
`ray` extra)."""

from .engine import (  # the names of the module this package was
    IDLE_IO_WORKERS,
    IO_CPUS,
    OUTPUT_SCHEMA,
    PunctuateBatch,
    PunctuateFolderFiles,
    PunctuateLines,
    init_ray,
    input_format,
    punctuate_dataset,
    punctuate_files,
    punctuate_folder_on_ray,
    read_records,
)

__all__ = [
    "IDLE_IO_WORKERS",
    "IO_CPUS",
    "OUTPUT_SCHEMA",
    "PunctuateBatch",
    "PunctuateFolderFiles",
    "PunctuateLines",
    "init_ray",
    "input_format",
    "punctuate_dataset",
    "punctuate_files",
    "punctuate_folder_on_ray",
    "read_records",
]
