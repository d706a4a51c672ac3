"""Bounded caches of the CPU kernels that torch calls.

oneDNN, which runs torch's LSTM and bfloat16 matrix products on the CPU, keeps
a kernel for every input shape it meets, and ideep (torch's layer over it) a
cache of its own beside it: 1,024 entries each by default, some of them
megabytes (a weight matrix reordered for one shape). Training reads batches
of ever new shapes, so a process grew by gigabytes before the caches filled:
a bfloat16 linear layer and an LSTM run on 600 random shapes grew to 1.4 GB
resident, and stayed at 0.47 GB with 64 entries each, at the same speed
(docs/experiments/multilingual-encoder.md, "Memory in long CPU runs"). Both
libraries read their limits from the environment when they first run a
kernel, so the limits are set as defaults when this package is imported; a
value already set wins.
"""

import os

CACHE_ENTRIES = 64
CACHE_SETTINGS = ("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "LRU_CACHE_CAPACITY")


def bound_native_caches(entries: int = CACHE_ENTRIES) -> None:
    """Limit oneDNN's and ideep's kernel caches to `entries` each, where the
    environment does not set them; effective before torch's first oneDNN kernel."""
    for name in CACHE_SETTINGS:
        os.environ.setdefault(name, str(entries))
