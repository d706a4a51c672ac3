"""A learning-rate schedule that ends within a training time limit.

A recipe's step budget is set on one CPU; on a slower one (no bfloat16
instructions, shared cores) the time limit stops training part-way, while the
learning rate is still high. This schedule declines linearly over its steps or
over its minutes, whichever runs out first, so the decay is complete when the
time is up on any machine, and a machine fast enough for the steps follows the
step schedule exactly."""
import time
from typing import Callable, Iterator

from thinc.api import registry


def warmup_linear_within(
    initial_rate: float,
    warmup_steps: int,
    total_steps: int,
    minutes: float,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[float]:
    """thinc's `warmup_linear.v1` (a linear warm-up over `warmup_steps`, then a
    linear decline to zero at `total_steps`) whose decline runs on whichever
    is further along: the steps taken, or the share of `minutes` gone counted
    in steps (0 minutes: steps only). The optimizer draws the first rate when
    it is made and one more after each update, so the clock starts at the
    first update."""
    if minutes < 0:
        raise ValueError(f"minutes must be >= 0, not {minutes}.")
    started = None
    step = 0
    while True:
        along = float(step)
        if minutes and step:
            now = clock()
            started = now if started is None else started
            along = max(along, (now - started) / (60.0 * minutes) * total_steps)
        warm = step / max(1, warmup_steps) if step < warmup_steps else 1.0
        decline = max(0.0, (total_steps - along) / max(1.0, total_steps - warmup_steps))
        yield min(warm, decline) * initial_rate
        step += 1


@registry.schedules("spacy_punct.warmup_linear_within.v1")
def create_warmup_linear_within(
    initial_rate: float, warmup_steps: int, total_steps: int, minutes: float = 0.0
) -> Iterator[float]:
    """`warmup_linear_within` on the wall clock. Where `minutes` is 0,
    `spacy-punct train --max-minutes` sets it to its time limit."""
    return warmup_linear_within(initial_rate, warmup_steps, total_steps, minutes)
