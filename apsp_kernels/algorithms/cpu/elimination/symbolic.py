"""Symbolic min-plus elimination over a supernode tree (numba): each supernode's structure (the later vertices its
elimination connects it to), where its dense blocks live, and what the numeric phases will cost.

Eliminating supernode S makes its structure F(S) a clique; F(S) is S's own later neighbours together with
the structures of its children, less S (the elimination-tree rule of sparse Cholesky, e.g. Liu 1990, applied
to supernodes; Sao et al., PPoPP'20, use the same fill).  Every vertex of F(S) lies in an ancestor of S, and for
two vertices f1 < f2 of F(S), f2 is in the structure of f1's supernode, so every update the elimination makes
has a stored place: a supernode keeps three dense blocks, D[S,S], D[S,F] and D[F,S]."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numba import njit

from .ordering import Ordering


@dataclass(frozen=True)
class Symbolic:
    """Supernode s: vertices ``start[s]:start[s + 1]`` (new numbering), structure ``fidx[fptr[s]:fptr[s + 1]]``
    (sorted), blocks D[S,S], D[S,F], D[F,S] row-major at ``off_ss[s]``, ``off_sf[s]``, ``off_fs[s]`` of one flat
    array of ``size`` entries; ``sn[v]``: the supernode of new vertex v."""
    start: np.ndarray
    first: np.ndarray
    parent: np.ndarray
    fptr: np.ndarray
    fidx: np.ndarray
    sn: np.ndarray
    off_ss: np.ndarray
    off_sf: np.ndarray
    off_fs: np.ndarray
    size: int

    @property
    def n(self):
        return int(self.start[-1])

    @property
    def sizes(self):
        return np.diff(self.start)

    @property
    def fronts(self):
        return np.diff(self.fptr)

    def stats(self, m_pattern):
        """Fill and work of the numeric phases, in entries and min-plus operations (one add and one min)."""
        s = self.sizes.astype(np.float64)
        f = self.fronts.astype(np.float64)
        sub = (self.start[1:] - self.first).astype(np.float64)      # vertices in each supernode's subtree
        return {
            "n": self.n, "supernodes": int(s.size), "pattern_edges": int(m_pattern),
            "stored_entries": int(self.size),                          # sum s^2 + 2 s f: the factor's dense blocks
            "fill_ratio": float(self.size) / max(m_pattern + self.n, 1),
            "largest_supernode": int(s.max()) if s.size else 0, "largest_front": int(f.max()) if f.size else 0,
            "mean_supernode": float(s.mean()) if s.size else 0.0,
            "elimination_ops": float((s ** 3 + 2 * s * s * f + s * f * f).sum()),
            "upward_ops_all_rows": float((sub * (s * s + s * f)).sum()),
            "downward_ops_per_row": float((s * f).sum()),
        }


@njit(cache=True)
def _structures(start, parent, perm, iperm, indptr, indices):
    """(fptr, fidx) of every supernode's structure, sorted, supernodes in order (children first): its own
    later neighbours and its children's structures beyond it, each vertex once."""
    ns = start.size - 1
    head = np.full(ns, -1, np.int64)          # children lists: head[p], then nxt[c]
    nxt = np.full(ns, -1, np.int64)
    for c in range(ns - 1, -1, -1):
        if parent[c] >= 0:
            nxt[c] = head[parent[c]]
            head[parent[c]] = c
    seen = np.full(perm.size, -1, np.int64)   # seen[w] == s: w is in s's structure already
    buf = np.empty(perm.size, np.int64)
    fptr = np.zeros(ns + 1, np.int64)
    fidx = np.empty(max(indices.size, 16), np.int64)
    for s in range(ns):
        end = start[s + 1]
        cnt = 0
        for v in range(start[s], end):
            u = perm[v]
            for e in range(indptr[u], indptr[u + 1]):
                w = iperm[indices[e]]
                if w >= end and seen[w] != s:
                    seen[w] = s
                    buf[cnt] = w
                    cnt += 1
        c = head[s]
        while c >= 0:
            for t in range(fptr[c], fptr[c + 1]):
                w = fidx[t]
                if w >= end and seen[w] != s:
                    seen[w] = s
                    buf[cnt] = w
                    cnt += 1
            c = nxt[c]
        if fptr[s] + cnt > fidx.size:         # grow the concatenated structures geometrically
            more = np.empty(max(2 * fidx.size, fptr[s] + cnt), np.int64)
            more[:fptr[s]] = fidx[:fptr[s]]
            fidx = more
        fidx[fptr[s]:fptr[s] + cnt] = np.sort(buf[:cnt])
        fptr[s + 1] = fptr[s] + cnt
    return fptr, fidx[:fptr[ns]].copy()


def symbolic(order: Ordering, pattern: sp.csr_matrix) -> Symbolic:
    """The structures and block layout of ``order``'s supernodes; ``pattern``: the graph's symmetric pattern in
    the original numbering (ordering.symmetric_pattern)."""
    start, parent = order.start, order.parent
    ns = start.size - 1
    sn = np.repeat(np.arange(ns, dtype=np.int64), np.diff(start))
    fptr, fidx = _structures(start.astype(np.int64), parent.astype(np.int64), order.perm.astype(np.int64),
                             order.iperm.astype(np.int64), pattern.indptr.astype(np.int64),
                             pattern.indices.astype(np.int64))
    sz = np.diff(start)
    fr = np.diff(fptr)
    blocks = np.stack([sz * sz, sz * fr, fr * sz], axis=1).reshape(-1)
    offs = np.zeros(blocks.size + 1, np.int64)
    np.cumsum(blocks, out=offs[1:])
    return Symbolic(start, order.first, parent, fptr, fidx, sn, offs[0:-1:3].copy(), offs[1:-1:3].copy(),
                    offs[2:-1:3].copy(), int(offs[-1]))
