"""The solver's end-to-end path on the GPU (``shortest_paths``; issue 36, item 1): the graph goes up as its
edge list and is made into a matrix on the device, the result stays there, is finished (INF, negative cycles)
and converted to the caller's dtype there, and crosses the bus once, into page-locked memory from CuPy's pinned
pool (reused across calls once freed) or into the caller's ``out``.  Measured why (H100, Kemp random n = 16384,
43 ms of kernel): the host path spent 0.72 s in ``astype(float64)``, 0.43 s normalising INF and 0.45 s copying
1 GiB into fresh pageable memory (2.4 GB/s, where pinned memory takes ~50 GB/s)."""
from __future__ import annotations

import time
import weakref

import numpy as np

from ... import gpu_device
from ...core.graph import Graph
from ...core.memory import check_out
from ...core.limits import INF, MAX_PATH_WEIGHT
from ...core.wide import INF64

_CONVERT = {}


def dense_on_device(g: Graph, size):
    """The int32 matrix of :meth:`Graph.to_dense` (padded to ``size``) built on the device from the edge list:
    (the cupy matrix, timings with ``h2d_ms`` (the edges' upload) and ``alloc_ms``)."""
    cp = gpu_device.require_gpu()
    t0 = time.perf_counter()
    D = cp.full((size, size), INF, cp.int32)
    cp.fill_diagonal(D, 0)
    cp.cuda.Device().synchronize()
    alloc = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    src, dst, w = g.edges()
    if src.size:               # the same assignment as to_dense (a Graph's edges are distinct pairs)
        D[cp.asarray(src), cp.asarray(dst)] = cp.asarray(w.astype(np.int32, copy=False))
    cp.cuda.Device().synchronize()
    return D, dict(alloc_ms=alloc, h2d_ms=(time.perf_counter() - t0) * 1e3, d2h_ms=0.0)


def finish(D, square=True):
    """:func:`core.distances.finish` on the device: values past MAX_PATH_WEIGHT are INF (in place, views too), and
    where ``D`` is the whole n x n matrix (``square``) a negative diagonal entry is a negative cycle
    (NegativeCycleError, as the host path raises)."""
    cp = gpu_device.require_gpu()
    if "inf" not in _CONVERT:
        _CONVERT["inf"] = cp.ElementwiseKernel("", "int32 d", f"if (d > {MAX_PATH_WEIGHT}) d = {int(INF)}",
                                               "apsp_resident_normalise_inf")
    _CONVERT["inf"](D)
    if square and D.shape[0] == D.shape[1] and D.size:
        diag = D.diagonal()
        v = int(cp.argmin(diag))
        if int(diag[v]) < 0:
            from ...core.distances import NegativeCycleError
            raise NegativeCycleError(f"negative cycle through vertex {v} (d[{v},{v}] = {int(diag[v])})", vertex=v)
    return D


def converted(D, dtype):
    """Finished int32 distances ``D`` (INF: no path) as ``dtype``, on the device, in one pass: a float type
    (inf), int32 (INF, a copy) or int64 (INF64)."""
    cp = gpu_device.require_gpu()
    dt = np.dtype(dtype)
    if dt == np.int32:
        return cp.ascontiguousarray(D)          # the working matrix itself where it is already n x n
    if dt.kind not in "fi" or (dt.kind == "i" and dt != np.int64):
        raise ValueError(f"dtype must be a float type (np.inf for no path), int32 (INF) or int64 (INF64), got {dtype}")
    key = dt.str
    if key not in _CONVERT:
        none = {"float32": "__int_as_float(0x7f800000)", "float64": "__longlong_as_double(0x7ff0000000000000LL)"}.get(
            dt.name, f"(T){int(INF64)}LL")                       # +inf by its bits: NVRTC has no INFINITY
        if dt.kind == "f" and dt.name not in ("float32", "float64"):
            raise ValueError(f"dtype {dt} is not one the device converts to: float64, float32, int32 or int64")
        _CONVERT[key] = cp.ElementwiseKernel("int32 x", "T y", f"y = x == {int(INF)} ? {none} : (T)x",
                                             f"apsp_resident_to_{dt.name}")
    return _CONVERT[key](D, cp.empty(D.shape, dt))


def to_host(R, out=None):
    """The device array ``R`` copied once to the host: into ``out`` (a C-contiguous numpy array of R's shape and
    dtype; page-locked memory from :func:`pinned_like` is fastest), else into page-locked memory from CuPy's pinned
    pool where the last such result this module handed out has been released (its block is back in the pool: the
    copy runs at PCIe rate, ~40 ms for 2 GiB on the H100), else -- the caller still holds it, and a new 2 GiB
    page-locked block costs ~0.86 s to make (measured, H100 host, 2026-11-25) -- into ordinary memory through
    two page-locked staging buffers, the copies overlapped with the host's (:func:`_staged`)."""
    import cupyx
    global _LAST
    if out is not None:
        R.get(out=check_out(out, R.shape, R.dtype))
        return out
    if _LAST is not None and _LAST() is not None:
        return _staged(R)
    host = cupyx.empty_pinned(R.shape, R.dtype)
    R.get(out=host)
    _LAST = weakref.ref(host)
    return host


_LAST = None                 # the last pinned result handed out (a weak reference: alive while the caller holds it)
STAGE_BYTES = 64 << 20       # each of the two staging buffers
_STAGE = []


def _staged(R):
    """``R`` into a new ordinary numpy array, in chunks through two page-locked buffers: while the device copies
    chunk k into one, the host moves chunk k - 1 out of the other."""
    import cupyx
    cp = gpu_device.require_gpu()
    if not _STAGE:
        _STAGE.extend(cupyx.empty_pinned(STAGE_BYTES, np.uint8) for _ in range(2))
    src = cp.ascontiguousarray(R).reshape(-1).view(cp.uint8)
    host = np.empty(R.shape, R.dtype)
    dst = host.reshape(-1).view(np.uint8)
    stream = cp.cuda.get_current_stream()
    pending = []
    for k, start in enumerate(range(0, src.size, STAGE_BYTES)):
        if len(pending) == 2:
            _drain(pending.pop(0), dst)
        size = min(STAGE_BYTES, src.size - start)
        buf = _STAGE[k % 2]
        cp.cuda.runtime.memcpyAsync(buf.ctypes.data, src.data.ptr + start, size, cp.cuda.runtime.memcpyDeviceToHost,
                                    stream.ptr)
        ev = cp.cuda.Event()
        ev.record(stream)
        pending.append((ev, buf, start, size))
    for p in pending:
        _drain(p, dst)
    return host


def _drain(p, dst):
    ev, buf, start, size = p
    ev.synchronize()
    dst[start:start + size] = buf[:size]


def pinned_like(shape, dtype=np.float64):
    """A page-locked numpy array for ``shortest_paths(..., out=)``: the fastest host destination."""
    import cupyx
    gpu_device.require_gpu()
    return cupyx.empty_pinned(shape, dtype)
