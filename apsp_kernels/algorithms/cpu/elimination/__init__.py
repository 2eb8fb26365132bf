"""All-pairs shortest paths by min-plus Gaussian elimination in a nested-dissection order, over supernodes: the
supernodal APSP of Sao, Kannan, Gera and Vuduc, PPoPP'20 ("A supernodal all-pairs shortest path algorithm",
SuperFW), as a CPU reference for graphs with small separators (road networks, grids, geometric graphs).

Three steps, one module each: ``ordering`` (nested dissection and its supernode tree, recovered by ``etree``
where METIS orders), ``symbolic`` (fill and the dense blocks each supernode keeps), ``numeric`` (the elimination
and the row sweeps, numba).  :func:`factor` runs the first two and the elimination once; :func:`rows` gives any
block of rows from it, :func:`all_pairs` every row.

Deviations from SuperFW: the supernodes are the fundamental supernodes of METIS's permutation with small subtrees
merged, amalgamated up to 128 vertices (without pymetis, the separators and leaf regions of our own dissection);
the all-pairs phase is a tree sweep per block of rows, not a second blocked FW (see numeric).  Weights: integers
(int32 graphs, exact, the INF sentinel) or floats (float64, the sums in another order than scipy's, so equal to
within rounding; exact for integer-valued and dyadic weights that do not round).
Negative edges are supported; a negative cycle raises NegativeCycleError ("negative cycle through vertex v"), found
by the elimination itself: the cycle's last-eliminated vertex gets a negative diagonal when its supernode is
closed."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ....core.distances import NegativeCycleError
from ....core.graph import INF, MAX_PATH_WEIGHT, Graph
from . import numeric
from .ordering import BISECTORS, Ordering, amalgamate, default_bisector, nested_dissection, symmetric_pattern
from .symbolic import Symbolic, symbolic

ROW_BLOCK = 64            # rows swept together: one thread's block, B x n values (64 x 16000 x 4 B = 4 MiB)


@dataclass(frozen=True)
class Factor:
    """The eliminated graph: its ordering, block layout and block values (``val``, int32 or float64)."""
    order: Ordering
    sym: Symbolic
    val: np.ndarray
    pattern_edges: int

    @property
    def n(self):
        return self.sym.n

    @property
    def big(self):
        return MAX_PATH_WEIGHT if self.val.dtype == np.int32 else np.finfo(np.float64).max

    @property
    def inf(self):
        return INF if self.val.dtype == np.int32 else np.inf

    def stats(self):
        return self.sym.stats(self.pattern_edges)


def _edges(a):
    """(n, src, dst, w) of a Graph (int32 weights) or a scipy sparse matrix (csgraph's reading: every stored
    entry an edge; inf and NaN none), and its adjacency pattern."""
    if not isinstance(a, Graph) and sp.issparse(a) and a.dtype.kind in "iub":
        a = Graph.from_scipy(a)          # the project's validation: every path within the int32 bound, else refused
    if isinstance(a, Graph):
        src, dst, w = a.edges()
        n = a.n
        w = np.asarray(w, np.int32)
    else:
        c = sp.csr_matrix(a).tocoo()     # as csgraph reads it: a COO's duplicates summed, a CSR's kept (the lightest
        keep = np.isfinite(c.data)       # is the edge: load takes the minimum)
        n, src, dst, w = c.shape[0], c.row[keep], c.col[keep], c.data[keep].astype(np.float64)
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    loop = src == dst
    if (loop & (w < 0)).any():
        v = int(src[np.flatnonzero(loop & (w < 0))[0]])
        raise NegativeCycleError(f"negative cycle through vertex {v}", vertex=v)
    src, dst, w = src[~loop], dst[~loop], w[~loop]
    adj = sp.csr_matrix((np.ones(src.size, np.int8), (src, dst)), shape=(n, n))
    return n, src, dst, w, adj


def factor(a, leaf=32, bisector=None, cap=None, threads=None) -> Factor:
    """Order, analyse and eliminate the graph ``a`` (a Graph, or a scipy sparse matrix with integer or float
    weights).  ``leaf``: the largest subtree (region) kept as one dense supernode; ``bisector``: "metis"
    (METIS_NodeND, the tree recovered), "metis-bisect" (pymetis, region by region) or "levels" (scipy); default
    metis where installed; ``cap``: supernodes amalgamated up to this size (default the larger of ``leaf`` and
    128, 0 none); ``threads``: METIS's regions ordered on that many threads (default: worker processes, see
    :func:`.ordering.nested_dissection`)."""
    n, src, dst, w, adj = _edges(a)
    order = nested_dissection(adj, leaf=leaf, bisector=bisector, cap=cap, threads=threads)
    pattern = symmetric_pattern(adj)
    sym = symbolic(order, pattern)
    iperm = order.iperm
    val = np.empty(sym.size, w.dtype if w.dtype == np.int32 else np.float64)
    f = Factor(order, sym, val, int(pattern.nnz) // 2)
    numeric.load(sym.start, sym.fptr, sym.fidx, sym.sn, sym.off_ss, sym.off_sf, sym.off_fs, val,
                 iperm[src], iperm[dst], w.astype(val.dtype), val.dtype.type(f.inf))
    bad = numeric.eliminate(sym.start, sym.fptr, sym.fidx, sym.sn, sym.off_ss, sym.off_sf, sym.off_fs, val,
                            val.dtype.type(f.big), val.dtype.type(f.inf))
    if bad >= 0:
        v = int(order.perm[bad])
        raise NegativeCycleError(f"negative cycle through vertex {v}", vertex=v)
    return f


def rows(f: Factor, sources, block=ROW_BLOCK) -> np.ndarray:
    """Distances from each of ``sources`` (original vertex ids) to every vertex: shape (len(sources), n), int32
    with INF (int32 graphs) or float64 with inf.  Sources are swept in blocks of ``block``, blocks in parallel;
    what a GPU port computes per block of rows."""
    sources = np.asarray(sources, np.int64).reshape(-1)
    new = f.order.iperm[sources]
    by = np.argsort(new, kind="stable")            # the sweeps take sources in elimination order
    out = np.empty((sources.size, f.n), f.val.dtype)
    s = f.sym
    numeric.rows_into(out, new[by], by, f.order.iperm, int(block), s.start, s.first, s.fptr, s.fidx, s.off_ss,
                      s.off_sf, s.off_fs, f.val, f.val.dtype.type(f.big), f.val.dtype.type(f.inf))
    return out


def all_pairs(f: Factor, block=ROW_BLOCK) -> np.ndarray:
    """The n x n distance matrix (original numbering), every row by the sweeps."""
    return rows(f, np.arange(f.n), block)


def elimination_apsp(g: Graph, leaf=32, bisector=None, block=ROW_BLOCK) -> np.ndarray:
    """All pairs of an int32 graph by supernodal min-plus elimination: the registry's solver (int32, INF)."""
    return all_pairs(factor(g, leaf=leaf, bisector=bisector), block)


__all__ = ["BISECTORS", "Factor", "Ordering", "ROW_BLOCK", "Symbolic", "all_pairs", "amalgamate", "default_bisector",
           "elimination_apsp", "factor", "nested_dissection", "rows", "symbolic", "symmetric_pattern"]
