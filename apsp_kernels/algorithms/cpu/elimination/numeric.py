"""Numeric min-plus elimination over supernodes, and the sweeps that turn the eliminated blocks into rows of the
distance matrix (numba).  The algorithm is the supernodal APSP of Sao et al., PPoPP'20 ("A supernodal all-pairs
shortest path algorithm", SuperFW): Gaussian elimination in the (min, +) semiring, in a nested-dissection order.

Elimination, supernode S in order, F its structure:
  D[S,S] <- closure of D[S,S] (Floyd-Warshall on the block; a negative diagonal entry is a negative cycle);
  D[S,F] <- D[S,S] (x) D[S,F];  D[F,S] <- D[F,S] (x) D[S,S];
  D[F,F] <- min(D[F,F], D[F,S] (x) D[S,F]), scattered into the ancestors' blocks.
Afterwards D[S,F] (D[F,S]) is the shortest S -> F (F -> S) distance over paths inside S's subtree.

Rows (deviation: SuperFW runs its all-pairs phase as a second blocked FW over the dense matrix; we take rows by
sweeps over the tree, which is the same min-plus work per row and gives any block of rows by itself):
  upward, S in order, rows of S's subtree:  G[r,S] <- G[r,S] (x) D[S,S];  G[r,F] <- min(G[r,F], G[r,S] (x) D[S,F]);
  downward, S in reverse order, every row:  G[r,S] <- min(G[r,S], G[r,F] (x) D[F,S]).
A path from r into S either stays in S's subtree (the upward value) or enters it last from some f in F (the
downward term), whose distance from r is final because F is eliminated after S.

Values are int32 with the INF sentinel (int32 graphs: INF + INF fits, see core.graph) or float64 with inf; an
operand above ``big`` is no path and is skipped, so an int32 sum never adds two sentinels to a sentinel.  Products
are done in place, which is exact because the block they multiply by is closed (triangle inequality)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True)
def _position(fidx, lo, hi, v):
    """Index of v in the sorted fidx[lo:hi] (it is there: the symbolic phase put it there)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if fidx[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def load(start, fptr, fidx, sn, off_ss, off_sf, off_fs, val, src, dst, w, inf):
    """The graph's edges (new numbering) into the blocks: all no-path, zero diagonals, each edge where it
    lives (the lightest of parallel edges)."""
    val[:] = inf
    for s in range(start.size - 1):
        k = start[s + 1] - start[s]
        for i in range(k):
            val[off_ss[s] + i * k + i] = 0
    for e in range(src.size):
        u, v = src[e], dst[e]
        a, b = sn[u], sn[v]
        if a == b:
            k = start[a + 1] - start[a]
            p = off_ss[a] + (u - start[a]) * k + (v - start[a])
        elif u < v:
            f = fptr[a + 1] - fptr[a]
            p = off_sf[a] + (u - start[a]) * f + (_position(fidx, fptr[a], fptr[a + 1], v) - fptr[a])
        else:
            k = start[b + 1] - start[b]
            p = off_fs[b] + (_position(fidx, fptr[b], fptr[b + 1], u) - fptr[b]) * k + (v - start[b])
        if w[e] < val[p]:
            val[p] = w[e]


@njit(cache=True)
def _close(ss, big):
    """Floyd-Warshall on one dense block, in place; the first vertex whose diagonal turns negative, or -1."""
    k_ = ss.shape[0]
    for k in range(k_):
        rowk = ss[k]
        for i in range(k_):
            dik = ss[i, k]
            if dik > big:
                continue
            rowi = ss[i]
            for j in range(k_):
                rowi[j] = min(rowi[j], dik + rowk[j])
        for i in range(k_):
            if ss[i, i] < 0:
                return i
    return -1


@njit(cache=True)
def _left_times(x, c, big):
    """x <- x (x) c in place, c closed (each row of x combines c's rows)."""
    for i in range(x.shape[0]):
        row = x[i]
        for k in range(c.shape[0]):
            xik = row[k]
            if xik > big:
                continue
            ck = c[k]
            for j in range(c.shape[1]):
                row[j] = min(row[j], xik + ck[j])


@njit(cache=True)
def _right_times(c, x, big):
    """x <- c (x) x in place, c closed."""
    for i in range(c.shape[0]):
        row = x[i]
        for k in range(c.shape[1]):
            if k == i:
                continue
            cik = c[i, k]
            if cik > big:
                continue
            xk = x[k]
            for j in range(x.shape[1]):
                row[j] = min(row[j], cik + xk[j])


@njit(cache=True)
def eliminate(start, fptr, fidx, sn, off_ss, off_sf, off_fs, val, big, inf):
    """Min-plus elimination of every supernode, in order; returns -1, or a vertex (new numbering) on a
    negative cycle."""
    ns = start.size - 1
    maxf = 0
    for s in range(ns):
        maxf = max(maxf, fptr[s + 1] - fptr[s])
    u = np.empty((maxf, maxf), val.dtype)
    pos = np.zeros(start[-1], np.int64)
    for s in range(ns):
        a = start[s]
        k = start[s + 1] - a
        f = fptr[s + 1] - fptr[s]
        ss = val[off_ss[s]:off_ss[s] + k * k].reshape((k, k))
        bad = _close(ss, big)
        if bad >= 0:
            return a + bad
        if f == 0:
            continue
        sf = val[off_sf[s]:off_sf[s] + k * f].reshape((k, f))
        fs = val[off_fs[s]:off_fs[s] + f * k].reshape((f, k))
        _right_times(ss, sf, big)
        _left_times(fs, ss, big)
        fl = fidx[fptr[s]:fptr[s + 1]]
        for i in range(f):                       # the Schur complement D[F,S] (x) D[S,F]
            row = u[i]
            row[:f] = inf
            fsi = fs[i]
            for c in range(k):
                x = fsi[c]
                if x > big:
                    continue
                sfc = sf[c]
                for j in range(f):
                    row[j] = min(row[j], x + sfc[j])
        i0 = 0
        while i0 < f:                            # scatter, one ancestor's rows of F at a time
            anc = sn[fl[i0]]
            i1 = i0
            while i1 < f and sn[fl[i1]] == anc:
                i1 += 1
            b = start[anc]
            ka = start[anc + 1] - b
            fa = fptr[anc + 1] - fptr[anc]
            for t in range(fa):
                pos[fidx[fptr[anc] + t]] = t
            for i in range(i0, i1):
                li = fl[i] - b
                for j in range(i0, i1):          # both in the ancestor itself: its diagonal block
                    p = off_ss[anc] + li * ka + (fl[j] - b)
                    if u[i, j] < val[p]:
                        val[p] = u[i, j]
                for j in range(i1, f):           # later vertices: in the ancestor's structure
                    pj = pos[fl[j]]
                    p = off_sf[anc] + li * fa + pj
                    if u[i, j] < val[p]:
                        val[p] = u[i, j]
                    p = off_fs[anc] + pj * ka + li
                    if u[j, i] < val[p]:
                        val[p] = u[j, i]
            i0 = i1
    return -1


@njit(cache=True)
def sweep(rows, g, start, first, fptr, fidx, off_ss, off_sf, off_fs, val, big, inf):
    """Distances from the sources ``rows`` (new numbering, ascending) to every vertex, into ``g`` (one row per
    source, columns in new numbering): the upward then the downward sweep."""
    ns = start.size - 1
    g[:, :] = inf
    for r in range(rows.size):
        g[r, rows[r]] = 0
    for s in range(ns):
        lo = np.searchsorted(rows, first[s])
        hi = np.searchsorted(rows, start[s + 1])
        if lo == hi:
            continue                             # no source in this subtree: nothing goes up through S
        a = start[s]
        k = start[s + 1] - a
        f = fptr[s + 1] - fptr[s]
        ss = val[off_ss[s]:off_ss[s] + k * k].reshape((k, k))
        _left_times(g[lo:hi, a:a + k], ss, big)
        if f == 0:
            continue
        sf = val[off_sf[s]:off_sf[s] + k * f].reshape((k, f))
        fl = fidx[fptr[s]:fptr[s + 1]]
        for r in range(lo, hi):
            gr = g[r]
            for c in range(k):
                x = gr[a + c]
                if x > big:
                    continue
                sfc = sf[c]
                for j in range(f):
                    t = x + sfc[j]
                    if t < gr[fl[j]]:
                        gr[fl[j]] = t
    for s in range(ns - 1, -1, -1):
        a = start[s]
        k = start[s + 1] - a
        f = fptr[s + 1] - fptr[s]
        if f == 0:
            continue
        fs = val[off_fs[s]:off_fs[s] + f * k].reshape((f, k))
        fl = fidx[fptr[s]:fptr[s + 1]]
        acc = np.empty(k, val.dtype)             # S's cells of one row apart from the row: no aliasing with
        for r in range(rows.size):               # the block, so the inner loop vectorises
            gr = g[r]
            acc[:] = gr[a:a + k]
            for j in range(f):
                x = gr[fl[j]]
                if x > big:
                    continue
                fsj = fs[j]
                for c in range(k):
                    acc[c] = min(acc[c], x + fsj[c])
            gr[a:a + k] = acc


@njit(cache=True, parallel=True)
def rows_into(out, rows, dest, iperm, block, start, first, fptr, fidx, off_ss, off_sf, off_fs, val, big, inf):
    """out[dest[t]] = distances from new vertex rows[t] (ascending) to every vertex, columns in the original
    numbering, anything above ``big`` written as ``inf`` (an INF plus a negative edge is still no path); blocks
    of ``block`` rows in parallel, each swept on its own (they share nothing)."""
    n = iperm.size
    nb = (rows.size + block - 1) // block
    for b in prange(nb):
        r0 = b * block
        r1 = min(rows.size, r0 + block)
        g = np.empty((r1 - r0, n), val.dtype)
        sweep(rows[r0:r1], g, start, first, fptr, fidx, off_ss, off_sf, off_fs, val, big, inf)
        for r in range(r1 - r0):
            o = out[dest[r0 + r]]
            gr = g[r]
            for v in range(n):
                x = gr[iperm[v]]
                o[v] = inf if x > big else x
