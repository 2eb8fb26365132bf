"""Hochberg's difference-of-averages kernel time (seed 002, Sec. 2.3): the arithmetic, on a fake clock."""
import math

import pytest

from apsp_kernels.measure.difference_timing import DifferenceTiming, alternate, measure_algorithm


class FakeClock:
    """Advances by the next of ``steps`` (seconds) at each reading."""

    def __init__(self, steps):
        self.t, self.steps = 0.0, list(steps)

    def __call__(self):
        self.t += self.steps.pop(0) if self.steps else 0.0
        return self.t


def test_alternates_and_takes_the_difference_of_averages():
    # pair r: run with the kernel takes with[r] s, the run without takes without[r] s
    with_s, without_s = [0.010, 0.012, 0.011], [0.004, 0.006, 0.005]
    steps = []
    for w, wo in zip(with_s, without_s):
        steps += [0.5, w, wo]          # the first reading of a pair comes after a gap; then the two runs
    order = []
    res = alternate(lambda: (order.append("with") or "d", {"kernel_ms": 5.5}),
                    lambda: (order.append("without") or "d0", {"kernel_ms": 0.0}),
                    repeats=3, clock=FakeClock(steps), check=lambda d: d == "d")
    assert order == ["with", "without"] * 3
    assert res.with_ms == pytest.approx([10, 12, 11]) and res.without_ms == pytest.approx([4, 6, 5])
    assert res.difference_ms == pytest.approx(11 - 5)
    assert res.end_to_end_ms == pytest.approx(11)
    assert res.event_ms_mean == pytest.approx(5.5)
    assert res.difference_se_ms == pytest.approx(math.sqrt(1 / 3 + 1 / 3))     # sample variances 1 and 1
    assert res.ok == [True, True, True]
    s = res.summary()
    assert s["difference_ms"] == pytest.approx(6) and s["without_ms"] == pytest.approx(5) and s["repeats"] == 3


def test_disagreement_is_outside_z_standard_errors():
    agree = DifferenceTiming(with_ms=[10, 12, 11], without_ms=[4, 6, 5], event_ms=[5.9, 6.1, 6.0])
    assert agree.disagrees() is False
    off = DifferenceTiming(with_ms=[10, 12, 11], without_ms=[4, 6, 5], event_ms=[2.0, 2.0, 2.0])
    assert off.disagrees() is True                                     # |6 - 2| > 2 x 0.82
    one = DifferenceTiming(with_ms=[10], without_ms=[4], event_ms=[6])
    assert one.difference_ms == 6 and one.disagrees() is None          # no spread from one pair


def test_measure_algorithm_warms_up_and_passes_launch():
    calls = []

    class Algo:
        def run(self, graph, variant=None, launch=True, **kw):
            calls.append((variant, launch, kw))
            return "d", {"kernel_ms": 1.0 if launch else 0.0}

    res = measure_algorithm(Algo(), "g", variant=64, repeats=2, warmup=1, check=lambda d: True, memory="x")
    assert [c[1] for c in calls] == [True, False] * 3                  # one warm-up pair, two timed
    assert all(c[0] == 64 and c[2] == {"memory": "x"} for c in calls)
    assert res.repeats == 2 and res.event_ms == [1.0, 1.0]
