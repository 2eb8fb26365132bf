"""Nested-dissection ordering with its supernode tree, for min-plus elimination (George 1973, "Nested dissection
of a regular finite element mesh"; the supernodal APSP of Sao et al., PPoPP'20, orders by METIS's nested dissection
the same way).

A supernode tree in postorder: supernode ``s`` holds the new vertices ``start[s]:start[s + 1]``, its subtree the
contiguous range ``first[s]:start[s + 1]`` ending at ``s`` itself (the all-pairs sweeps pick the rows a subtree
holds by it), every parent after its children, one root per connected component.

Default ("metis", where pymetis is installed): METIS's own node nested dissection (METIS_NodeND), one C call for
the whole graph, or, on several cores, one call for each region of its top levels, in parallel worker processes
(:mod:`.metis_parallel`).  It returns only a permutation, so the tree is recovered the way sparse Cholesky recovers it
(Liu 1990, "The role of elimination trees in sparse factorization"; :mod:`.etree`): the elimination tree of the
symmetric pattern under that permutation, a postorder of it (same fill, contiguous subtrees), column counts, and
from them the fundamental supernodes, whose columns share one structure; a largest subtree of at most ``leaf``
vertices becomes one supernode, as a dissection's leaf region would.  The tree costs a few linear passes (numba)
beside METIS's one call, where dissecting region by region costs thousands of METIS bisections and as many
submatrix extractions: at 100,000 vertices (grid, kNN) 5-7x the time, for 15-20 % more factor entries and 20-30 %
more min-plus operations than METIS's own dissection.

Kept for environments without pymetis and for comparison, the region-by-region dissection: each region is split
into two parts and a vertex separator; the parts are ordered first (recursively), the separator last, and the
separator becomes one supernode whose children are the parts' top supernodes; a region of at most ``leaf``
vertices is one supernode.  The split is METIS's edge bisection ("metis-bisect", ``pymetis.part_graph``; the
separator is the smaller side of the cut boundary, not a minimum vertex cover of the cut edges) or a
breadth-first level structure from a pseudo-peripheral vertex whose median level is the separator ("levels",
George's automatic nested dissection; scipy only).

Small supernodes make dense blocks too narrow to compute well (a separator of a few vertices between two leaves),
so :func:`amalgamate` merges a supernode into its parent where it immediately precedes it (its last child) while
the merged supernode stays within a size cap: the relaxed supernodes of sparse Cholesky (Ashcraft and Grimes
1989, "The influence of relaxed supernode partitions on the multifrontal method"), whose price is a few stored
no-path entries."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from . import etree, metis_parallel

try:                                  # optional: METIS orders far faster, and irregular graphs with less fill
    import pymetis
except ImportError:                   # pragma: no cover - depends on the environment
    pymetis = None

BISECTORS = ("metis", "metis-bisect", "levels")   # "metis": METIS_NodeND and the tree recovered


@dataclass(frozen=True)
class Ordering:
    """``perm[new] = old``; supernode ``s`` holds new vertices ``start[s]:start[s + 1]``, its subtree
    ``first[s]:start[s + 1]``; ``parent[s]`` is -1 at a root (one per connected component)."""
    perm: np.ndarray
    start: np.ndarray
    first: np.ndarray
    parent: np.ndarray
    bisector: str

    @property
    def iperm(self):
        ip = np.empty_like(self.perm)
        ip[self.perm] = np.arange(self.perm.size, dtype=self.perm.dtype)
        return ip

    @property
    def sizes(self):
        return np.diff(self.start)


def symmetric_pattern(a) -> sp.csr_matrix:
    """The undirected pattern of a directed graph's adjacency (A + A^T, no diagonal): elimination fills
    along both directions of an edge, so ordering and fill are decided on this pattern."""
    a = sp.csr_matrix(a)
    p = sp.csr_matrix((np.ones(a.nnz, np.int8), a.indices, a.indptr), shape=a.shape)
    p = (p + p.T).tocsr()
    rows = np.repeat(np.arange(p.shape[0]), np.diff(p.indptr))
    off = rows != p.indices
    if not off.all():                 # self-loops: dropped by a mask (setdiag rebuilds the matrix, 3x the time)
        indptr = np.zeros(p.shape[0] + 1, p.indptr.dtype)
        np.cumsum(np.bincount(rows[off], minlength=p.shape[0]), out=indptr[1:])
        p = sp.csr_matrix((p.data[off], p.indices[off], indptr), shape=p.shape)
    p.sort_indices()
    return p


def default_bisector():
    return "metis" if pymetis is not None else "levels"


def _levels_bisect(sub):
    """Parts and separator (local indices) of a connected graph from a BFS level structure rooted at a
    pseudo-peripheral vertex: the median level separates the levels before it from those after it."""
    root = 0
    for _ in range(2):                                     # two sweeps find a vertex near the periphery
        lev = csgraph.shortest_path(sub, unweighted=True, indices=root, directed=False)
        root = int(np.argmax(lev))
    lev = csgraph.shortest_path(sub, unweighted=True, indices=root, directed=False).astype(np.int64)
    counts = np.bincount(lev)
    if counts.size < 3:
        return None
    cum = np.cumsum(counts)
    mid = int(np.searchsorted(cum, cum[-1] / 2))
    mid = min(max(mid, 1), counts.size - 2)                # both parts non-empty
    return np.flatnonzero(lev < mid), np.flatnonzero(lev > mid), np.flatnonzero(lev == mid)


def _metis_bisect(sub):
    """METIS's edge bisection; the separator is the cut boundary on the side where it is smaller."""
    _, part = pymetis.part_graph(2, pymetis.CSRAdjacency(sub.indptr, sub.indices))
    part = np.asarray(part, np.int8)
    rows = np.repeat(np.arange(sub.shape[0]), np.diff(sub.indptr))
    cut = part[rows] != part[sub.indices]
    b0 = np.unique(rows[cut & (part[rows] == 0)])
    b1 = np.unique(rows[cut & (part[rows] == 1)])
    if b0.size + b1.size == 0:
        return None
    side, sep = (0, b0) if b0.size <= b1.size else (1, b1)
    in_sep = np.zeros(sub.shape[0], bool)
    in_sep[sep] = True
    a = np.flatnonzero((part == side) & ~in_sep)
    b = np.flatnonzero(part != side)
    return a, b, sep


def amalgamate(o: Ordering, cap) -> Ordering:
    """Merge each supernode into its parent where the parent comes right after it in the order (the range stays
    contiguous, the subtree too) and the merged supernode has at most ``cap`` vertices."""
    ns = o.start.size - 1
    size = np.diff(o.start)
    top = np.arange(ns)                         # the supernode whose group s has joined (the group's last member)
    group = size.copy()                         # vertices of the group ending at s
    merged = np.zeros(ns, bool)                 # s is no longer a group's last member
    for s in range(ns - 1):
        if o.parent[s] == s + 1 and group[s] + size[s + 1] <= cap:
            group[s + 1] += group[s]
            merged[s] = True
    keep = np.flatnonzero(~merged)
    for s in range(ns - 2, -1, -1):
        if merged[s]:
            top[s] = top[s + 1]
    new_id = np.full(ns, -1, np.int64)
    new_id[keep] = np.arange(keep.size)
    start = np.append(o.start[keep] - group[keep] + size[keep], o.start[-1])
    parent = np.where(o.parent[keep] >= 0, new_id[top[np.maximum(o.parent[keep], 0)]], -1)
    return Ordering(o.perm, start, o.first[keep], parent, o.bisector)


CAP = 128      # amalgamation's default size cap: the tuned GPU kernels' product tile, which a GPU port fills


# METIS refines each separator for 10 passes by default; one pass orders a 100,000-vertex kNN graph 15 % faster
# (the ordering's largest cost) for 1-5 % more factor entries, far less than the kernels save over the
# region-by-region dissection's fill
METIS_NITER = 1


def _metis_permutation(p, threads=None):
    """METIS's fill-reducing order of the pattern ``p``: ``perm[new] = old``; its regions on ``threads`` threads,
    by default on worker processes once started (:mod:`.metis_parallel`), where pymetis exports METIS's C API, else
    pymetis's one call of METIS_NodeND."""
    if metis_parallel.available():
        return metis_parallel.order(p, threads=threads, niter=METIS_NITER)
    adj = pymetis.CSRAdjacency(p.indptr.astype(np.int64), p.indices.astype(np.int64))
    perm, _ = pymetis.nested_dissection(adjacency=adj, options=pymetis.Options(niter=METIS_NITER))
    return np.asarray(perm, np.int64)


def tree_ordering(p, perm, leaf, name) -> Ordering:
    """The supernode tree of the flat order ``perm`` (``perm[new] = old``) of the symmetric pattern ``p``: the
    elimination tree, postordered, cut into fundamental supernodes, subtrees of at most ``leaf`` vertices one
    supernode each (see :mod:`.etree`)."""
    n = perm.size
    if n == 0:
        return Ordering(perm, np.zeros(1, np.int64), perm.copy(), perm.copy(), name)
    indptr, indices = p.indptr.astype(np.int64), p.indices.astype(np.int64)
    iperm = np.empty(n, np.int64)
    iperm[perm] = np.arange(n)
    parent = etree.elimination_tree(indptr, indices, perm, iperm)
    post = etree.postorder(parent)
    perm = perm[post]                                   # the postorder: same fill, contiguous subtrees
    where = np.empty(n, np.int64)
    where[post] = np.arange(n)
    parent = np.where(parent[post] >= 0, where[np.maximum(parent[post], 0)], -1)
    iperm[perm] = np.arange(n)
    fd = etree.first_descendants(parent)
    count = etree.column_counts(indptr, indices, perm, iperm, parent, fd)
    new = etree.supernode_starts(parent, fd, count, leaf)
    begin = np.flatnonzero(new)
    last = np.append(begin[1:], n) - 1                  # each supernode's last vertex: its subtree's root
    sn = np.cumsum(new) - 1                             # the supernode of each vertex
    sparent = np.where(parent[last] >= 0, sn[np.maximum(parent[last], 0)], -1)
    return Ordering(perm, np.append(begin, n), fd[last], sparent, name)


def _dissect_regions(p, leaf, bisector) -> Ordering:
    """Region-by-region nested dissection with ``bisector`` ("metis-bisect" or "levels"), unamalgamated."""
    bisect = _metis_bisect if bisector == "metis-bisect" else _levels_bisect
    n = p.shape[0]
    order, start, first, parent = [], [], [], []

    def add(vertices, sub_first):
        start.append(len(order))
        first.append(sub_first)
        parent.append(-1)
        order.extend(vertices.tolist())
        return len(start) - 1

    def dissect(vertices):
        """Order ``vertices`` (old ids); return the supernodes at the top of the subtrees made."""
        here = len(order)
        if vertices.size <= leaf:
            return [add(vertices, here)]
        sub = p[vertices][:, vertices]
        ncomp, label = csgraph.connected_components(sub, directed=False)
        if ncomp > 1:                                      # components never interact: sibling subtrees
            roots = []
            for c in np.argsort(np.bincount(label))[::-1]:
                roots += dissect(vertices[label == c])
            return roots
        split = bisect(sub)
        # a bisection that cuts off nothing, or a separator of half the region (a dense graph), gains
        # nothing over one dense block
        if split is None or min(split[0].size, split[1].size) == 0 or split[2].size * 2 > vertices.size:
            return [add(vertices, here)]
        pa, pb, sep = split
        children = dissect(vertices[pa]) + dissect(vertices[pb])
        s = add(vertices[sep], here)
        for c in children:
            parent[c] = s
        return [s]

    if n:
        # the recursion depth is that of the dissection (about log2 n levels), far below Python's limit
        dissect(np.arange(n, dtype=np.int64))
    start.append(len(order))
    return Ordering(np.asarray(order, np.int64), np.asarray(start, np.int64), np.asarray(first, np.int64),
                    np.asarray(parent, np.int64), bisector)


def nested_dissection(a, leaf=32, bisector=None, cap=None, threads=None) -> Ordering:
    """The nested-dissection ordering of the graph with adjacency ``a`` (any direction: its symmetric pattern
    is dissected).  ``leaf``: the largest subtree (region) kept as one supernode; ``bisector``: "metis"
    (METIS_NodeND, the tree recovered), "metis-bisect" or "levels" (region by region), default "metis" where
    pymetis is installed; ``cap``: supernodes are amalgamated up to this size (default the larger of ``leaf``
    and CAP; 0: none); ``threads``: "metis" orders regions on that many threads (default: worker processes, the cores
    here, at most 8, once started, threads until then; 1: METIS_NodeND on the whole graph, repeatable bit for bit)."""
    bisector = bisector or default_bisector()
    if bisector not in BISECTORS:
        raise ValueError(f"bisector must be one of {BISECTORS}, got {bisector!r}")
    if bisector.startswith("metis") and pymetis is None:
        raise ImportError(f"bisector {bisector!r} needs pymetis (pip install pymetis)")
    p = symmetric_pattern(a)
    if bisector == "metis":
        perm = _metis_permutation(p, threads) if p.shape[0] else np.zeros(0, np.int64)
        o = tree_ordering(p, perm, leaf, bisector)
    else:
        o = _dissect_regions(p, leaf, bisector)
    cap = max(leaf, CAP) if cap is None else cap
    return amalgamate(o, cap) if cap else o
