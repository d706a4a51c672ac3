"""The learning-rate schedule that ends within a time limit."""
from itertools import islice

import pytest
from thinc.api import registry
from thinc.schedules import warmup_linear

from spacy_punct.training.schedules import warmup_linear_within


class Clock:
    """A clock that moves `seconds_per_step` each time it is read."""

    def __init__(self, seconds_per_step: float) -> None:
        self.now, self.step = 0.0, seconds_per_step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_steps_only_is_thincs_warmup_linear():
    expected = list(islice(warmup_linear(1e-3, 10, 50), 60))
    assert list(islice(warmup_linear_within(1e-3, 10, 50, 0.0), 60)) == expected


def test_a_fast_machine_follows_the_steps():
    # 50 steps at 1 s each end long before 10 minutes: the time never binds
    expected = list(islice(warmup_linear(1e-3, 10, 50), 60))
    got = list(islice(warmup_linear_within(1e-3, 10, 50, 10.0, clock=Clock(1.0)), 60))
    assert got == expected


def test_a_slow_machine_declines_by_the_time_limit():
    # 6 s a step: 1 minute holds 10 steps after the first of a 100-step schedule
    rates = list(islice(warmup_linear_within(1.0, 0, 100, 1.0, clock=Clock(6.0)), 14))
    assert rates[0] == 1.0
    assert rates[1] == pytest.approx(0.99)  # the clock starts at the first update: the steps bind
    assert rates[2] == pytest.approx(0.9)
    assert rates[6] == pytest.approx(0.5)
    assert rates[11:] == [0.0, 0.0, 0.0]
    assert all(a >= b for a, b in zip(rates, rates[1:]))


def test_warm_up_is_kept_and_capped_by_the_time():
    rates = list(islice(warmup_linear_within(1.0, 4, 100, 1.0, clock=Clock(15.0)), 6))
    assert rates[:3] == pytest.approx([0.0, 0.25, 0.5])
    assert rates[3] == pytest.approx(50 / 96)  # 30 s of 60 gone: as at step 50 of 100
    assert rates[5] == 0.0


def test_registered_and_checked():
    schedule = registry.resolve({"s": {"@schedules": "spacy_punct.warmup_linear_within.v1", "initial_rate": 1.0,
                                       "warmup_steps": 0, "total_steps": 4}})["s"]
    assert list(islice(schedule, 6)) == [1.0, 0.75, 0.5, 0.25, 0.0, 0.0]
    with pytest.raises(ValueError, match="minutes"):
        next(warmup_linear_within(1.0, 0, 4, -1.0))
