"""METIS's node nested dissection with its regions ordered in parallel threads.

pymetis holds Python's GIL for the whole of a METIS call, so one call orders the whole graph on one core: at
16,384 vertices 40-46 ms here and 49-86 ms on the device's host CPU, 5-10 times the elimination kernels there.
pymetis's extension also exports METIS's C API (``METIS_NodeND``, ``METIS_PartGraphRecursive``), and a ctypes call
releases the GIL, so regions of the graph can be ordered at once.  Nested dissection splits naturally: the top
``log2(threads)`` levels are split here, each region by METIS's edge bisection and a minimum vertex cover of the cut
edges (König's theorem, from scipy's maximum bipartite matching; METIS builds its own separators from such a
cover), the regions of one level at once; then every region left is ordered by ``METIS_NodeND`` in its own thread,
and the order is region A, region B, their separator, recursively, as METIS_NodeND orders internally.  The caller
recovers the supernode tree from this flat order as it does from METIS_NodeND's
(:func:`.ordering.tree_ordering`).  Fill within a few per cent of METIS_NodeND's on the whole graph (factor entries
0.97-1.07x on 4 threads on kNN, Delaunay and grid graphs of 8,000-100,000 vertices; up to 1.11x on 16).

Concurrent METIS calls contend: METIS draws its random numbers from the C library's ``rand()``, one state behind
one lock for the process.  On the device's 16-core host, 16 calls on 1,024-vertex graphs took 24 ms in 16 threads
and 6 ms in 16 processes (one alone: 2.4), so ordering gains up to 4 threads (knn of 100,000: 543 ms on 1 thread,
296 on 4, 412 on 16; `scripts/metis_contention_probe.py`) and the default is :data:`MAX_THREADS`.  The shared state
also makes the order (never the distances) differ between runs with more than one thread; ``threads=1`` is one
METIS_NodeND call on the whole graph, pymetis's order bit for bit.  Each METIS call traps SIGABRT and SIGTERM and puts
back the handler it found; overlapping calls would leave METIS's in place, so :func:`signals_kept` restores them.
Where the exported symbols are missing, :func:`available` is False and the caller uses pymetis serially."""
from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import signal
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

try:                                  # optional, as in .ordering
    import pymetis
except ImportError:                   # pragma: no cover - depends on the environment
    pymetis = None

NOPTIONS = 40          # METIS_NOPTIONS: the options array's length
MIN_REGION = 2048      # regions smaller than this are not split further: METIS_NodeND orders them whole
MAX_THREADS = 4        # more threads contend on METIS's rand() lock (above) and order no faster
TRAPPED = (signal.SIGABRT, signal.SIGTERM)   # the signals every METIS call traps (GKlib's gk_sigtrap) and puts back
SIGACTION_BYTES = 512  # room for the C library's struct sigaction (152 bytes with glibc on x86-64), kept as bytes
METIS_OK = 1


@functools.lru_cache(maxsize=1)
def _library():
    """(the ctypes library, its idx_t dtype) from pymetis's extension, or None where it does not export METIS."""
    if pymetis is None:
        return None
    try:
        lib = ctypes.CDLL(pymetis._internal.__file__)
        for name in ("METIS_SetDefaultOptions", "METIS_NodeND", "METIS_PartGraphRecursive"):
            getattr(lib, name)
    except (AttributeError, OSError):
        return None
    probe = np.zeros(NOPTIONS, np.int64)
    lib.METIS_SetDefaultOptions(probe.ctypes.data_as(ctypes.c_void_p))
    # METIS writes -1 into every option: NOPTIONS int64 words if idx_t is 64-bit, half of them if 32-bit
    idx = np.int64 if (probe == -1).all() else np.int32
    return lib, idx


def available() -> bool:
    return _library() is not None


def default_threads() -> int:
    """The threads :func:`order` uses by default: the cores here, at most MAX_THREADS; 1 where the signal handlers
    cannot be kept (:func:`signals_kept`)."""
    return min(threads_here(), MAX_THREADS) if _sigaction() is not None else 1


@functools.lru_cache(maxsize=1)
def _sigaction():
    """The C library's ``sigaction``, or None where ctypes cannot reach it (not a POSIX system)."""
    try:
        fn = ctypes.CDLL(None, use_errno=True).sigaction
    except (AttributeError, OSError, TypeError):
        return None
    fn.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    return fn


@contextlib.contextmanager
def signals_kept():
    """The process's handlers of :data:`TRAPPED` as they were before, whatever METIS calls ran within.  Each METIS
    call installs its own handler for SIGABRT and SIGTERM and puts back the one it found; calls that overlap put back
    each other's, which leaves METIS's installed after them, and a later SIGTERM then crashes the process (a
    segmentation fault) instead of ending it.  The handlers are saved as raw bytes (sigaction with no new action)
    and written back."""
    fn = _sigaction()
    saved = []
    for sig in TRAPPED if fn is not None else ():
        buf = ctypes.create_string_buffer(SIGACTION_BYTES)
        if fn(int(sig), None, buf) == 0:
            saved.append((int(sig), buf))
    try:
        yield
    finally:
        for sig, buf in saved:
            fn(sig, buf, None)


def threads_here() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:            # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _options(idx, niter=None):
    lib, _ = _library()
    o = np.zeros(NOPTIONS, idx)
    lib.METIS_SetDefaultOptions(_ptr(o))
    if niter is not None:
        o[int(pymetis.OptionKey.NITER)] = niter
    return o


def _csr(p):
    """(nvtxs, xadj, adjncy) as METIS reads them (a one-entry adjncy where there are no edges: a valid pointer)."""
    _, idx = _library()
    xadj = np.ascontiguousarray(p.indptr, idx)
    adj = np.ascontiguousarray(p.indices, idx) if p.nnz else np.zeros(1, idx)
    return np.array([p.shape[0]], idx), xadj, adj


def node_nd(p, niter=None) -> np.ndarray:
    """METIS_NodeND's order of the symmetric pattern ``p`` (no diagonal), ``perm[new] = old``; ``niter``: the
    refinement passes (METIS's default where None).  The GIL is released for the call."""
    lib, idx = _library()
    n = p.shape[0]
    if n == 0:
        return np.zeros(0, np.int64)
    nv, xadj, adj = _csr(p)
    perm, iperm = np.empty(n, idx), np.empty(n, idx)
    status = lib.METIS_NodeND(_ptr(nv), _ptr(xadj), _ptr(adj), None, _ptr(_options(idx, niter)), _ptr(perm),
                              _ptr(iperm))
    if status != METIS_OK:
        raise RuntimeError(f"METIS_NodeND failed (status {status}) on a region of {n} vertices")
    return perm.astype(np.int64)


def _edge_bisection(p):
    """METIS's 2-way partition (recursive bisection) of ``p``: an int8 part (0 or 1) a vertex."""
    lib, idx = _library()
    nv, xadj, adj = _csr(p)
    part, cut = np.empty(p.shape[0], idx), np.zeros(1, idx)
    one, two = np.ones(1, idx), np.full(1, 2, idx)
    status = lib.METIS_PartGraphRecursive(_ptr(nv), _ptr(one), _ptr(xadj), _ptr(adj), None, None, None, _ptr(two),
                                          None, None, _ptr(_options(idx)), _ptr(cut), _ptr(part))
    if status != METIS_OK:
        raise RuntimeError(f"METIS_PartGraphRecursive failed (status {status}) on a region of {p.shape[0]} vertices")
    return part.astype(np.int8)


def cover_of_cut(p, part):
    """A minimum vertex cover of the edges of ``p`` between part 0 and part 1 (local indices): by König's theorem
    from a maximum matching of the cut's bipartite graph, the part-0 ends not reached by an alternating path from
    an unmatched part-0 end, and the part-1 ends that are."""
    rows = np.repeat(np.arange(p.shape[0]), np.diff(p.indptr))
    cut = (part[rows] == 0) & (part[p.indices] == 1)
    u, v = rows[cut], p.indices[cut]
    if not u.size:
        return np.zeros(0, np.int64)
    us, ui = np.unique(u, return_inverse=True)
    vs, vi = np.unique(v, return_inverse=True)
    b = sp.csr_matrix((np.ones(u.size, np.int8), (ui, vi)), shape=(us.size, vs.size))
    match = csgraph.maximum_bipartite_matching(b, perm_type="column")     # the column of each row, or -1
    row_of = np.full(vs.size, -1, np.int64)
    matched = match >= 0
    row_of[match[matched]] = np.flatnonzero(matched)
    seen_u, seen_v = ~matched, np.zeros(vs.size, bool)
    frontier = np.flatnonzero(~matched)
    while frontier.size:                       # alternating paths: any cut edge to part 1, a matched one back
        cols = np.unique(b[frontier].indices)
        cols = cols[~seen_v[cols]]
        seen_v[cols] = True
        back = row_of[cols]
        back = back[(back >= 0)]
        back = back[~seen_u[back]]
        seen_u[back] = True
        frontier = back
    return np.concatenate([us[~seen_u], vs[seen_v]]).astype(np.int64)


def split(p):
    """(part a, part b, separator) of the region with pattern ``p`` (local indices), or None where bisection
    separates nothing (no cut edges, or a separator of half the region: a dense region gains nothing)."""
    if p.nnz == 0:
        return None
    part = _edge_bisection(p)
    sep = cover_of_cut(p, part)
    if not sep.size or 2 * sep.size > p.shape[0]:
        return None
    out = np.zeros(p.shape[0], bool)
    out[sep] = True
    a, b = np.flatnonzero((part == 0) & ~out), np.flatnonzero((part == 1) & ~out)
    if not a.size or not b.size:
        return None
    return a, b, sep


def _region(p, vertices):
    sub = p[vertices][:, vertices].tocsr()
    sub.sort_indices()
    return sub


def order(p, threads=None, niter=None, min_region=None) -> np.ndarray:
    """The nested-dissection order of the symmetric pattern ``p`` (``perm[new] = old``) on ``threads`` threads
    (default :func:`default_threads`): the top ceil(log2(threads)) levels split here, a level's regions at once, regions
    of fewer than ``min_region`` vertices (default MIN_REGION) not split; every region left ordered by
    METIS_NodeND (``niter`` refinement passes) in its own thread."""
    if not available():
        raise ImportError("metis_threads needs pymetis with METIS's C API exported (pip install pymetis)")
    threads = default_threads() if threads is None else max(int(threads), 1)
    min_region = MIN_REGION if min_region is None else min_region
    levels = int(np.ceil(np.log2(threads))) if threads > 1 else 0
    if levels == 0 or p.shape[0] < min_region:
        return node_nd(p, niter)
    # the order as a list of pieces, each (kind, vertices): "open" a region a later level may split, "whole" one
    # METIS_NodeND orders as it is (its split found no separator), "separator" vertices in their place; splitting
    # a region replaces it by its part A, its part B and their separator, as METIS_NodeND orders
    pieces = [("open", np.arange(p.shape[0], dtype=np.int64))]
    with signals_kept(), ThreadPoolExecutor(threads) as pool:
        for _ in range(levels):                         # a level's regions split at once
            todo = [i for i, (kind, v) in enumerate(pieces) if kind == "open" and v.size >= min_region]
            halves = dict(zip(todo, pool.map(lambda i: split(_region(p, pieces[i][1])), todo)))
            after = []
            for i, (kind, v) in enumerate(pieces):
                if i not in halves:
                    after.append((kind, v))
                elif halves[i] is None:
                    after.append(("whole", v))
                else:
                    a, b, sep = halves[i]
                    after += [("open", v[a]), ("open", v[b]), ("separator", v[sep])]
            pieces = after
        regions = [v for kind, v in pieces if kind != "separator"]
        orders = iter(pool.map(lambda v: v[node_nd(_region(p, v), niter)], regions))
        return np.concatenate([v if kind == "separator" else next(orders) for kind, v in pieces])
