"""The graphs tuned_deep is checked on, in the CPU emulation (test_tuned_deep_emulated.py) and on the GPU
(test_tuned_deep_gpu.py, test_tuned_per_source_gpu.py): the deep, thin ones it is built for (a one-way path, a path both ways, a ring, a
clique with a long tail, a deep tree) beside those that exercise its other paths (a clique wider than the
frontier queue, a hub, random sparse, disconnected pieces, zero weights and duplicate edges, weights at the
int32 bound).  frontier_graphs.py keeps tuned_frontier's set and the float32 references."""
import numpy as np

import frontier_graphs as F

from apsp_kernels import Graph
from apsp_kernels.core import generators as G
from apsp_kernels.core import structure_graphs as S

from tuned_graphs import awkward, disconnected

QUEUE_SLOTS = 64           # tuned_deep's DEEP_QCAP (the tests compare): a wider round is a bitmap scan


def path_both_ways(n, seed):
    """0 - 1 - ... - n-1, each edge both ways with its own weight 0..9."""
    i = np.arange(max(n - 1, 0))
    w = np.random.default_rng(seed).integers(0, 10, 2 * i.size)
    return Graph.from_edges(n, np.r_[i, i + 1], np.r_[i + 1, i], w)


def lollipop(n, seed, clique=None):
    """A complete digraph on the first ``clique`` vertices (default: more than the queue holds where n allows,
    so its rounds are scans) and a tail from its last vertex to n-1, both ways: rounds wide, then n - clique
    rounds of one vertex each."""
    c = min(n, QUEUE_SLOTS + 6 if clique is None else clique)
    rng = np.random.default_rng(seed)
    a, b = np.meshgrid(np.arange(c), np.arange(c), indexing="ij")
    keep = a != b
    i = np.arange(c - 1, n - 1) if c >= 1 else np.arange(0)
    src = np.r_[a[keep], i, i + 1]
    dst = np.r_[b[keep], i + 1, i]
    return Graph.from_edges(n, src, dst, rng.integers(1, 50, src.size))


def deep_tree(n, seed):
    """A random tree whose vertex i hangs from one of i-3 .. i-1 (depth about n / 2), edges both ways."""
    rng = np.random.default_rng(seed)
    i = np.arange(1, n)
    parent = i - rng.integers(1, 4, i.size).clip(max=i)
    w = rng.integers(0, 20, 2 * i.size)
    return Graph.from_edges(n, np.r_[parent, i], np.r_[i, parent], w)


def kinds(n, seed):
    """(label, graph) of every kind at size n (int32 Graphs, non-negative weights)."""
    return [("path one way", F.path(n, seed)), ("path both ways", path_both_ways(n, seed)),
            ("path reversed", G.chain(n, reverse=True)), ("ring", S.ring(n, seed=seed)),
            ("lollipop", lollipop(n, seed)), ("deep tree", deep_tree(n, seed)), ("star", F.star(n, seed)),
            ("random sparse", G.kemp(n, 1, 4, 0, 100, seed=seed)), ("disconnected", disconnected(n, seed)),
            ("awkward (zeros, duplicates)", awkward(n, seed)), ("heavy", F.heavy(n))]
