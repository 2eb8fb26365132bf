"""The graphs every tuned code is checked on (emulated on the CPU and on the GPU): awkward sizes and
kinds, each exact against the reference."""
import numpy as np

from apsp_kernels import Graph
from apsp_kernels.core import generators as G

# around the tile (128), the warp (32) and the int4 (4): 1, 2, one below and above each
SIZES = (1, 2, 31, 33, 127, 129, 1025)


def awkward(n, seed, negative=False):
    """Directed, zero-weight and duplicate edges, out-degree 0 (unreachable pairs); ``negative``:
    reweighted by a potential (negative edges, no negative cycle)."""
    g = G.kemp(n, 0, 4, 0, 100, seed=seed)
    s, d, w = g.edges()
    k = min(g.m, 5)
    g = Graph.from_edges(n, np.concatenate([s, s[:k]]), np.concatenate([d, d[:k]]),
                         np.concatenate([w, w[:k] + 7]), meta=g.meta)
    return G.with_potential(g, scale=40, seed=seed) if negative and g.m else g


def disconnected(n, seed, negative=False):
    """Two halves with no edge between them, and an isolated last vertex."""
    a = max(n // 2, 1)
    parts = [(G.kemp(a, 1, 4, 0, 50, seed=seed), 0), (G.kemp(max(n - a - 1, 1), 1, 4, 0, 50, seed=seed + 1), a)]
    src, dst, w = [], [], []
    for g, off in parts:
        s, d, ww = g.edges()
        keep = (s + off < n - 1) & (d + off < n - 1)
        src.append(s[keep] + off), dst.append(d[keep] + off), w.append(ww[keep])
    g = Graph.from_edges(n, np.concatenate(src), np.concatenate(dst), np.concatenate(w))
    return G.with_potential(g, scale=40, seed=seed) if negative and g.m else g


def kinds(n, seed, negative):
    """(label, graph) of every kind at size n."""
    out = [("awkward", awkward(n, seed, negative)), ("disconnected", disconnected(n, seed, negative)),
           ("chain", G.chain(n)), ("chain-reversed", G.chain(n, reverse=True))]
    if n <= 300:
        c = G.complete(n, 0, 50, seed=seed)
        out.append(("complete", G.with_potential(c, 40, seed) if negative and c.m else c))
    return out
