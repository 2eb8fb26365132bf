"""The work tuned_frontier does on a graph, counted on the CPU: its algorithm (Bellman-Ford with a vertex frontier:
every vertex lowered in a round relaxes its out-edges in the next) from a few sources, in Jacobi rounds (a round
reads the distances its frontier held when the round began), each relaxation counted.

Why count it: how often a round lowers a vertex again is not in the probe's hop depth, and tuned_frontier's time
grows with it.  On the held-out checks' rows (one H200, ``scripts/frontier_work.py``) a source relaxes each edge
7-10 times on the square kNN graphs, 12-28 on the king grids (grid8) and 22-31 on the Delaunay graphs, whose long
edges reach far vertices in few hops at lengths later rounds lower again.  The Delaunay graph of 30,000 made 3.5x
the kNN graph's relaxations a source and took 10.9x its time (3.9 s against 0.36 s, at a smaller hop depth): its
relaxations also ran slower (43 against 134 x 10^9 a second), so the count is part of the gap, not all of it.  The
kernel's threads also read values lowered within a round, so it makes at most as many rounds as this count, and
usually fewer relaxations: a measure of the work, not the kernel's count.

The *in-round* count (``in_round=True``) is the other bound: each frontier vertex relaxes its edges from its
distance when its turn comes in the round (as if one thread took the frontier in order, reading every value lowered
before it).  Where weighted shortest paths follow the hops (kNN graphs with Euclidean weights) a round's later
vertices inherit its earlier ones' work and the in-round count falls far below the round count (kNN corridors of
10,000-26,000 vertices: 31 of 34 at 1.6-4.4, at most 0.29 of their round counts; kNN graphs 1.2-2.2); where they
do not (king grids and square grids with random weights, Delaunay graphs' long edges) it stays high (king grids
6.0-17.2, Delaunay graphs 5.3-14.1, the grid of 15,000-16,384 3.7-4.3).  On the checks' rows the in-round count,
not the round count, separated the classes where tuned_frontier was slow (:mod:`..elimination_choice`, test 3); it
does not explain its time (its rate per in-round relaxation still spans 15-134 x 10^9 a second)."""
from __future__ import annotations

import math

import numba
import numpy as np

from .structure import _once

SOURCES = 4          # sources a count averages over (seeded, uniform over the vertices: on the king grid of 16,384
                     # the hub, at the grid's border, counted 1.6x the mean of seven random sources)
NO_CAP = np.int64(1) << 62


@numba.njit(cache=True, nogil=True)
def _relax(indptr, indices, weights, source, dist, done, slot, cap, in_round):
    """Frontier Bellman-Ford from ``source`` into ``dist`` (int64, filled here): (rounds, relaxations); ``in_round``:
    a frontier vertex relaxes from its distance when its turn comes, not the one it had when the round began.  After
    each round its relaxations so far go to ``done[slot]``; it stops once ``done`` sums to ``cap`` or more (the other
    slots: counts running beside it, read as they stand; a value read late only stops it a round later)."""
    n = indptr.size - 1
    dist[:] = np.int64(1) << 62
    dist[source] = 0
    lowered = np.zeros(n, np.bool_)
    front = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    du = np.empty(n, np.int64)
    front[0] = source
    k, rounds, relaxed = 1, 0, 0
    while k > 0:
        rounds += 1
        for i in range(k):                         # the frontier's distances as the round begins
            du[i] = dist[front[i]]
        nk = 0
        for i in range(k):
            u = front[i]
            d = dist[u] if in_round else du[i]
            for e in range(indptr[u], indptr[u + 1]):
                relaxed += 1
                v = indices[e]
                if d + weights[e] < dist[v]:
                    dist[v] = d + weights[e]
                    if not lowered[v]:
                        lowered[v] = True
                        nxt[nk] = v
                        nk += 1
        for i in range(nk):
            lowered[nxt[i]] = False
        front, nxt = nxt, front
        k = nk
        done[slot] = relaxed
        if done.sum() >= cap:
            break
    return rounds, relaxed


@numba.njit(cache=True, parallel=True)
def _relax_each(indptr, indices, weights, sources, cap, in_round):
    """:func:`_relax` from every source at once (a thread a source), all stopping once their relaxations sum to
    ``cap``: each source's relaxations."""
    done = np.zeros(sources.size, np.int64)
    for i in numba.prange(sources.size):
        dist = np.empty(indptr.size - 1, np.int64)
        _relax(indptr, indices, weights, sources[i], dist, done, i, cap, in_round)
    return done


def _arrays(g):
    return (np.ascontiguousarray(g.indptr, np.int64), np.ascontiguousarray(g.indices, np.int64),
            np.ascontiguousarray(g.weights, np.int64))


def frontier(g, source, cap=None, in_round=False):
    """(distances (int64; 2^62 where unreached), rounds, relaxations) of the count from ``source`` (exact for
    non-negative weights when it runs to the end); ``cap``: stop at the end of the round that reaches that many
    relaxations; ``in_round``: the in-round count (above)."""
    dist = np.empty(g.n, np.int64)
    rounds, relaxed = _relax(*_arrays(g), int(source), dist, np.zeros(1, np.int64), 0,
                             np.int64(cap) if cap is not None else NO_CAP, bool(in_round))
    return dist, int(rounds), int(relaxed)


def sources(g, k=SOURCES):
    """The count's sources: ``k`` distinct vertices drawn with a fixed seed (the same for a graph every time)."""
    return np.random.default_rng(0).choice(g.n, min(k, g.n), replace=False)


def relaxations_per_edge(g, k=SOURCES, enough=None, in_round=False):
    """The relaxations a source makes per edge of ``g`` (1: each edge once, as Dijkstra), the mean over
    :func:`sources`, counted from all of them at once (a CPU thread each).  ``enough``: the value that settles the
    caller's question; the counts stop once their sum puts the mean there, so the value returned is at least
    ``enough`` exactly where the full count's is (and then a lower bound of it).  ``in_round``: the in-round count
    (above)."""
    if g.n == 0 or g.m == 0:
        return 0.0
    cap = np.int64(math.ceil(enough * g.m * k)) if enough is not None else NO_CAP
    picked = np.ascontiguousarray(sources(g, k), np.int64)
    return float(_relax_each(*_arrays(g), picked, cap, bool(in_round)).sum()) / picked.size / g.m


def relaxations_per_edge_once(g, k=SOURCES, enough=None, in_round=False) -> float:
    """:func:`relaxations_per_edge`, remembered for the graph object while it lives (as the probe is)."""
    return _once(g, ("frontier-work", k, enough, in_round), lambda: relaxations_per_edge(g, k, enough, in_round))
