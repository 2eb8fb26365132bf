"""tuned_frontier on the GPU (marker ``gpu``): exact against the CPU reference on the graphs of
frontier_graphs.py (deep rings and paths, grids, a hub, disconnected pieces, zero weights, weights at the
int32 bound, parallel edges and self-loops the kernel really sees), the sources= subset equal to the full
solve's rows, float32 bit for bit against float32 Dijkstra and within a proven bound of scipy's float64,
the opt-in shared memory of n > 196608, and a ring 8192 hops deep.  tests/test_tuned_gpu.py and
tests/test_gpu.py run it too, as every tuned and every GPU registry code."""
import numpy as np
import pytest

import frontier_graphs as F

from apsp_kernels import Graph, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import frontier
from apsp_kernels.core import structure_graphs as S
from apsp_kernels.core.graph import INF
from apsp_kernels.core.verify import reference_vectors

pytestmark = pytest.mark.gpu


def solve(g, **kw):
    return registry.get("tuned_frontier").run(g, **kw)


@pytest.mark.parametrize("n", F.SIZES)
def test_every_kind_exact(n):
    for label, g in F.kinds(n, seed=70 + n):
        d, t = solve(g)
        np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n}")
        assert d.dtype == np.int32 and d.shape == (n, n) and t["dtype"] == "int32" and t["sources"] == n
        assert 1 <= t["rounds_max"] <= n and t["kernel_ms"] >= 0


@pytest.mark.parametrize("n", (2, 33, 1000))
def test_parallel_edges_and_self_loops(n):
    g, twin = F.multi_edges(n, seed=n)
    np.testing.assert_array_equal(solve(g)[0], reference_apsp(twin))


@pytest.mark.parametrize("n", (33, 1000))
def test_sources_subset_repeated_and_unsorted(n):
    for label, g in F.kinds(n, seed=n)[:5]:
        full, _ = solve(g)
        src = [n - 1, 5, 5, 0, n // 2, n - 1, 17]
        d, t = solve(g, sources=src)
        assert d.shape == (7, n) and t["sources"] == 7
        np.testing.assert_array_equal(d, full[src], err_msg=label)
        np.testing.assert_array_equal(solve(g, sources=np.int64(3))[0], full[[3]], err_msg=label)
        np.testing.assert_array_equal(full, reference_apsp(g), err_msg=label)


def test_same_result_every_run():
    """Threads race within a round (which only changes how fast values settle): never the distances."""
    g = S.grid(3000, seed=1)
    ref = reference_apsp(g)
    for _ in range(3):
        np.testing.assert_array_equal(solve(g)[0], ref)


def test_rounds_of_a_directed_path():
    """From 0, round t lowers vertex t + 1 only (a round reads each bitmap word once): n rounds."""
    g = F.path(1000, 4)
    assert solve(g, sources=[0])[1]["rounds_max"] == 1000
    assert solve(g, sources=[999])[1]["rounds_max"] == 1


@pytest.mark.parametrize("n", (1, 2, 31, 33, 127, 1000))
def test_float32_bit_for_bit_and_within_the_bound_of_float64(n):
    from scipy.sparse import csgraph
    g = F.float_graph(n, seed=n)
    d, t = solve(g, dtype="float32")                      # n = 1: an int Graph (no edge), float32 asked
    assert d.dtype == np.float32 and t["dtype"] == "float32"
    if n > 1:
        assert solve(g)[1]["dtype"] == "float32"          # chosen by the float weights
    _, indptr, indices, w32 = frontier.csr_arrays(g, "float32")
    src = range(n) if n <= 127 else [0, 1, 499, 998, 999]  # the Python Dijkstra: a few rows at n = 1000
    np.testing.assert_array_equal(d[list(src)], F.float32_dijkstra(n, indptr, indices, w32, src))
    want = csgraph.shortest_path(g.to_scipy(), method="D")
    assert np.array_equal(np.isinf(d), np.isinf(want))
    fin = np.isfinite(want)
    np.testing.assert_allclose(d[fin], want[fin], rtol=F.float_tolerance(n), atol=0)
    np.testing.assert_array_equal(solve(g, sources=[n - 1, 0, 0], dtype="float32")[0], d[[n - 1, 0, 0]])


def test_integer_valued_float32_is_exact():
    """Integer weights in float32 where every distance is below 2^24: every sum exact, so the int answer."""
    for label, g in F.kinds(1000, seed=8)[:6]:
        ref = reference_apsp(g)
        assert ref[ref < INF].max() < 2**24, label
        d, _ = solve(g, dtype="float32")
        np.testing.assert_array_equal(d, F.int_to_float(ref), err_msg=label)


def test_more_shared_memory_than_48_kib():
    """n = 200000: two bitmaps of 6250 words, 50000 bytes a block, past the 48 KiB a kernel gets without
    opting in (the launcher sets max_dynamic_shared_size_bytes).  A directed path: distances are the prefix
    sums, 200000 rounds from vertex 0."""
    n = 200000
    assert frontier.shared_bytes(n) > frontier.DEFAULT_SHARED
    g = F.path(n, 5)
    d, t = solve(g, sources=[0, 123457])
    pre = np.r_[0, np.cumsum(g.weights.astype(np.int64))]
    want = np.full((2, n), INF, np.int64)
    want[0] = pre
    want[1, 123457:] = pre[123457:] - pre[123457]
    np.testing.assert_array_equal(d, want)
    assert t["rounds_max"] == n


def test_a_ring_8192_hops_deep():
    """The graph that motivated the code: a ring of 16384 both ways, 64 sources against scipy.
    Every path to the vertex opposite a source has 8192 edges, and a round moves a value one edge: at
    least 8192 rounds."""
    g = S.ring(16384, seed=2)
    src = np.random.default_rng(3).choice(16384, 64, replace=False)
    d, t = solve(g, sources=src)
    np.testing.assert_array_equal(d, reference_vectors(g, src, "sssp"))
    assert 8192 <= t["rounds_max"] <= 16384


def test_no_edges():
    d, t = solve(Graph.from_edges(40, [], [], []))
    want = np.full((40, 40), INF, np.int32)
    np.fill_diagonal(want, 0)
    np.testing.assert_array_equal(d, want)
    assert t["rounds_max"] == 1


@pytest.mark.parametrize("chunk", (1, 5, 64, 299))
def test_chunks_on_two_streams_and_the_narrow_block_size_exact(monkeypatch, chunk):
    """Several chunks (small waves forced), launched on two streams in turn, the later ones with 64-thread blocks
    where the first chunk's rounds show a frontier narrower than a warp (the ring) and 128 elsewhere: every kind
    exact, int32 and float32, all rows and a subset."""
    monkeypatch.setattr(frontier, "resident_blocks", lambda cp, fn, smem, threads=128: chunk)
    for label, g in F.kinds(300, seed=5):
        ref = reference_apsp(g)
        d, t = solve(g)
        np.testing.assert_array_equal(d, ref, err_msg=f"{label} chunk={chunk}")
        assert t["chunks"] == -(-300 // chunk) and t["chunk_rows"] == chunk
        assert t["threads"] == frontier.block_threads(300, t["first_rounds_max"])     # set by the first chunk
        if label == "ring":
            assert t["threads"] == 64 and t["rounds_max"] >= 150
        rows = [299, 0, 7, 7]
        np.testing.assert_array_equal(solve(g, sources=rows)[0], ref[rows], err_msg=f"{label} rows chunk={chunk}")
        if ref[ref < INF].max(initial=0) >= 2**24:
            continue                                   # float32 sums are exact below 2^24 only ("heavy")
        f, _ = solve(g, dtype="float32")
        np.testing.assert_array_equal(np.where(np.isinf(f), INF, f).astype(np.int64), ref.astype(np.int64),
                                      err_msg=f"{label} float32 chunk={chunk}")
