"""tuned_frontier's own checks on the GPU (marker ``gpu``): float32 bit for bit against float32 Dijkstra and
within a proven bound of scipy's float64, a ring 8192 hops deep, and the chunks of one wave on two streams with
the narrow block size.  tests/test_tuned_per_source_gpu.py holds the checks it shares with tuned_deep (every kind
of frontier_graphs.py exact, parallel edges and self-loops, the sources= subset, the opt-in shared memory of
n > 196608, ...); tests/test_tuned_gpu.py and tests/test_gpu.py run it too, as every tuned and every GPU
registry code."""
import numpy as np
import pytest

import frontier_graphs as F

from apsp_kernels import reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import frontier
from apsp_kernels.core import structure_graphs as S
from apsp_kernels.core.graph import INF
from apsp_kernels.core.limits import normalise_inf
from apsp_kernels.core.verify import reference_vectors

pytestmark = pytest.mark.gpu


def solve(g, **kw):
    return registry.get("tuned_frontier").run(g, **kw)


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


def test_a_ring_8192_hops_deep():
    """The graph that motivated the code: a ring of 16384 both ways, 64 sources against scipy.
    Every path to the vertex opposite a source has 8192 edges, and a round moves a value one edge: at
    least 8192 rounds."""
    g = S.ring(16384, seed=2)
    src = np.random.default_rng(3).choice(16384, 64, replace=False)
    d, t = solve(g, sources=src)
    np.testing.assert_array_equal(d, reference_vectors(g, src, "sssp"))
    assert 8192 <= t["rounds_max"] <= 16384


@pytest.mark.parametrize("renumber", (True, False), ids=("renumbered", "own-numbering"))
@pytest.mark.parametrize("chunk", (1, 5, 64, 299))
def test_chunks_on_two_streams_and_the_narrow_block_size_exact(monkeypatch, chunk, renumber):
    """Several chunks (small waves forced), launched on two streams in turn, the later ones with 64-thread blocks
    where the first chunk's rounds show a frontier narrower than a warp (the ring) and 128 elsewhere: every kind
    exact, int32 and float32, all rows and a subset; with the launcher's renumbering (each chunk's columns put
    back through its buffer) and without."""
    monkeypatch.setattr(frontier, "resident_blocks", lambda cp, fn, smem, threads=128: chunk)
    F.force_renumbering(monkeypatch, renumber)
    for label, g in F.kinds(300, seed=5):
        ref = reference_apsp(g)
        d, t = solve(g)
        np.testing.assert_array_equal(d, ref, err_msg=f"{label} chunk={chunk}")
        assert t["renumbered"] == renumber
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


@pytest.mark.parametrize("chunk", (7, 300))
def test_renumbered_rows_handed_to_a_sink_in_the_graphs_numbering(monkeypatch, chunk):
    """The solver's streamed path (a sink takes each chunk's rows while the next runs) with the renumbering: every
    row the sink receives is in the graph's own numbering, exact, in its place."""
    import cupy as cp
    monkeypatch.setattr(frontier, "resident_blocks", lambda cp, fn, smem, threads=128: chunk)
    F.force_renumbering(monkeypatch, True)
    for label, g in F.kinds(300, seed=6):
        got = np.full((g.n, g.n), -1, np.int64)

        def sink(r0, rows, stream):
            stream.synchronize()
            got[r0:r0 + rows.shape[0]] = cp.asnumpy(rows)
        _, t = frontier.tuned_frontier_resident(g, sink=sink)
        assert t["renumbered"]
        assert (got >= 0).all(), label                                 # every row handed over
        np.testing.assert_array_equal(normalise_inf(got), reference_apsp(g), err_msg=label)


def _heavy_graphs():
    """Graphs with vertices of out-degree TFR_HEAVY or more: a complete graph whose second round holds more heavy
    vertices than the list defers, a chain of cliques (every vertex heavy, rounds deferred hop after hop), a
    Barabasi-Albert graph (its hubs the first vertices, in word 0 of the bitmap) and the hub graph."""
    from apsp_kernels import Graph
    from apsp_kernels.core import generators as G
    from apsp_kernels.core.structure_graphs import hub
    from apsp_kernels.io import suite_graphs as SG
    k, cliques = 33, 8
    src, dst = [], []
    for c in range(cliques):
        b = c * k
        src += [b + i for i in range(k) for j in range(k) if i != j]
        dst += [b + j for i in range(k) for j in range(k) if i != j]
        if c + 1 < cliques:
            src.append(b + k - 1)
            dst.append(b + k)
    chain = Graph.from_edges(k * cliques, src, dst, np.random.default_rng(4).integers(0, 9, len(src)))
    return [("complete 300", G.complete(300, 0, 50, seed=5)), ("chain of cliques", chain),
            ("ba 2000", SG.make("ba", 2000, seed=2000)), ("hub 1000", hub(1000, seed=3))]


@pytest.mark.parametrize("renumber", (True, False), ids=("renumbered", "own-numbering"))
@pytest.mark.parametrize("i", range(4))
def test_heavy_vertices_exact(monkeypatch, i, renumber):
    """The heavy-vertex path (the block shares a deferred vertex's edges): every row exact in int32, float32 bit for
    bit where the integer distances are below 2^24, and a subset of sources; renumbered and not."""
    F.force_renumbering(monkeypatch, renumber)
    label, g = _heavy_graphs()[i]
    ref = reference_apsp(g)
    d, t = solve(g)
    np.testing.assert_array_equal(d, ref, err_msg=label)
    assert t["rounds_max"] <= 2 * g.n
    f, _ = solve(g, dtype="float32")
    np.testing.assert_array_equal(np.where(np.isinf(f), INF, f).astype(np.int64), ref.astype(np.int64), err_msg=label)
    rows = [g.n - 1, 0, 3, 3]
    np.testing.assert_array_equal(solve(g, sources=rows)[0], ref[rows], err_msg=label)


def test_bitmaps_under_48_kib_with_the_lists_past_it():
    """n = 192,000: 48,000 bytes of bitmaps, under the 48 KiB a block gets without opting in, and the heavy-vertex
    lists beside them past it: the launcher opts in (a launch without it fails).  A directed path from vertex 0."""
    n = 192000
    assert frontier.shared_bytes(n) <= frontier.DEFAULT_SHARED < frontier.shared_bytes(n) + frontier.STATIC_SHARED
    g = F.path(n, 7)
    d, t = solve(g, sources=[0])
    np.testing.assert_array_equal(d[0], np.r_[0, np.cumsum(g.weights.astype(np.int64))])
    assert t["rounds_max"] == n
