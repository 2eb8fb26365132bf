"""The one graph type of the study: n vertices and CSR arrays with int32 weights.

Distances are int32 everywhere (CPU and GPU).  ``INF`` marks "no path"; it is
2**30 - 1 so that ``INF + INF`` (what an unguarded ``d[i,k] + d[k,j]`` computes)
still fits in int32.  A graph is only accepted when every simple path weight
lies within ``±MAX_PATH_WEIGHT`` (= INF // 2): then a real distance can never be
mistaken for INF, and a value that an unguarded kernel derived from INF plus a
negative edge (``INF - w``) stays above MAX_PATH_WEIGHT and is mapped back to INF
by :func:`normalise_inf`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .limits import INF, MAX_PATH_WEIGHT, GraphError, normalise_inf  # noqa: F401  (re-exported: graph.INF, graph.GraphError)


@dataclass(frozen=True, eq=False)
class Graph:
    """A directed weighted graph in CSR form.

    ``indptr[u]:indptr[u+1]`` are the out-edges of ``u``; ``indices`` their heads,
    ``weights`` their int32 weights.  Self-loops are dropped and, of duplicate
    edges, the lightest is kept (see :meth:`from_edges`).
    """

    n: int
    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray
    names: tuple | np.ndarray | None = field(default=None, compare=False)   # vertex ids; None: 0..n-1
    meta: dict = field(default_factory=dict, compare=False)

    # ------------------------------------------------------------------ build
    @classmethod
    def from_edges(cls, n, src, dst, w, names=None, meta=None, allow_negative=True, dtype="int32"):
        """Build from edge lists, through the one validation step (:mod:`.validate`): the numbers
        as given (any dtype, Python ints, Decimals) are checked before any cast.  ``names``: the
        vertices' ids in the source (a tuple of text names, or an integer array such as DIMACS's
        1..n); None means the ids are the positions 0..n-1.  Of parallel edges the lightest is kept
        (the one a shortest path takes); a reader that must say so counts them itself (MatrixMarket).

        ``dtype="int32"`` (the study's graphs, every reader): integer weights within the int32 bound, else
        refused.  ``dtype="auto"`` (``shortest_paths``' inputs): a Graph where that holds, else a
        :class:`~.wide.WideGraph` with int64 weights (integers within the int64 codes' bound) or float64
        ones (the input's floats, not all integers), which only the CPU codes beyond int32 take."""
        from . import validate as V
        from .memory import require_host
        if dtype not in ("int32", "auto"):
            raise ValueError(f"dtype must be 'int32' or 'auto', got {dtype!r}")
        n = V.check_vertex_count(n)
        if not (len(src) == len(dst) == len(w)):
            raise GraphError("src, dst and w must be 1-D arrays of equal length")
        require_host(16 * (n + 1) + 40 * len(src), f"the CSR arrays of a graph of {n} vertices")
        src = V.check_endpoints(src, n, "edge source")
        dst = V.check_endpoints(dst, n, "edge target")
        kind, w64 = ("int", V.check_weights(w)) if dtype == "int32" else V.check_wide_weights(w)
        if not allow_negative and w64.size and w64.min() < 0:
            raise GraphError(f"negative edge weight {w64.min().item()} not allowed here")
        if names is not None and len(names) != n:
            raise GraphError(f"{len(names)} vertex names for {n} vertices")
        keep = src != dst  # self-loops: the diagonal is 0 by definition, but a negative one is a negative cycle
        if (~keep & (w64 < 0)).any():                     # in every input, as scipy's BF and J say
            from .distances import NegativeCycleError
            k = int(np.flatnonzero(~keep & (w64 < 0))[0])          # its position: a reader names its line
            raise NegativeCycleError(f"negative cycle: a self-loop of weight {w64[k].item()} at vertex {int(src[k])}",
                                     vertex=int(src[k]), index=k)
        src, dst, w64 = src[keep], dst[keep], w64[keep]
        key = src * n + dst                               # < n**2 < 2**62: no overflow
        if key.size > 1 and not (key[1:] > key[:-1]).all():
            # sort by (src, dst, w): the first of each (src, dst) run is the lightest.  Input already
            # sorted and free of duplicates (a dense matrix, a CSR matrix) skips this (it was most of the
            # 2.9 s a dense n = 2000 array took to become a Graph)
            order = np.lexsort((w64, dst, src))
            src, dst, w64, key = src[order], dst[order], w64[order], key[order]
            first = np.ones(src.size, bool)
            first[1:] = key[1:] != key[:-1]
            src, dst, w64 = src[first], dst[first], w64[first]
        if src.size >= 2**31:
            raise GraphError("more than 2**31 - 1 edges")
        wide = kind == "float"
        if not wide:
            try:
                V.check_path_bound(n, src, w64)
            except V.InputError:
                if dtype == "int32":
                    raise
                wide = True
                try:
                    V.check_path_bound(n, src, w64, limit=V.MAX_PATH_WEIGHT64)
                except V.InputError:
                    if not V.holds_floats(w):        # integer-valued floats past int64's bound: floats, as 1e19 is
                        raise
                    w64 = w64.astype(np.float64)     # exact: each was a float
        indptr = np.zeros(n + 1, np.int64)
        indptr[1:] = np.bincount(src, minlength=n)
        np.cumsum(indptr, out=indptr)
        if wide:
            from .wide import WideGraph
            return WideGraph(n, indptr, dst.astype(np.int32), w64, names=_as_names(names), meta=dict(meta or {}))
        return cls(n, indptr.astype(np.int32), dst.astype(np.int32), w64.astype(np.int32),
                   names=_as_names(names), meta=dict(meta or {}))

    @classmethod
    def from_scipy(cls, matrix, directed=True, meta=None, dtype="int32"):
        """From a scipy sparse matrix, as ``scipy.sparse.csgraph`` reads it: every stored entry is
        an edge (explicit zeros are zero-weight edges; stored inf and NaN are no edge); ``directed=False``
        adds both directions.  ``dtype``: as :meth:`from_edges`."""
        import scipy.sparse as sp
        if not sp.issparse(matrix):
            raise GraphError(f"from_scipy wants a scipy sparse matrix, got {type(matrix).__name__}")
        if matrix.shape[0] != matrix.shape[1]:
            raise GraphError(f"an adjacency matrix must be square, got shape {matrix.shape}")
        c = sp.csr_matrix(matrix)    # as csgraph converts it: a COO's duplicates summed, a CSR's kept (the lightest
                                     # is the edge); the caller's matrix is never changed
        rows = np.repeat(np.arange(c.shape[0]), np.diff(c.indptr))
        # stored inf and NaN: no edge (scipy's answer); -inf stays, for the validation to refuse (scipy would give
        # -inf distances)
        edge = ~(np.isnan(c.data) | (c.data == np.inf)) if c.data.dtype.kind in "fc" else slice(None)
        return cls.with_direction(matrix.shape[0], rows[edge], c.indices[edge], c.data[edge], directed, None, meta,
                                   dtype)

    @classmethod
    def from_dense(cls, matrix, directed=True, meta=None, dtype="int32"):
        """From a dense adjacency matrix with scipy's dense convention (:func:`dense_edges`): 0, |w| <= 1e-8,
        inf and NaN are 'no edge'.  A masked array: its masked entries are no edge and every other entry
        is one (zeros included), as scipy's ``csgraph_from_masked``; unmasked inf and NaN are no edge.
        Vectorised: the entries come out sorted by (row, column), so no sort is needed."""
        a, edge = dense_edges(matrix)
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise GraphError(f"an adjacency matrix must be square, got shape {a.shape}")
        src, dst = np.nonzero(edge)
        from .validate import InputError
        try:
            return cls.with_direction(a.shape[0], src, dst, a[src, dst], directed, None, meta, dtype)
        except InputError as e:           # name the matrix entry, not the position in the edge list
            if e.index is None or not src.size:
                raise
            k = e.index % src.size
            raise InputError(f"{e.what} (matrix entry [{src[k]}, {dst[k]}])") from None

    @classmethod
    def from_networkx(cls, nx_graph, weight="weight", default_weight=1, meta=None, dtype="int32"):
        """From a networkx graph: vertices in ``nx_graph.nodes`` order (their labels become
        ``names``), edge weights from the ``weight`` attribute (``default_weight`` where absent);
        an undirected graph gets both directions.  A weight of +inf or NaN is no edge, as scipy reads
        ``nx.to_scipy_sparse_array``'s stored entries."""
        nodes = list(nx_graph.nodes)
        index = {v: i for i, v in enumerate(nodes)}
        e = [(index[u], index[v], d.get(weight, default_weight)) for u, v, d in nx_graph.edges(data=True)]
        e = [x for x in e if not _no_edge(x[2])]
        src, dst, w = (np.array(x) for x in zip(*e)) if e else (np.zeros(0, int),) * 3
        return cls.with_direction(len(nodes), src, dst, w, nx_graph.is_directed(), nodes, meta, dtype)

    @classmethod
    def with_direction(cls, n, src, dst, w, directed, names, meta, dtype="int32"):
        if not directed:
            src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
        return cls.from_edges(n, src, dst, w, names=names, meta=meta, dtype=dtype)

    def __eq__(self, other):
        return (isinstance(other, Graph) and self.n == other.n
                and all(np.array_equal(a, b) for a, b in ((self.indptr, other.indptr),
                        (self.indices, other.indices), (self.weights, other.weights))))

    __hash__ = None

    # --------------------------------------------------------------- queries
    @property
    def m(self) -> int:
        return int(self.indices.size)

    @property
    def ids(self) -> np.ndarray:
        """Each vertex's id in its source (text names, DIMACS's 1..n, SNAP's own integers), by position."""
        if self.names is None:
            return np.arange(self.n, dtype=np.int64)
        return np.asarray(self.names) if isinstance(self.names, np.ndarray) else np.array(self.names, dtype=str)

    @property
    def ids_are_positions(self) -> bool:
        """Whether vertex i is called i (so a bare matrix, .npy, needs no ids beside it)."""
        return self.names is None or (isinstance(self.names, np.ndarray) and self.names.dtype.kind in "iu"
                                      and np.array_equal(self.names, np.arange(self.n)))

    @property
    def has_negative(self) -> bool:
        return bool(self.weights.size and self.weights.min() < 0)

    def require_non_negative(self, who):
        """The one refusal of a negative weight by a code that cannot take one (Dijkstra, Harish, ...)."""
        if self.has_negative:
            from .negative_cycle import refuse_negative_cycle
            refuse_negative_cycle(self)          # a negative cycle is named as one, whoever refuses the weights
            raise GraphError(f"{who} needs non-negative edge weights (min weight {int(self.weights.min())})")

    def edges(self):
        """(src, dst, w) arrays."""
        src = np.repeat(np.arange(self.n, dtype=np.int32), np.diff(self.indptr))
        return src, self.indices, self.weights

    def degree_stats(self):
        d = np.diff(self.indptr)
        return {"min": int(d.min()) if d.size else 0, "max": int(d.max()) if d.size else 0,
                "mean": float(d.mean()) if d.size else 0.0}

    # ---------------------------------------------------------- conversions
    def to_dense(self, pad_to: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """int32 distance matrix: weights, 0 on the diagonal, INF elsewhere.

        ``pad_to`` adds isolated padding vertices (INF rows/columns, 0 diagonal),
        which leave every real distance unchanged.  ``out`` is written in place
        (a pinned, mapped or managed host buffer, say).
        """
        size = self.n if pad_to is None else int(pad_to)
        if size < self.n:
            raise ValueError(f"pad_to={size} < n={self.n}")
        if out is None:
            d = np.empty((size, size), dtype=np.int32)
        else:
            if out.shape != (size, size) or out.dtype != np.int32:
                raise ValueError(f"out must be int32 {size}x{size}, got {out.dtype} {out.shape}")
            d = out
        d.fill(INF)
        np.fill_diagonal(d, 0)
        src, dst, w = self.edges()
        d[src, dst] = w
        return d

    def to_scipy(self):
        """scipy CSR matrix; explicit zeros are kept, which csgraph reads as zero-weight edges."""
        import scipy.sparse as sp
        return sp.csr_matrix((self.weights.astype(np.float64), self.indices, self.indptr),
                             shape=(self.n, self.n))

    def reversed(self) -> "Graph":
        src, dst, w = self.edges()
        return Graph.from_edges(self.n, dst, src, w, names=self.names, meta=self.meta)

    def __repr__(self):
        return f"Graph(n={self.n}, m={self.m}, meta={self.meta})"


def _no_edge(x) -> bool:
    """A stored weight scipy.sparse.csgraph reads as no edge: +inf or NaN."""
    return isinstance(x, (float, np.floating)) and (x != x or x == np.inf)


NULL_ATOL = 1e-8       # scipy's dense reading: np.ma.masked_values(a, 0) masks |w| <= atol as 'no edge'


def dense_edges(matrix):
    """(the entries, which of them are edges) of a dense adjacency matrix, as scipy.sparse.csgraph reads it: an
    array (``csgraph_masked_from_dense``): not 0, not within 1e-8 of 0 (floats), not +-inf, not NaN; a masked
    array (``csgraph_from_masked``): every unmasked entry, zeros included, but for +inf and NaN."""
    if np.ma.isMaskedArray(matrix):
        a = np.ma.getdata(matrix)
        kept = ~np.ma.getmaskarray(matrix)
        return a, (kept & ~np.isnan(a) & (a != np.inf) if a.dtype.kind in "fc" else kept)
    a = np.asarray(matrix)
    if a.dtype.kind not in "fc":
        return a, a != 0
    return a, (np.abs(a) > NULL_ATOL) & np.isfinite(a)


def _as_names(names):
    """Integer ids stay a (read-only) int64 array, anything else becomes a tuple of names."""
    if names is None:
        return None
    a = np.asarray(names) if not isinstance(names, tuple) else None
    if a is not None and a.dtype.kind in "iu":
        a = a.astype(np.int64)
        a.flags.writeable = False
        return a
    return tuple(names)


def round_up(n: int, multiple: int) -> int:
    return ((int(n) + multiple - 1) // multiple) * multiple
