"""``tuned_fw``: blocked FW with block 128, phase 3 a register-tiled min-plus product
(``cuda/tuned_fw.cu`` says how and why).  n is padded to a multiple of 128 with isolated vertices.

``dtype``: "int32" (INF where unreachable, as every code here) or "float32" (+inf); None picks
by the graph: a :class:`~apsp_kernels.core.graph.Graph` (int32 weights) gives int32, a
:class:`~apsp_kernels.core.wide.WideGraph` of float weights float32 (its float64 weights rounded to float32, the
sums float32: exact while every path weight is an integer below 2^24, else within (1 + 2^-24)^(2 (n - 1)) - 1
relative of the float64 answer).  The float32 path reads the weights through ``frontier.csr_arrays`` (within float32's range; negative
weights taken, a negative cycle raised as on the int32 path) and takes ``sources=`` (the rows asked for, of the
all-pairs result)."""
from __future__ import annotations

import time

import numpy as np

from .... import gpu_device
from ....core.graph import Graph, round_up
from .. import runtime as gpu_runtime
from ..dense import dense, result
from ....core.sources import as_sources
from ....core.wide import WideGraph

TILE = 128          # block size of the FW and tile of the product (TFW_T in the kernel)
THREADS = 256       # 8 x 8 cells a thread (TFW_THREADS)


def padded(n):
    return round_up(max(int(n), 1), TILE)


def footprint(n, m=0):
    """Device bytes: the padded matrix and the transposed pivot column (colT, 128 x N)."""
    N = padded(n)
    return 4 * N * N + 4 * TILE * N


DTYPES = ("int32", "float32")


def _kernels(float32=False):
    return [gpu_runtime.kernel("tuned_fw.cu", f"tfw_phase{p}{'_f32' if float32 else ''}") for p in (1, 2, 3)]


def tuned_fw(g: Graph, phases=False, dtype=None, sources=None):
    """Distances and timings; ``phases=True`` adds phase1_ms .. phase3_ms (CUDA events around every
    launch, summed: a diagnostic, since the events themselves cost a little).  ``dtype`` and ``sources``: the
    module's docstring."""
    from .frontier import csr_arrays
    name = "tuned_fw"
    if dtype not in (None, *DTYPES):
        raise ValueError(f"dtype must be one of {DTYPES} or None, got {dtype!r}")
    if dtype == "float32" or (dtype is None and isinstance(g, WideGraph) and g.dtype.kind == "f"):
        return _float32(name, g, csr_arrays(g, "float32", who=name, negative_ok=True)[1:], phases, sources)
    gpu_device.require_gpu()
    N = padded(g.n)
    gpu_device.check_fits(name, footprint(g.n), hint="a smaller graph")
    with dense(name, g, TILE, 1, "pageable") as buf:
        assert buf.size == N
        timings = dict(buf.timings, **_solve(name, buf.dev[0], N, phases))
        d = result(buf, 0, g.n)
        return (d if sources is None else d[as_sources(sources, g.n)]), timings


def _float32(name, g, csr, phases, sources):
    """The float32 path: the padded matrix built on the device (+inf, 0 diagonal, each edge's float32 weight, the
    lightest of repeated pairs), solved in place, the rows asked for copied back."""
    cp = gpu_device.require_gpu()
    import cupyx
    indptr, indices, w32 = csr
    n, N = g.n, padded(g.n)
    rows = None if sources is None else as_sources(sources, n)
    gpu_device.check_fits(name, footprint(g.n), hint="a smaller graph")
    t0 = time.perf_counter()
    D = cp.full((N, N), np.inf, cp.float32)
    cp.fill_diagonal(D, 0)
    cp.cuda.Device().synchronize()
    timings = dict(alloc_ms=(time.perf_counter() - t0) * 1e3, dtype="float32")
    t0 = time.perf_counter()
    if indices.size:
        src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        cupyx.scatter_min(D.reshape(-1), cp.asarray(src * N + indices), cp.asarray(w32))
    cp.cuda.Device().synchronize()
    timings["h2d_ms"] = (time.perf_counter() - t0) * 1e3
    timings.update(_solve(name, D, N, phases, float32=True))
    _no_negative_cycle(cp, D, n)
    t0 = time.perf_counter()
    R = D[:n, :n] if rows is None else D[cp.asarray(rows)][:, :n]
    d = cp.ascontiguousarray(R).get()
    timings["d2h_ms"] = (time.perf_counter() - t0) * 1e3
    return d, timings


def _no_negative_cycle(cp, D, n):
    """A diagonal entry below 0 (or NaN: -inf met +inf) after the solve is a negative cycle: NegativeCycleError,
    as the int32 path's ``finish`` raises, never a result."""
    from ....core.distances import NegativeCycleError
    diag = D.diagonal()[:n]
    bad = ~(diag >= 0)
    if n and bool(bad.any()):
        v = int(cp.argmax(bad))
        raise NegativeCycleError(f"negative cycle through vertex {v} (d[{v},{v}] = {float(diag[v])})", vertex=v)


def tuned_fw_resident(g: Graph):
    """The solver's end-to-end path (``shortest_paths``): the matrix built on the device from the graph's
    edges, solved in place and left there: (the n x n cupy view, not yet INF-normalised, timings)."""
    from ..resident import dense_on_device
    name = "tuned_fw"
    gpu_device.require_gpu()
    N = padded(g.n)
    gpu_device.check_fits(name, footprint(g.n), hint="a smaller graph")
    D, timings = dense_on_device(g, N)
    timings.update(_solve(name, D, N, False))
    return D[:g.n, :g.n], timings


def _solve(name, D, N, phases, float32=False):
    """Blocked FW in place on the device matrix ``D`` (N x N, N a multiple of TILE; int32, or float32 where
    ``float32``): its timings."""
    cp = gpu_device.require_gpu()
    p1, p2, p3 = _kernels(float32)
    nb = N // TILE
    n32 = np.int32(N)
    colT = cp.empty((TILE, N), cp.float32 if float32 else cp.int32)
    marks = []
    with gpu_runtime.EventTimer() as t:
        for r in range(nb):
            r32 = np.int32(r)
            steps = [(p1, (1,), (D, n32, r32))]
            if nb > 1:
                steps += [(p2, (nb - 1, 2), (D, colT, n32, r32)), (p3, (nb - 1, nb - 1), (D, colT, n32, r32))]
            for i, (fn, grid, args) in enumerate(steps):
                if phases:
                    ev = cp.cuda.Event()
                    ev.record()
                    marks.append((i, ev))
                gpu_runtime.launch(name, fn, grid, (THREADS,), args)
            if phases:
                ev = cp.cuda.Event()
                ev.record()
                marks.append((None, ev))
    timings = dict(kernel_ms=t.ms, launches=nb * (3 if nb > 1 else 1), padded_n=N)
    if phases:
        per = [0.0, 0.0, 0.0]
        for (i, a), (_, b) in zip(marks, marks[1:]):
            if i is not None:
                per[i] += cp.cuda.get_elapsed_time(a, b)
        timings.update(phase1_ms=per[0], phase2_ms=per[1], phase3_ms=per[2])
    return timings
