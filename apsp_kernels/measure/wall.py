"""The synchronised wall clock of one call, as the structure suite and the benchmark scripts time
``shortest_paths``: the median of several calls, each between two device synchronisations where there is a GPU,
so that a time holds the call's device work and nothing queued before it."""
from __future__ import annotations

import time

import numpy as np


def median_ms(fn, repeats=1, *, warm=False, drop=False, gpu=None):
    """(median ms of ``repeats`` timed calls of ``fn`` (at least one), the last call's result).  ``warm``: one
    untimed call first.  ``drop``: the previous result is released before the next call, so that two never live
    at once (an n x n int32 result at 100,000 vertices is 40 GB).  ``gpu``: whether to synchronise the device
    around each call (default: whether this machine has one)."""
    if gpu is None:
        from .. import gpu_device
        gpu = gpu_device.available()
    if gpu:
        import cupy as cp
        sync = cp.cuda.Device().synchronize
    else:
        def sync():
            pass
    if warm:
        fn()
    times, out = [], None
    for _ in range(max(int(repeats), 1)):
        if drop:
            out = None
        sync()
        t0 = time.perf_counter()
        out = fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times)), out
