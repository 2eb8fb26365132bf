"""``tuned_elimination``: all-pairs shortest paths by supernodal min-plus elimination on the GPU (Sao et al.,
PPoPP'20, SuperFW lineage; ``cuda/tuned_elimination.cu`` says how and why, ``docs/elimination.md`` the design).

The host runs the CPU package's ordering and symbolic phases (``algorithms/cpu/elimination``) on the REVERSED
graph and loads its edges into the factor's blocks; the device eliminates the factor and sweeps it into the
vertex-major result, which for the reversed graph is the distance matrix row-major (nested-dissection numbering),
then permutes it into the original numbering: copied back by the launcher, or left on the device by
:func:`tuned_elimination_resident` (``shortest_paths``' path).  :func:`plan` is the launch list (pure numpy: the
CPU emulation in ``tests/emulate/elimination_harness.cpp`` runs the same list).  int32 only; negative edges allowed; a negative
cycle raises NegativeCycleError as ``elimination_cpu`` does (the vertex named may differ: the supernodes of one
level of the tree are closed together)."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .... import gpu_device
from ....core.graph import INF, MAX_PATH_WEIGHT, Graph, round_up
from ....core.sources import as_sources

TILE = 128          # the product's C tile is TM x TN = TILE^2 cells (TEL_T), TM one of TILE_ROWS
TILE_ROWS = (32, 64, 128)
THREADS = 256       # TEL_THREADS
DESC = 17           # int64 fields of a descriptor (TEL_DESC)
(CTA0, M, K, AOFF, ASI, ASK, BOFF, LDB, BIDX, COFF, LDC, CIDX, CLO, CHI, MTC, NTC, TM) = range(DESC)
KERNELS = ("tel_close", "tel_product", "tel_product_rows", "tel_schur")
PHASES = ("elimination", "upward", "downward")
LEAVES = (32, 64, 128)
CHUNK_BYTES = 1 << 28   # rows of the result permuted and copied back at a time (the launcher's host result)
NAME = "tuned_elimination"


def padded(n):
    return round_up(max(int(n), 1), TILE)


def footprint(n, m=0):
    """Device bytes, a bound: the vertex-major result (n x N) beside the factor (its blocks hold every ordered pair
    at most once: n^2 int32 at most) and its index arrays (about 8 int64 a vertex), then, the factor freed, beside
    the permuted result (n x n, the device-resident form) or the chunks of the launcher's host copy."""
    n = max(int(n), 1)
    return 4 * n * padded(n) + 4 * n * n + 64 * n + 2 * CHUNK_BYTES


@dataclass(frozen=True)
class Prepared:
    """The host side: ordering (``perm[new] = old``), symbolic structure and the loaded (not yet eliminated)
    factor values of the reversed graph."""
    perm: np.ndarray
    sym: object
    val: np.ndarray
    order_ms: float
    symbolic_ms: float

    @property
    def n(self):
        return int(self.sym.n)


def prepare(g: Graph, leaf=32, bisector=None, cap=None) -> Prepared:
    """Order and analyse ``g`` (int32 weights) and load its REVERSED edges into the factor's blocks."""
    from ...cpu.elimination import _edges
    from ...cpu.elimination import numeric
    from ...cpu.elimination.ordering import nested_dissection, symmetric_pattern
    from ...cpu.elimination.symbolic import symbolic
    if not isinstance(g, Graph):
        raise TypeError("tuned_elimination takes an int32 Graph")
    t0 = time.perf_counter()
    n, src, dst, w, adj = _edges(g)            # refuses a negative self-loop (NegativeCycleError)
    order = nested_dissection(adj, leaf=leaf, bisector=bisector, cap=cap)
    t1 = time.perf_counter()
    pattern = symmetric_pattern(adj)
    sym = symbolic(order, pattern)
    iperm = order.iperm
    val = np.empty(sym.size, np.int32)
    # the reversed graph: an edge u -> v is loaded as v -> u
    numeric.load(sym.start, sym.fptr, sym.fidx, sym.sn, sym.off_ss, sym.off_sf, sym.off_fs, val,
                 iperm[dst], iperm[src], np.asarray(w, np.int32), np.int32(INF))
    t2 = time.perf_counter()
    return Prepared(order.perm, sym, val, (t1 - t0) * 1e3, (t2 - t1) * 1e3)


def _levels(sym):
    """height (leaves 0, a parent above every child) and depth (roots 0) of each supernode."""
    ns = sym.start.size - 1
    par = np.asarray(sym.parent, np.int64)
    height = np.zeros(ns, np.int64)
    for s in range(ns):                       # postorder: children first
        if par[s] >= 0:
            height[par[s]] = max(height[par[s]], height[s] + 1)
    depth = np.zeros(ns, np.int64)
    for s in range(ns - 1, -1, -1):           # parents after their children in the order
        if par[s] >= 0:
            depth[s] = depth[par[s]] + 1
    return height, depth


def tile_rows(m):
    """The tile shape of an m-row product: the fewest rows of TILE_ROWS that hold m (narrow supernodes get wide,
    short tiles: a 21-vertex one fills 66 % of a 32 x 512 tile, 16 % of a 128 x 128 one).  ``m`` a number or an
    array."""
    m = np.asarray(m)
    tm = np.select([m <= t for t in TILE_ROWS[:-1]], TILE_ROWS[:-1], TILE_ROWS[-1])
    return int(tm) if tm.ndim == 0 else tm


def _tiles(m, clo, chi, tm):
    """(row tiles, column tiles) of a product of m rows over columns [clo, chi) in tiles of tm rows (arrays)."""
    tn = TILE * TILE // tm
    return -(-m // tm), -(-(chi - clo // tn * tn) // tn)


def _products(m, k, a, b, c, cols, loop_rows=False, loop_cols=False):
    """Descriptors of one product per supernode, [len(m), DESC]: m rows, k the inner dimension, a, b, c the
    operands' (offset, stride i, stride k) / (offset, leading dimension, index offset; -1: contiguous) triples,
    cols the C columns [lo, hi); ``loop_rows`` / ``loop_cols``: one CTA walks every tile along that dimension (its
    B rows, or its A, are its own C)."""
    m = np.asarray(m, np.int64)
    d = np.zeros((m.size, DESC), np.int64)
    tm = tile_rows(m) if m.size else np.zeros(0, np.int64)
    mt, nt = _tiles(m, *cols, tm)
    d[:, TM], d[:, M], d[:, K] = tm, m, k
    for fields, values in (((AOFF, ASI, ASK), a), ((BOFF, LDB, BIDX), b), ((COFF, LDC, CIDX), c),
                           ((CLO, CHI), cols)):
        for f, v in zip(fields, values):
            d[:, f] = v
    d[:, MTC] = 1 if loop_rows else mt
    d[:, NTC] = 1 if loop_cols else nt
    return d


def plan(sym, batch=True):
    """The launches: (descriptors, int64 [d, DESC]; launches, int64 [L, 5] of kernel index in KERNELS, first
    descriptor, descriptor count, CTAs, phase in PHASES).  ``batch``: the supernodes of one level of the tree share a
    launch (elimination and upward sweep by height, children first; downward sweep by depth, parents first); False,
    one supernode a launch (the same order).  Within a launch the descriptors follow the supernodes' order (the
    downward sweep's descending) and a descriptor's first CTA (CTA0) is the CTAs before it in its launch.

    Every product of every supernode is made at once (numpy over the supernodes), then sorted into launches by
    (phase, level, step, supernode): the host cost of this list was 120-200 ms at 48,000 vertices one supernode
    at a time."""
    n = int(sym.n)
    N = padded(n)
    start = np.asarray(sym.start, np.int64)
    first, fptr = np.asarray(sym.first, np.int64), np.asarray(sym.fptr, np.int64)
    ns = start.size - 1
    s = np.arange(ns, dtype=np.int64)
    k = np.diff(start)
    f = np.diff(fptr)
    ss, sf, fs = (np.asarray(o, np.int64) for o in (sym.off_ss, sym.off_sf, sym.off_fs))
    height, depth = _levels(sym)
    if not batch:                             # one supernode a level, in the sweeps' order
        height, depth = s, ns - 1 - s
    lo, hi = start[:-1] * N, start[1:]
    close = np.zeros((ns, DESC), np.int64)
    close[:, M], close[:, AOFF], close[:, BOFF] = k, ss, start[:-1]
    # (kernel, phase, level, step, descriptors, supernodes, which of them): the launch lists' items
    items = [
        (0, 0, height, 0, close, s, None),
        (1, 0, height, 1, _products(k, k, (ss, k, 1), (sf, f, -1), (sf, f, -1), (0, f), loop_rows=True), s, f > 0),
        (1, 0, height, 1, _products(f, k, (fs, k, 1), (ss, k, -1), (fs, k, -1), (0, k), loop_cols=True), s, f > 0),
        (3, 0, height, 2, _products(f, k, (fs, k, 1), (sf, f, -1), (0, 0, fptr[:-1]), (0, f)), s, f > 0),
        (2, 1, height, 0, _products(k, k, (ss, 1, k), (lo, N, -1), (lo, N, -1), (first, hi), loop_rows=True), s, None),
        (2, 1, height, 1, _products(f, k, (sf, 1, f), (lo, N, -1), (0, N, fptr[:-1]), (first, hi)), s, f > 0),
        (2, 2, depth, 0, _products(k, f, (fs, 1, k), (0, N, fptr[:-1]), (lo, N, -1), (0, n)), -s, f > 0),
    ]
    keys, descs, kern = [], [], []
    for i, (kernel, phase, level, step, d, order, keep) in enumerate(items):
        sel = slice(None) if keep is None else keep
        m = d[sel].shape[0]
        # sort key: phase, level, step, supernode (in the sweep's order), then the item (a panel pair's two)
        keys.append(np.stack([np.full(m, phase), level[sel], np.full(m, step), order[sel], np.full(m, i)]))
        descs.append(d[sel])
        kern.append(np.full(m, kernel, np.int64))
    keys, descs, kern = np.concatenate(keys, axis=1), np.concatenate(descs), np.concatenate(kern)
    idx = np.lexsort(keys[::-1])
    keys, descs, kern = keys[:, idx], descs[idx], kern[idx]
    if not descs.shape[0]:
        return descs.reshape(-1, DESC), np.zeros((0, 5), np.int64)
    group = keys[:3]                          # a launch: one (phase, level, step)
    new = np.ones(descs.shape[0], bool)
    new[1:] = (group[:, 1:] != group[:, :-1]).any(axis=0)
    heads = np.flatnonzero(new)
    counts = np.diff(np.append(heads, descs.shape[0]))
    ctas = np.where(kern == 0, 1, descs[:, MTC] * descs[:, NTC])
    total = np.cumsum(ctas)
    descs[:, CTA0] = total - ctas - np.repeat(total[heads] - ctas[heads], counts)   # CTAs before it in its launch
    launches = np.stack([kern[heads], heads, counts, np.add.reduceat(ctas, heads), keys[0, heads]], axis=1)
    return descs, launches.astype(np.int64)


def vertex_index(perm, rows=None):
    """(the row of the vertex-major result ``Gt`` that holds each row asked for, the column of ``Gt`` that holds
    each vertex): the ordering's inverse ``ip[old] = new`` at ``rows`` (every vertex where None), and whole."""
    ip = np.argsort(perm).astype(np.int64)
    return (ip if rows is None else ip[np.asarray(rows, np.int64)]), ip


def vertex_grid(k, n):
    """tel_vertex_rows' grid for k rows of n columns: blocks of THREADS columns (at most 1024 across, each
    looping) by rows (at most 65535 down, the y limit, each looping)."""
    return max(1, min(-(-int(n) // THREADS), 1024)), max(1, min(int(k), 65535))


def result(xp, Gt, perm, rows=None, to_host=np.asarray):
    """The finished matrix on the host from the vertex-major result ``Gt`` (n x N, nested-dissection numbering;
    ``xp`` numpy or cupy, ``to_host`` its copy to numpy): rows ``rows`` (all where None) and every column in the
    original numbering, anything above MAX_PATH_WEIGHT as INF (a no-path value plus a negative edge is still no
    path).  Gathered CHUNK_BYTES of rows at a time, so the device holds no second n x n matrix."""
    n = Gt.shape[0]
    r_host, ip_host = vertex_index(perm, rows)
    ip = xp.asarray(ip_host)
    out = np.empty((r_host.size, n), np.int32)
    step = max(1, CHUNK_BYTES // max(4 * n, 1))
    for a in range(0, r_host.size, step):
        r = xp.asarray(r_host[a:a + step])
        R = Gt[r[:, None], ip[None, :]]                         # one gather: out[a, b] = Gt[ip[a], ip[b]]
        R[R > MAX_PATH_WEIGHT] = INF
        out[a:a + step] = to_host(R)
    return out


def tuned_elimination(g: Graph, leaf=32, sources=None, batch=True, bisector=None, cap=None, phases=False):
    """Distances (int32, INF where no path; rows ``sources`` only where given) and timings: order_ms,
    symbolic_ms (host), h2d_ms, kernel_ms (CUDA events around every launch), d2h_ms (the permutation into the
    original numbering and the copy back), launches.  ``leaf``, ``bisector``, ``cap``: the ordering's
    (cpu.elimination.nested_dissection); ``batch``: the supernodes of a tree level share a launch (else one
    supernode a launch); ``phases=True`` adds elimination_ms, upward_ms, downward_ms (CUDA events between the
    phases: a diagnostic)."""
    cp = gpu_device.require_gpu()
    rows = None if sources is None else as_sources(sources, g.n)
    Gt, perm, timings = _solve(g, leaf, batch, bisector, cap, phases, 2 * CHUNK_BYTES)
    t0 = time.perf_counter()
    d = result(cp, Gt, perm, rows, cp.asnumpy)
    timings["d2h_ms"] = (time.perf_counter() - t0) * 1e3
    return d, timings


def tuned_elimination_resident(g: Graph, leaf=32, sources=None, batch=True, bisector=None, cap=None):
    """The solver's end-to-end path (``shortest_paths``): the int32 rows of ``sources`` (all by default) in the
    original numbering, every column, left on the device, INF not yet normalised, and the timings (the
    launcher's, with permute_ms for the permutation on the device and d2h_ms 0).  The vertex-major result is
    permuted by one launch of tel_vertex_rows into a new k x n matrix and then freed; the factor is freed before
    (device bytes: :func:`footprint`)."""
    from .. import runtime as gpu_runtime
    cp = gpu_device.require_gpu()
    n = g.n
    rows = None if sources is None else as_sources(sources, n)
    k = n if rows is None else int(rows.size)
    Gt, perm, timings = _solve(g, leaf, batch, bisector, cap, False, 4 * k * n)
    t0 = time.perf_counter()
    r, c = vertex_index(perm, rows)
    D = cp.empty((k, n), cp.int32)
    if D.size:
        fn = gpu_runtime.kernel("tuned_elimination.cu", "tel_vertex_rows")
        gpu_runtime.launch(NAME, fn, vertex_grid(k, n), (THREADS,),
                           (Gt, cp.asarray(r), cp.asarray(c), D, np.int64(k), np.int64(n), np.int64(Gt.shape[1])))
    cp.cuda.Device().synchronize()
    del Gt
    timings.update(permute_ms=(time.perf_counter() - t0) * 1e3, d2h_ms=0.0)
    return D, timings


def _solve(g, leaf, batch, bisector, cap, phases, extra):
    """The host phases, the upload and every launch: (the vertex-major result Gt, n x N int32 on the device in
    nested-dissection numbering; the ordering ``perm``; the timings).  The factor and its index arrays are freed on
    return.  ``extra``: device bytes the caller makes beside Gt after that (checked before anything is made).
    A negative cycle raises NegativeCycleError."""
    from ....core.distances import NegativeCycleError
    from .. import runtime as gpu_runtime
    cp = gpu_device.require_gpu()
    n = g.n
    pre = prepare(g, leaf=leaf, bisector=bisector, cap=cap)
    sym = pre.sym
    t0 = time.perf_counter()
    descs, launches = plan(sym, batch)
    t_plan = (time.perf_counter() - t0) * 1e3
    N = padded(n)
    # the factor and its index arrays are freed before the caller's ``extra`` is made: Gt beside the larger
    need = 4 * n * N + max(4 * pre.val.size + 8 * (descs.size + 4 * sym.start.size + sym.fidx.size), int(extra))
    gpu_device.check_fits(NAME, need, hint="a smaller graph")
    fns = [gpu_runtime.kernel("tuned_elimination.cu", k) for k in KERNELS]
    t0 = time.perf_counter()
    i64 = lambda a: cp.asarray(np.ascontiguousarray(a, np.int64))
    val = cp.asarray(pre.val if pre.val.size else np.zeros(1, np.int32))
    d_desc = i64(descs if descs.size else np.zeros(DESC)).reshape(-1)      # flat: launch l starts at d0 * DESC
    start, sn, fptr = i64(sym.start), i64(sym.sn if sym.sn.size else [0]), i64(sym.fptr)
    fidx = i64(sym.fidx if sym.fidx.size else [0])
    off_ss, off_sf, off_fs = (i64(a if a.size else [0]) for a in (sym.off_ss, sym.off_sf, sym.off_fs))
    bad = cp.full(1, n, cp.int32)
    Gt = cp.full((n, N), INF, cp.int32)
    if n:
        Gt[cp.arange(n), cp.arange(n)] = 0
    cp.cuda.Device().synchronize()
    h2d_ms = (time.perf_counter() - t0) * 1e3
    n32 = np.int32(n)
    marks = []
    with gpu_runtime.named_errors(NAME), gpu_runtime.EventTimer() as t:
        for kern, d0, nd, ctas, phase in launches.tolist():
            if phases and (not marks or marks[-1][0] != phase):
                ev = cp.cuda.Event()
                ev.record()
                marks.append((phase, ev))
            dp = d_desc[d0 * DESC:]
            if kern == 0:
                args = (dp, val, bad, n32)
            elif kern == 1:
                args = (dp, np.int32(nd), val, val, val, fidx, bad, n32)
            elif kern == 2:
                args = (dp, np.int32(nd), val, Gt, Gt, fidx, bad, n32)
            else:
                args = (dp, np.int32(nd), val, start, sn, fptr, fidx, off_ss, off_sf, off_fs, bad, n32)
            fns[kern]((int(ctas),), (THREADS,), args)
        if phases:
            ev = cp.cuda.Event()
            ev.record()
            marks.append((None, ev))
    timings = dict(order_ms=pre.order_ms, symbolic_ms=pre.symbolic_ms, plan_ms=t_plan, h2d_ms=h2d_ms,
                   kernel_ms=t.ms, launches=int(len(launches)), supernodes=int(sym.start.size - 1),
                   factor_entries=int(pre.val.size), padded_n=N)
    if phases:
        for p in PHASES:
            timings[f"{p}_ms"] = 0.0
        for (p, a), (_, b) in zip(marks, marks[1:]):
            timings[f"{PHASES[p]}_ms"] += cp.cuda.get_elapsed_time(a, b)
    b = int(cp.asnumpy(bad)[0])
    if b < n:
        v = int(pre.perm[b])
        raise NegativeCycleError(f"negative cycle through vertex {v}", vertex=v)
    return Gt, pre.perm, timings
