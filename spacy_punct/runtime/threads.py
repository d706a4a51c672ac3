"""The thread policy: how many threads torch uses for one operation.

Torch's default (one per core) collapses when other processes share the cores:
every operation waits for its slowest thread. One thread per process stays
fast on a busy machine; use processes (`nlp.pipe(n_process=...)`, several
workers) to use more cores.

A process forked after torch ran with several threads hangs at its first
torch operation (the OpenMP thread pool does not survive a fork), which is
what `nlp.pipe(n_process=2)` did once the parent had used the pipeline.
Forked children therefore start with one torch thread.

Hugging Face's fast tokenizers keep a thread pool of their own; a process
forked after it ran prints a warning of four lines to stderr and turns it
off. The pool gains nothing on windows of a hundred pieces, so it is off
unless the environment says otherwise (`TOKENIZERS_PARALLELISM`).
"""

import os
from typing import Optional

import torch
from threadpoolctl import threadpool_limits

DEFAULT_THREADS = 1


def tokenizers_pool_off() -> None:
    """Turn the fast tokenizers' thread pool off where the environment does not set it."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


tokenizers_pool_off()  # before a tokenizer runs


def set_threads(threads: Optional[int] = DEFAULT_THREADS) -> int:
    """Set torch's intra-op threads (None: leave torch's own setting), and
    numpy's BLAS to one thread: its products in a pipeline are small, and its
    threads spinning beside torch's slow both down. Returns torch's number."""
    if threads is not None:
        if not isinstance(threads, int) or isinstance(threads, bool):
            raise TypeError(f"threads must be a whole number (or None), not {threads!r}.")
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}.")
        torch.set_num_threads(threads)
        threadpool_limits(1, user_api="blas")
    return torch.get_num_threads()


def _one_thread_in_child() -> None:
    torch.set_num_threads(1)


os.register_at_fork(after_in_child=_one_thread_in_child)
