"""tuned_deep on the GPU (marker ``gpu``): exact against the CPU reference on the graphs of deep_graphs.py
(paths one way and both ways, rings, a clique with a long tail, deep trees, a hub, random sparse, disconnected
pieces, zero weights and duplicates, weights at the int32 bound) at small n and at n = 4096 to 16384, the
sources= subset equal to the full solve's rows, float32 bit for bit against float32 Dijkstra, the opt-in shared
memory of a large n, and the end-to-end path (shortest_paths) through its device-resident form.
tests/test_tuned_deep_emulated.py runs the same kernel source on the CPU."""
import numpy as np
import pytest

import deep_graphs as DG
import frontier_graphs as F

from apsp_kernels import Graph, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import deep
from apsp_kernels.core.graph import INF
from apsp_kernels.core.verify import reference_vectors

pytestmark = pytest.mark.gpu


def solve(g, **kw):
    return registry.get("tuned_deep").run(g, **kw)


@pytest.mark.parametrize("n", (1, 2, 31, 33, 70, 127, 1000))
def test_every_kind_exact(n):
    for label, g in DG.kinds(n, seed=70 + n):
        d, t = solve(g)
        np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n}")
        assert d.dtype == np.int32 and d.shape == (n, n) and t["dtype"] == "int32" and t["sources"] == n
        assert 1 <= t["rounds_max"] <= n and t["kernel_ms"] >= 0


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


@pytest.mark.parametrize("n", (2, 33, 1000))
def test_parallel_edges_and_self_loops(n):
    g, twin = F.multi_edges(n, seed=n)
    np.testing.assert_array_equal(solve(g)[0], reference_apsp(twin))


@pytest.mark.parametrize("n", (33, 1000))
def test_sources_subset_repeated_and_unsorted(n):
    for label, g in DG.kinds(n, seed=n)[:6]:
        full, _ = solve(g)
        src = [n - 1, 5, 5, 0, n // 2, n - 1, 17]
        d, t = solve(g, sources=src)
        assert d.shape == (7, n) and t["sources"] == 7
        np.testing.assert_array_equal(d, full[src], err_msg=label)
        np.testing.assert_array_equal(full, reference_apsp(g), err_msg=label)


def test_same_result_every_run():
    """Lanes race within a round (which only changes how fast values settle): never the distances."""
    g = DG.lollipop(3000, seed=1, clique=128)
    ref = reference_apsp(g)
    for _ in range(3):
        np.testing.assert_array_equal(solve(g)[0], ref)


def test_rounds_of_a_directed_path():
    g = F.path(1000, 4)
    assert solve(g, sources=[0])[1]["rounds_max"] == 1000
    assert solve(g, sources=[999])[1]["rounds_max"] == 1


@pytest.mark.parametrize("n", (1, 2, 33, 127, 1000))
def test_float32_bit_for_bit(n):
    g = F.float_graph(n, seed=n)
    d, t = solve(g, dtype="float32")
    assert d.dtype == np.float32 and t["dtype"] == "float32"
    _, indptr, indices, w32 = deep.frontier.csr_arrays(g, "float32")
    src = range(n) if n <= 127 else [0, 1, 499, 998, 999]
    np.testing.assert_array_equal(d[list(src)], F.float32_dijkstra(n, indptr, indices, w32, src))
    np.testing.assert_array_equal(solve(g, sources=[n - 1, 0, 0], dtype="float32")[0], d[[n - 1, 0, 0]])


def test_integer_valued_float32_is_exact_at_4096():
    for label, g in DG.kinds(4096, seed=8)[:8]:
        ref = reference_apsp(g)
        assert ref[ref < INF].max() < 2**24, label
        np.testing.assert_array_equal(solve(g, dtype="float32")[0], F.int_to_float(ref), err_msg=label)


def test_more_shared_memory_than_48_kib():
    """n = 200000: a slice of 50 KiB a source, past the 48 KiB a kernel gets without opting in (fewer warps a
    block, the launcher opts in).  A directed path: the distances are the prefix sums, n rounds from 0."""
    n = 200000
    assert deep.slice_bytes(n) > deep.frontier.DEFAULT_SHARED
    g = F.path(n, 5)
    d, t = solve(g, sources=[0, 123457])
    pre = np.r_[0, np.cumsum(g.weights.astype(np.int64))]
    want = np.full((2, n), INF, np.int64)
    want[0] = pre
    want[1, 123457:] = pre[123457:] - pre[123457]
    np.testing.assert_array_equal(d, want)
    assert t["rounds_max"] == n and t["warps"] >= 1


def test_no_edges():
    d, t = solve(Graph.from_edges(40, [], [], []))
    want = np.full((40, 40), INF, np.int32)
    np.fill_diagonal(want, 0)
    np.testing.assert_array_equal(d, want)
    assert t["rounds_max"] == 1


def test_end_to_end_through_shortest_paths():
    from apsp_kernels import api
    g = DG.lollipop(2000, seed=5, clique=128)
    ref = reference_apsp(g)
    np.testing.assert_array_equal(api.shortest_paths(g, method="tuned_deep", dtype=np.int32), ref)
    np.testing.assert_array_equal(api.shortest_paths(g, method="tuned_deep", dtype=np.int32, indices=[7, 1999]),
                                  ref[[7, 1999]])
