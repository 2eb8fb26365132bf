"""The solver's end-to-end path on the GPU (``shortest_paths``): the graph goes up as its
edge list and is made into a matrix on the device, the result stays there, is finished (INF, negative cycles)
and converted to the caller's dtype there, and crosses the bus once, into the caller's ``out`` or through two reused
page-locked staging buffers into a new array (:class:`HostRows`).  Measured why (H100, Kemp random n = 16384,
43 ms of kernel): the host path spent 0.72 s in ``astype(float64)``, 0.43 s normalising INF and 0.45 s copying
1 GiB into fresh pageable memory (2.4 GB/s, where pinned memory takes ~50 GB/s)."""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

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


def to_host(R, out=None, made=None):
    """The device array ``R`` copied once to the host: into ``out`` (a C-contiguous numpy array of R's shape and
    dtype; page-locked memory from :func:`pinned_like` is fastest), else into ``made`` (a result of
    :func:`touched`, its touch done) or a new ordinary numpy array, through :class:`HostRows`'s staging buffers."""
    rows = HostRows(R.shape, R.dtype, out, made)
    rows.put(0, R)
    return rows.host


PAGE = 4096
TOUCH_FROM = 64 << 20        # results of at least this many bytes are touched while the GPU solves


def touched(shape, dtype):
    """``(a new host result of shape and dtype, the jobs touching it)``: the host's threads write one byte a page of
    it in the background (the first touch, whose page faults are the larger part of a staged copy into fresh
    memory), so that it overlaps the GPU's solve; wait for the jobs before copying into it.  A result under
    ``TOUCH_FROM`` bytes: no jobs.  Measured why (one H200, 16 host threads, ``scripts/host_path_probe.py``,
    tuned_elimination's float64 result, medians of 3): the grid of 14,000 172.1 ms end to end, 149.2 touched during
    the solve; the kNN graph of 32,000 697.8 and 596.9; Bremen (40,461 vertices) 1,163.6 and 919.2 (a fill of every
    byte then; the device floor 92.2, 228.8 and 263.8)."""
    a = np.empty(shape, dtype)
    if a.nbytes < TOUCH_FROM:
        return a, []
    flat = a.reshape(-1).view(np.uint8)
    pool, threads = _pool()
    step = -(-max(-(-flat.size // threads), 1 << 22) // PAGE) * PAGE
    return a, [pool.submit(_touch, flat[s:s + step]) for s in range(0, flat.size, step)]


def _touch(b):
    b[::PAGE] = 0


def _pool():
    """(the host threads that move staged chunks into a result and touch new ones, how many), made once."""
    if not _POOL:
        t = host_threads()
        _POOL.append((ThreadPoolExecutor(t, thread_name_prefix="apsp-host-copy"), t))
    return _POOL[0]


STAGE_BYTES = 64 << 20       # each of the two page-locked staging buffers, made once and reused by every call
_STAGE = []
_POOL = []                   # (the host threads that move staged chunks and touch new results, how many): _pool()


def host_threads():
    """Threads for the host's side of a staged copy: the first touch of a new result's pages is what costs (one
    thread moves 2 GiB in ~0.45 s, 16 in ~0.11 s: scripts/host_copy_probe.py on the H100 host, 2026-11-26)."""
    return max(1, min(16, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


class HostRows:
    """A host result of ``shape`` and ``dtype`` that device rows are copied into: ``out`` where given, else a new
    ordinary numpy array.  Why not page-locked: a new 2 GiB page-locked block costs ~0.86 s to make (measured, H100
    host, 2026-11-25), where two reused 64 MiB page-locked buffers and :func:`host_threads` threads bring 2 GiB into
    fresh ordinary memory in ~0.11 s; a page-locked ``out`` takes the device's copy directly."""

    def __init__(self, shape, dtype, out=None, made=None):
        self.host = (check_out(out, shape, dtype) if out is not None else made if made is not None
                     else np.empty(shape, dtype))
        self.direct = out is not None

    def put(self, row0, R, stream=None):
        """``R`` (device rows, C-contiguous, the result's dtype) into rows ``row0 ..`` of the host result, copied on
        ``stream`` (default: the current one); returns when they are there."""
        cp = gpu_device.require_gpu()
        stream = stream or cp.cuda.get_current_stream()
        R = cp.ascontiguousarray(R)
        dst = self.host[row0:row0 + R.shape[0]] if R.ndim > 1 else self.host
        if self.direct:
            R.get(out=dst, stream=stream)
            stream.synchronize()
            return
        _staged(R.reshape(-1).view(cp.uint8), dst.reshape(-1).view(np.uint8), stream)

    def put_unfinished(self, row0, D, stream):
        """Unfinished int32 device rows ``D`` (a value past MAX_PATH_WEIGHT: no path) into rows ``row0 ..`` of the
        host result, finished and converted to its dtype by the host's threads as they leave the staging buffers.
        The device's only work is the copy (a DMA, no SM), so it overlaps a kernel that holds every SM, as
        tuned_frontier's streamed chunks do: a conversion kernel would wait for that kernel's blocks to drain."""
        cp = gpu_device.require_gpu()
        D = cp.ascontiguousarray(D)
        dst = self.host[row0:row0 + D.shape[0]].reshape(-1)
        none = {"f": np.inf, "i": INF64 if dst.dtype == np.int64 else INF}[dst.dtype.kind]
        _staged(D.reshape(-1).view(cp.uint8), dst, stream, none=none)


def _staged(src, dst, stream, none=None):
    """Device bytes ``src`` into host bytes ``dst`` in chunks through two page-locked buffers: while the device copies
    chunk k into one, the host's threads move chunk k - 1 out of the other.  With ``none``: ``src`` holds unfinished
    int32 distances and ``dst`` is the typed result, each value converted and any past MAX_PATH_WEIGHT made ``none``."""
    import cupyx
    cp = gpu_device.require_gpu()
    if not _STAGE:
        _STAGE.extend(cupyx.empty_pinned(STAGE_BYTES, np.uint8) for _ in range(2))
    _pool()
    pending = []
    for k, start in enumerate(range(0, src.size, STAGE_BYTES)):
        if len(pending) == 2:
            _drain(pending.pop(0), dst, none)
        size = min(STAGE_BYTES, src.size - start)
        buf = _STAGE[k % 2]
        cp.cuda.runtime.memcpyAsync(buf.ctypes.data, src.data.ptr + start, size, cp.cuda.runtime.memcpyDeviceToHost,
                                    stream.ptr)
        ev = cp.cuda.Event()
        ev.record(stream)
        pending.append((ev, buf, start, size))
    for p in pending:
        _drain(p, dst, none)


def _drain(p, dst, none=None):
    """One staged chunk into its place, split over the host threads (numpy releases the GIL for a plain copy)."""
    ev, buf, start, size = p
    ev.synchronize()
    if none is None:
        s, d = buf[:size], dst[start:start + size]
    else:                                   # int32 elements in, the result's elements out
        s, d = buf[:size].view(np.int32), dst[start // 4:(start + size) // 4]
    pool, threads = _pool()
    step = max(-(-s.size // threads), 1 << 18)
    jobs = [pool.submit(_move, d[a:a + step], s[a:a + step], none) for a in range(0, s.size, step)]
    for j in jobs:
        j.result()


def _move(d, s, none):
    if none is None:
        d[...] = s
    else:
        np.copyto(d, s, casting="unsafe")
        d[s > MAX_PATH_WEIGHT] = none


def pinned_like(shape, dtype=np.float64):
    """A page-locked numpy array for ``shortest_paths(..., out=)``: the fastest host destination."""
    import cupyx
    gpu_device.require_gpu()
    return cupyx.empty_pinned(shape, dtype)
