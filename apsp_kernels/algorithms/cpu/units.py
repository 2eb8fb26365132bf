"""Work units of the CPU solves, and how a sampled solve is timed: a solve too slow to run in full
runs ``samples`` evenly spaced units (pivots, rounds, sources, rows of a squaring) in the same
compiled code, and its time is estimated as setup + work * total / run.  The distances such a
run leaves are no solution: it is never verified (the full runs at small n are, and validate
the estimate)."""
from __future__ import annotations

import time

import numba
import numpy as np

from ...core.distances import finish

def all_units(count):
    return np.arange(count, dtype=np.int64)


def block_rounds(n, block):
    return -(-max(n, 1) // int(block))


def spaced(total, samples):
    """``samples`` evenly spaced indices of 0..total-1 (all of them if samples >= total)."""
    if samples is None or samples >= total:
        return all_units(total)
    return np.unique(np.linspace(0, total - 1, int(samples)).round().astype(np.int64))


def timed_ms(fn, *args):
    t0 = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - t0) * 1e3


def dense_setup(g):
    t0 = time.perf_counter()
    d = g.to_dense()
    return d, (time.perf_counter() - t0) * 1e3


def finish_ms(d):
    t0 = time.perf_counter()
    finish(d.copy())
    return (time.perf_counter() - t0) * 1e3


def cpu_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS
