"""Seed 001's GPU kernels against the CPU references, exactly (marker ``gpu``): the three BFS kernels'
levels, Harish's SSSP (corrected and every coarsening factor; the racy original may be wrong but
never too short), and the naive FW of Alg. 14, on small graphs of each of the seed's classes."""
import numpy as np
import pytest

from apsp_kernels import Graph, GraphError, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.core import random_graphs as R
from apsp_kernels.core.sources import in_largest_component
from apsp_kernels.core.verify import reference_vectors

pytestmark = pytest.mark.gpu
BFS = registry.by_problem("bfs", "gpu")
SSSP = registry.by_problem("sssp", "gpu")
EXACT_SSSP = [(a, v) for a in SSSP for v in a.exact_variants]


def _path(n):
    i = np.arange(n - 1)
    return Graph.from_edges(n, np.r_[i, i + 1], np.r_[i + 1, i], np.ones(2 * (n - 1)))


CLASSES = {
    "dense": lambda n: R.uniform(n, n * (n - 1) // 4, seed=n),
    "power_law": lambda n: R.power_law(n, min(n * (n - 1) // 2, 6 * n), seed=n),
    "geometric": lambda n: R.geometric(n, min(n * (n - 1) // 2, 8 * n), seed=n),
    "path": _path,                                              # n levels: the longest host loop
    "directed": lambda n: G.kemp(n, 0, 3, 0, 100, seed=n),      # unreachable vertices, zero weights
}
SIZES = (1, 2, 33, 1000, 5000)


def _sources(g, k=4):
    src = in_largest_component(g, k, seed=g.n)
    return np.r_[src, g.n - 1]                                  # and one that may be isolated


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("algo", BFS, ids=lambda a: a.name)
def test_bfs_levels_equal_the_cpu(algo, cls, n):
    if cls == "dense" and n > 1000:
        pytest.skip("dense class: 1000 vertices are enough")
    g = CLASSES[cls](n)
    src = _sources(g)
    ref = registry.get(registry.REFERENCES["bfs"]).run(g, sources=src)[0]
    d, t = algo.run(g, sources=src)
    np.testing.assert_array_equal(d, ref)
    assert {"alloc_ms", "h2d_ms", "d2h_ms", "kernel_ms", "levels"} <= set(t) and t["kernel_ms"] >= 0


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("algo, variant", EXACT_SSSP, ids=lambda x: getattr(x, "name", str(x)))
def test_sssp_exact_variants_equal_dijkstra(algo, variant, cls, n):
    if cls == "dense" and n > 1000:
        pytest.skip("dense class: 1000 vertices are enough")
    g = CLASSES[cls](n)
    src = _sources(g)
    ref = registry.get(registry.REFERENCES["sssp"]).run(g, sources=src)[0]
    d, t = algo.run(g, variant=variant, sources=src)
    np.testing.assert_array_equal(d, ref)
    assert {"alloc_ms", "h2d_ms", "d2h_ms", "kernel_ms", "sweeps"} <= set(t)


@pytest.mark.parametrize("cls", ["dense", "power_law", "geometric"])
def test_coarsening_changes_no_sweep(cls):
    """Each sweep's result does not depend on which thread relaxes which vertex, so every factor
    takes as many sweeps as the uncoarsened corrected kernel."""
    g = CLASSES[cls](1000)
    src = _sources(g)
    _, t = registry.get("harish_sssp").run(g, variant="corrected", sources=src)
    for cf in registry.get("harish_sssp_coarsened").variants:
        _, tc = registry.get("harish_sssp_coarsened").run(g, variant=cf, sources=src)
        assert tc["sweeps"] == t["sweeps"], cf


@pytest.mark.parametrize("cls", ["dense", "power_law"])
def test_sssp_original_terminates_and_never_undershoots(cls):
    g = CLASSES[cls](1000)
    src = _sources(g)
    d, _ = registry.get("harish_sssp").run(g, variant="original", sources=src)
    assert np.all(d >= reference_vectors(g, src, "sssp"))


def test_sssp_rows_are_harish_apsp_rows():
    """Alg. 13 (APSP by repeated SSSP) is the registry's harish: the same kernels, row by row."""
    g = R.power_law(300, 1500, seed=4)
    src = np.array([0, 17, 299])
    d, _ = registry.get("harish_sssp").run(g, variant="corrected", sources=src)
    full, _ = registry.get("harish").run(g, variant="corrected")
    np.testing.assert_array_equal(d, full[src])


def test_no_sources_and_negative_weights():
    g = R.power_law(50, 100, seed=1)
    for a in BFS + SSSP:
        d, _ = a.run(g, sources=[])
        assert d.shape == (0, 50)
    neg = Graph.from_edges(2, [0], [1], [-1])
    for a in SSSP:
        with pytest.raises(GraphError, match="non-negative"):
            a.run(neg, sources=[0])


@pytest.mark.parametrize("n", (1, 17, 300, 1000))
@pytest.mark.parametrize("make", [lambda n: R.uniform(n, n * (n - 1) // 4, seed=n),
                                  lambda n: R.power_law(n, min(n * (n - 1) // 2, 5 * n), seed=n),
                                  lambda n: G.with_potential(G.kemp(n, 1, 4, 0, 50, seed=n), seed=n)],
                         ids=["dense", "power_law", "negative"])
def test_naive_fw_alg14_equals_the_cpu(make, n):
    g = make(n)
    d, t = registry.get("iitkgp_naive_fw").run(g)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert t["launches"] == n
