"""Hochberg's kernel time (seed 002, Sec. 2.3), beside the two times the rest of the study uses, all
from the same runs.

He "compiled a second version of fw that copied the matrix to the card, did not invoke the kernel,
and then copied the memory back off the card.  We alternated runs with no kernel with runs having
the kernel, completing ten runs of each.  We took the difference of the averages."  So, per pair
of runs (with the kernel, then without):

* ``difference_ms`` -- mean(wall with) - mean(wall without): his kernel time;
* ``event_ms``      -- mean of the CUDA-event time around the launches of the runs with the kernel;
* ``end_to_end_ms`` -- mean(wall with): allocation, copies and kernels, the GPU synchronised.

``difference_se_ms`` is the standard error of his difference (the two means' variances added);
the methods *disagree* where the event time lies outside difference +- z standard errors (z = 2),
i.e. where the copies of the two builds do not cancel, or the launches cost more than the kernels.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field


def _mean(xs):
    return sum(xs) / len(xs)


def _var(xs):
    if len(xs) < 2:
        return math.nan
    m = _mean(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


@dataclass
class DifferenceTiming:
    with_ms: list = field(default_factory=list)       # wall time of each run with the kernel
    without_ms: list = field(default_factory=list)    # wall time of each run without it
    event_ms: list = field(default_factory=list)      # CUDA-event kernel time of each run with it
    ok: list = field(default_factory=list)            # each run with the kernel verified (or None)
    timings: dict = field(default_factory=dict)       # the launcher's timings of the last run with it

    @property
    def repeats(self):
        return len(self.with_ms)

    @property
    def difference_ms(self):
        return _mean(self.with_ms) - _mean(self.without_ms)

    @property
    def difference_se_ms(self):
        return math.sqrt(_var(self.with_ms) / len(self.with_ms) + _var(self.without_ms) / len(self.without_ms))

    @property
    def event_ms_mean(self):
        return _mean(self.event_ms)

    @property
    def end_to_end_ms(self):
        return _mean(self.with_ms)

    def disagrees(self, z=2.0):
        """Event time outside his difference +- z standard errors (of both means); None if unknown."""
        se = math.sqrt(self.difference_se_ms ** 2 + _var(self.event_ms) / len(self.event_ms))
        if math.isnan(se):
            return None
        return abs(self.difference_ms - self.event_ms_mean) > z * se

    def summary(self, z=2.0):
        return dict(difference_ms=self.difference_ms, difference_se_ms=self.difference_se_ms,
                    event_ms=self.event_ms_mean, end_to_end_ms=self.end_to_end_ms,
                    without_ms=_mean(self.without_ms), methods_disagree=self.disagrees(z), repeats=self.repeats)


def alternate(run_with, run_without, repeats=10, clock=time.perf_counter, check=None):
    """``repeats`` pairs: ``run_with()`` then ``run_without()``, each timed on ``clock`` (ms when the
    clock counts seconds).  Both return ``(result, timings)`` and synchronise before returning (every
    launcher copies its result back); ``timings["kernel_ms"]`` of the runs with the kernel is the
    event time.  ``check(result)`` -> bool verifies each run with the kernel."""
    out = DifferenceTiming()
    for _ in range(repeats):
        t0 = clock()
        res, timings = run_with()
        t1 = clock()
        run_without()
        t2 = clock()
        out.with_ms.append((t1 - t0) * 1e3)
        out.without_ms.append((t2 - t1) * 1e3)
        out.event_ms.append(float(timings["kernel_ms"]))
        out.ok.append(None if check is None else bool(check(res)))
        out.timings = dict(timings)
    return out


def measure_algorithm(algo, graph, variant=None, repeats=10, warmup=1, check=None, **params):
    """:func:`alternate` for a registry entry whose launcher takes ``launch`` (False: the same copies,
    no kernel); a warm-up pair first (compilation, module load, the memory pool)."""
    def run(launch):
        return lambda: algo.run(graph, variant=variant, launch=launch, **params)
    alternate(run(True), run(False), warmup)
    return alternate(run(True), run(False), repeats, check=check)
