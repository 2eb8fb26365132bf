"""tuned_deep's own checks on the GPU (marker ``gpu``): every kind of deep_graphs.py (paths one way and both
ways, rings, a clique with a long tail, deep trees, a hub, random sparse, disconnected pieces, zero weights and
duplicates, weights at the int32 bound) exact at n = 4096 and on 96 sources at n = 8192 and 16384, float32 bit
for bit against float32 Dijkstra, and the end-to-end path (shortest_paths) through its device-resident form.
tests/test_tuned_per_source_gpu.py holds the checks it shares with tuned_frontier (every kind at small n, the
sources= subset, parallel edges, the opt-in shared memory of a large n, ...);
tests/test_tuned_deep_emulated.py runs the same kernel source on the CPU."""
import numpy as np
import pytest

import deep_graphs as DG
import frontier_graphs as F

from apsp_kernels import reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import deep
from apsp_kernels.core.verify import reference_vectors

pytestmark = pytest.mark.gpu


def solve(g, **kw):
    return registry.get("tuned_deep").run(g, **kw)


def test_every_kind_exact_at_4096():
    """Every source at n = 4096 (64 MiB of int32 reference): a path 4096 rounds deep, the lollipop's tail 4026."""
    for label, g in DG.kinds(4096, seed=11):
        np.testing.assert_array_equal(solve(g)[0], reference_apsp(g), err_msg=label)


@pytest.mark.parametrize("n", (8192, 16384))
def test_deep_kinds_some_sources_at_large_n(n):
    """The sizes of the measurement (scripts/deep_measure.py): 96 sources against scipy's Dijkstra, among them
    the ends of the paths and of the lollipop's tail (the deepest rows)."""
    rng = np.random.default_rng(n)
    src = np.unique(np.r_[0, 1, n // 2, n - 1, DG.QUEUE_SLOTS + 5, rng.integers(0, n, 91)])
    for label, g in DG.kinds(n, seed=n)[:7]:
        d, t = solve(g, sources=src)
        np.testing.assert_array_equal(d, reference_vectors(g, src, "sssp"), err_msg=f"{label} n={n}")


@pytest.mark.parametrize("n", (1, 2, 33, 127, 1000))
def test_float32_bit_for_bit(n):
    g = F.float_graph(n, seed=n)
    d, t = solve(g, dtype="float32")
    assert d.dtype == np.float32 and t["dtype"] == "float32"
    _, indptr, indices, w32 = deep.frontier.csr_arrays(g, "float32")
    src = range(n) if n <= 127 else [0, 1, 499, 998, 999]
    np.testing.assert_array_equal(d[list(src)], F.float32_dijkstra(n, indptr, indices, w32, src))
    np.testing.assert_array_equal(solve(g, sources=[n - 1, 0, 0], dtype="float32")[0], d[[n - 1, 0, 0]])


def test_end_to_end_through_shortest_paths():
    from apsp_kernels import api
    g = DG.lollipop(2000, seed=5, clique=128)
    ref = reference_apsp(g)
    np.testing.assert_array_equal(api.shortest_paths(g, method="tuned_deep", dtype=np.int32), ref)
    np.testing.assert_array_equal(api.shortest_paths(g, method="tuned_deep", dtype=np.int32, indices=[7, 1999]),
                                  ref[[7, 1999]])
