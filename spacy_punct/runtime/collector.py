"""Python's garbage collector in processes that punctuate for long.

A loaded pipeline is hundreds of thousands of objects (`en_punct_trf`: about
400,000), which the cyclic garbage collector scans in every full
collection: 0.2 s each with `en_punct_trf`, and new objects that live through
a batch bring one on every few thousand documents. `freeze_loaded_objects`
takes every object alive now out of those scans for the rest of the process
(`gc.freeze()`), so collections scan only what punctuating makes. Frozen
objects are never collected, so the processes that load their pipelines once
call it: the command line after loading, each Ray actor. A library caller
with a long job in its own process may do the same after loading.
"""

import gc


def freeze_loaded_objects() -> None:
    """Leave every object alive now out of the garbage collector's scans."""
    gc.freeze()
