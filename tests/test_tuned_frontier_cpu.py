"""tuned_frontier without a GPU: its launcher's choices (its refusals, as tuned_deep's, in
tests/test_tuned_per_source_launchers.py), and the real kernel source
(cuda/tuned_frontier.cu) on the CPU emulation of tests/emulate/cuda_host.h, launched as the launcher
launches it (one block per source, the bitmaps in the emulated dynamic shared memory), exact against the
reference on the graphs of frontier_graphs.py.  The emulation runs each thread to its next barrier in a
shuffled order: it checks the kernel's logic (bitmaps, rounds, striding, the stop test, int and float
paths), not the GPU's memory model; tests/test_tuned_frontier_gpu.py and
tests/test_tuned_per_source_gpu.py run the same checks on the device."""
import ctypes
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import emulation
import frontier_graphs as F

from apsp_kernels import Graph, GraphError, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR
from apsp_kernels.algorithms.gpu.tuned import frontier
from apsp_kernels.core import generators as G
from apsp_kernels.core.graph import normalise_inf

INT = ctypes.POINTER(ctypes.c_int)
FLOAT = ctypes.POINTER(ctypes.c_float)


@pytest.fixture(scope="module", params=(1, 0), ids=("transposed", "word"))
def emu(request, tmp_path_factory):
    """The kernel emulated with each layout of its frontier bitmaps (TFR_TRANSPOSE: 1 as built, 0 the probe's)."""
    return emulation.build("frontier_harness.cpp", "late", tmp_path_factory.mktemp("emu"), "tuned_frontier's kernel",
                           extra=(("TFR_TRANSPOSE", request.param),))


def run(lib, g, sources=None, threads=frontier.THREADS, dtype=None):
    """(distances, most rounds) of the emulated kernel, prepared by the launcher's own csr_arrays."""
    dtype, indptr, indices, w = frontier.csr_arrays(g, dtype)
    src = np.arange(g.n, dtype=np.int32) if sources is None else np.asarray(sources, np.int32)
    fl = dtype == "float32"
    D = np.full((src.size, g.n), np.nan if fl else -5, np.float32 if fl else np.int32)   # poison: all written
    p = lambda a, t=INT: np.ascontiguousarray(a).ctypes.data_as(t)
    fn = lib.emu_tfr_float if fl else lib.emu_tfr_int
    rounds = fn(D.ctypes.data_as(FLOAT if fl else INT), g.n, p(indptr), p(indices), p(w, FLOAT if fl else INT), p(src),
                int(src.size), threads)
    assert rounds >= 0, "a block still had a frontier after n + 1 rounds"
    assert rounds <= g.n
    return (D if fl else normalise_inf(D)), rounds


# ------------------------------------------------------------------ the launcher, no kernel
def test_block_size_is_written_once():
    text = (CUDA_DIR / "tuned_frontier.cu").read_text()
    assert int(re.search(r"#define TFR_THREADS (\d+)", text).group(1)) == frontier.THREADS
    assert int(re.search(r"#define TFR_HEAVY (\d+)", text).group(1)) == frontier.HEAVY
    assert int(re.search(r"#define TFR_HEAVY_SLOTS (\d+)", text).group(1)) == frontier.HEAVY_SLOTS
    assert "__shared__ int heavy[2][TFR_HEAVY_SLOTS];" in text and "__shared__ int heavy_count[2];" in text


def test_dtype_follows_the_weights_and_minus_zero_becomes_plus_zero():
    assert frontier.csr_arrays(F.path(4, 1))[0] == "int32"
    dt, _, _, w = frontier.csr_arrays(F.path(4, 1), "float32")
    assert dt == "float32" and w.dtype == np.float32
    g = F.float_graph(40, 2)
    dt, _, _, w = frontier.csr_arrays(g)
    assert dt == "float32" and w.dtype == np.float32 and not np.signbit(w).any() and (w == 0).any()


def test_csr_arrays_take_negative_weights_only_when_the_caller_can():
    """tuned_fw's float32 path shares these arrays and takes negative weights (it checks the diagonal after); the
    frontier kernel does not, and its refusal names whoever asked."""
    g = Graph.from_edges(3, [0, 1], [1, 2], [-2, 5])
    with pytest.raises(GraphError, match="tuned_fw needs non-negative"):
        frontier.csr_arrays(g, "float32", who="tuned_fw")
    dt, indptr, indices, w = frontier.csr_arrays(g, "float32", who="tuned_fw", negative_ok=True)
    assert dt == "float32" and w.tolist() == [-2.0, 5.0] and indices.tolist() == [1, 2]


def test_the_kernels_own_shared_memory_counts_against_the_limits():
    """The heavy-vertex lists (STATIC_SHARED) with the bitmaps: a block past 48 KiB in all opts in (n = 192,000: 48,000
    bytes of bitmaps, under 48 KiB alone), and past the device's opt-in limit the launcher refuses in one line."""
    from types import SimpleNamespace
    fn = SimpleNamespace()
    cp = SimpleNamespace(cuda=SimpleNamespace(Device=lambda: SimpleNamespace(id=0),
                                              runtime=SimpleNamespace(deviceGetAttribute=lambda a, d: 232448)))
    frontier._shared_limit(cp, fn, frontier.shared_bytes(180000))           # 45,000 + 2,056: no opt-in
    assert not hasattr(fn, "max_dynamic_shared_size_bytes")
    assert frontier.shared_bytes(192000) <= frontier.DEFAULT_SHARED
    frontier._shared_limit(cp, fn, frontier.shared_bytes(192000))           # 48,000 + 2,056 > 49,152
    assert fn.max_dynamic_shared_size_bytes == frontier.shared_bytes(192000)
    with pytest.raises(GraphError, match="heavy-vertex lists"):
        frontier._shared_limit(cp, fn, frontier.shared_bytes(929000))       # 232,250 + 2,056 > 232,448


def test_footprint_and_shared_memory():
    assert frontier.rows_footprint(1000, 4000) == 4 * 1000 * 1000 + 4 * (1001 + 8000) + 8 * 1000
    assert frontier.rows_footprint(1000, 4000, rows=10) == 4 * 10 * 1000 + 4 * (1001 + 8000) + 80
    # and two chunks of rows in the new numbering (at most GATHER_ROWS) and the numbering
    assert frontier.footprint(1000, 4000) == frontier.rows_footprint(1000, 4000) + 8 * 1000 * 1000 + 4 * 1000
    assert frontier.footprint(10 ** 5, 4 * 10 ** 5) == (frontier.rows_footprint(10 ** 5, 4 * 10 ** 5)
                                                         + 8 * frontier.GATHER_ROWS * 10 ** 5 + 4 * 10 ** 5)
    assert frontier.shared_bytes(65536) == 16384 and frontier.shared_bytes(33) == 16 and frontier.shared_bytes(1) == 8
    assert registry.get("tuned_frontier").auto_rank is not None    # auto weighs it by its measured rows (costs)


@pytest.mark.parametrize("kind", range(5))
def test_renumbered_graph_has_the_permuted_distances(monkeypatch, kind):
    """The launcher's renumbering (its span and degree tests set to yes): reverse Cuthill-McKee gives a
    permutation, the renumbered CSR is the graph with new vertex i the old p[i] (its distances D[p][:, p]),
    remembered per graph object."""
    F.force_renumbering(monkeypatch, True)
    label, g = F.kinds(60, seed=7 + kind)[kind]
    p, q = frontier.renumbering(g)
    assert sorted(p.tolist()) == list(range(g.n)) and (q[p] == np.arange(g.n)).all(), label
    assert frontier.renumbering(g)[0] is p                           # remembered
    _, indptr, indices, w = frontier.csr_arrays(g)
    ni, nx, nw = frontier.renumbered(indptr, indices, w, p, q)
    h = Graph(g.n, ni, nx, nw)
    np.testing.assert_array_equal(reference_apsp(h), reference_apsp(g)[p][:, p], err_msg=label)


def test_renumbering_kept_only_where_it_makes_edges_short(monkeypatch):
    """With the work test at 0: kept on a grid numbered at random (its edges then span far fewer numbers: the
    point of it); refused on a random graph (no numbering makes its edges short: RENUMBER_SPAN) and on a graph with
    a vertex joined to all (RENUMBER_DEGREE: scipy's ordering is slow there).  With the work test at the graph's
    n m: refused on many small components, whose sources reach few of its edges."""
    from apsp_kernels.core.structure_graphs import components, hub
    monkeypatch.setattr(frontier, "RENUMBER_WORK", 0)
    assert frontier.renumbering(G.kemp(2000, seed=1)) is None
    assert frontier.renumbering(hub(2000, seed=1)) is None
    many = components(2000, 50, seed=1)
    assert frontier.renumbering(many) is not None
    monkeypatch.setattr(frontier, "RENUMBER_WORK", many.n * many.m)
    assert frontier.renumbering(components(2000, 50, seed=1)) is None
    monkeypatch.setattr(frontier, "RENUMBER_WORK", 0)
    label, g = F.kinds(400, seed=1)[3]
    assert label == "grid"
    r = np.random.default_rng(0).permutation(g.n)
    _, indptr, indices, w = frontier.csr_arrays(g)
    shuffled = Graph(g.n, *frontier.renumbered(indptr, indices, w, r, np.argsort(r).astype(np.int32)))
    span = lambda h: np.abs(np.repeat(np.arange(h.n), np.diff(h.indptr)) - h.indices).mean()
    p, q = frontier.renumbering(shuffled)
    _, indptr, indices, w = frontier.csr_arrays(shuffled)
    assert span(Graph(g.n, *frontier.renumbered(indptr, indices, w, p, q))) < span(shuffled) / 5


def test_a_numbering_that_aliases_the_bitmap_words_is_renumbered_at_any_size():
    """Below RENUMBER_WORK the launcher renumbers where the graph's own numbering puts vertices a common edge span
    apart, or twice it, in one bitmap word: the grid of 4,096 (64 wide, 128 words), a strip 128 wide of 4,096 (128
    words), the cube of 4,096 (spans 16 and 256 = 2 x 128); not the grid of 8,100 (90 wide, 254 words), a strip 250
    wide, a kNN graph, a road network or Kemp's graph, whose numberings share no such span."""
    from apsp_kernels.io import suite_graphs as SG
    for name, n in (("grid", 4096), ("strip-32", 4096), ("grid3d", 4096)):
        g = SG.make(name, n, seed=n)
        assert g.n * g.m < frontier.RENUMBER_WORK and frontier.bitmap_aliased(g), name
        assert frontier.renumbering(g) is not None, name
    for name, n in (("grid", 8100), ("strip-20", 5000), ("knn", 4096), ("helsinki-walk", None), ("kemp", 4096)):
        g = SG.make(name, n, seed=n or 0)
        assert not frontier.bitmap_aliased(g) and frontier.renumbering(g) is None, name


# ------------------------------------------------------------------ the kernel, emulated
@pytest.mark.parametrize("n", F.SIZES)
def test_every_kind_exact(emu, n):
    """Every source at n <= 127 with 3 threads a block (each scans several bitmap words), and five sources
    with the launcher's 128; at n = 1000 five sources with 8 threads, 4 words each (the emulation runs a
    fiber per thread, slow on deep graphs: every source at n = 1000 is the GPU test's)."""
    for label, g in F.kinds(n, seed=40 + n):
        ref = reference_apsp(g)
        src = np.unique(np.r_[0, n - 1, n // 2, np.random.default_rng(n).integers(0, n, 2)])
        if n <= 127:
            np.testing.assert_array_equal(run(emu, g, threads=3)[0], ref, err_msg=f"{label} n={n}")
        threads = frontier.THREADS if n <= 127 else 8
        d, _ = run(emu, g, sources=src, threads=threads)
        np.testing.assert_array_equal(d, ref[src], err_msg=f"{label} n={n}, {threads} threads")


@pytest.mark.parametrize("n", (2, 33, 127))
def test_parallel_edges_and_self_loops(emu, n):
    g, twin = F.multi_edges(n, seed=n)
    assert g.m > 3 * twin.m - 1                                   # the kernel does see the copies and loops
    np.testing.assert_array_equal(run(emu, g, threads=5)[0], reference_apsp(twin))


def test_sources_subset_repeated_and_unsorted(emu):
    g = F.kinds(127, seed=3)[3][1]                                # the grid
    full, _ = run(emu, g, threads=4)
    src = [100, 5, 5, 126, 0, 100, 64]
    d, _ = run(emu, g, sources=src, threads=4)
    assert d.shape == (7, 127)
    np.testing.assert_array_equal(d, full[src])
    np.testing.assert_array_equal(full, reference_apsp(g))


def test_rounds_of_a_directed_path(emu):
    """From 0, round t lowers vertex t + 1 only (a round reads its bitmap words once): n rounds; from the
    last vertex, one."""
    n = 300
    g = F.path(n, 9)
    assert run(emu, g, sources=[0], threads=7)[1] == n
    assert run(emu, g, sources=[n - 1], threads=7)[1] == 1


def _defined(name):
    return int(re.search(rf"#define {name} (\d+)", (CUDA_DIR / "tuned_frontier.cu").read_text()).group(1))


def test_heavy_vertices_beyond_the_deferred_list(emu):
    """A complete graph of 300: from any source the second round's frontier holds 299 vertices of out-degree 299,
    more than the list defers (TFR_HEAVY_SLOTS); the rest are walked by the threads that found them."""
    heavy, slots = _defined("TFR_HEAVY"), _defined("TFR_HEAVY_SLOTS")
    n = slots + 44
    g = G.complete(n, 0, 50, seed=5)
    assert n - 1 > slots and n - 1 >= heavy
    src = [0, 7, n - 1]
    for threads in (5, frontier.THREADS):
        d, rounds = run(emu, g, sources=src, threads=threads)
        np.testing.assert_array_equal(d, reference_apsp(g)[src], err_msg=f"{threads} threads")


def test_a_chain_of_heavy_vertices_costs_at_most_two_rounds_a_hop(emu):
    """Cliques of TFR_HEAVY + 1 vertices in a directed chain (the last vertex of each joined to the first of the
    next): every vertex heavy, unit weights, 2 hops a clique to the next; the rounds stay within the kernel's 2n bound
    and within twice the hops plus two, and the distances exact."""
    k = _defined("TFR_HEAVY") + 1
    cliques = 6
    n = k * cliques
    src, dst = [], []
    for c in range(cliques):
        base = c * k
        for a in range(k):
            for b in range(k):
                if a != b:
                    src.append(base + a)
                    dst.append(base + b)
        if c + 1 < cliques:
            src.append(base + k - 1)
            dst.append(base + k)
    g = Graph.from_edges(n, src, dst, np.ones(len(src), np.int64))     # unit weights: a path's hops are its length
    hops = 2 * cliques - 1
    d, rounds = run(emu, g, sources=[0], threads=9)
    np.testing.assert_array_equal(d, reference_apsp(g)[[0]])
    assert hops < rounds <= 2 * hops + 2


def test_hubs_in_the_first_bitmap_word(emu):
    """A Barabasi-Albert graph: its oldest vertices, the hubs, share word 0 of the bitmap."""
    from apsp_kernels.io import suite_graphs as SG
    g = SG.make("ba", 400, seed=400)
    deg = np.diff(g.indptr)
    assert (deg[:32] >= _defined("TFR_HEAVY")).sum() >= 4          # hubs among the first 32 vertices
    src = [0, 1, 399, 200]
    d, _ = run(emu, g, sources=src, threads=frontier.THREADS)
    np.testing.assert_array_equal(d, reference_apsp(g)[src])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(33, 90), data=st.data(), threads=st.sampled_from([1, 4, 32, 128]))
def test_property_random_graphs_with_heavy_vertices(emu, n, data, threads):
    """Graphs where some vertices have TFR_HEAVY out-edges or more (parallel edges and self-loops as drawn)."""
    heavy = _defined("TFR_HEAVY")
    hubs = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 31)))
    src = np.r_[np.repeat(hubs, heavy + 3), rng.integers(0, n, 3 * n)]
    dst = rng.integers(0, n, src.size)
    w = rng.integers(0, 1000, src.size)
    g, twin = F.raw(n, src, dst, w)
    np.testing.assert_array_equal(run(emu, g, threads=threads)[0], reference_apsp(twin))


@pytest.mark.parametrize("n", (1, 2, 33, 127))
def test_float32_exact_against_float32_dijkstra_and_within_the_bound_of_float64(emu, n):
    from scipy.sparse import csgraph
    g = F.float_graph(n, seed=n)                                  # n = 1: an int Graph (no edge), float32 asked
    d, _ = run(emu, g, threads=3, dtype="float32")
    assert d.dtype == np.float32
    _, indptr, indices, w32 = frontier.csr_arrays(g, "float32")
    np.testing.assert_array_equal(d, F.float32_dijkstra(n, indptr, indices, w32, range(n)))
    want = csgraph.shortest_path(g.to_scipy(), method="D") if n else np.zeros((0, 0))
    assert np.array_equal(np.isinf(d), np.isinf(want))
    fin = np.isfinite(want)
    np.testing.assert_allclose(d[fin], want[fin], rtol=F.float_tolerance(n), atol=0)


def test_integer_valued_float32_is_exact(emu):
    """Integer weights in float32 where every distance is below 2^24: every sum exact, so the int answer."""
    for label, g in F.kinds(127, seed=8)[:5]:
        d, _ = run(emu, g, threads=3, dtype="float32")
        np.testing.assert_array_equal(d, F.int_to_float(reference_apsp(g)), err_msg=label)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 40), data=st.data(), threads=st.sampled_from([1, 2, 5, 32, 128]))
def test_property_random_small_graphs(emu, n, data, threads):
    """Any directed graph of up to 40 vertices with weights 0..1000, any block size: exact."""
    m = data.draw(st.integers(0, 4 * n))
    src = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = data.draw(st.lists(st.integers(0, 1000), min_size=m, max_size=m))
    g, twin = F.raw(n, src, dst, w)                               # parallel edges and self-loops as drawn
    np.testing.assert_array_equal(run(emu, g, threads=threads)[0], reference_apsp(twin))


def test_narrow_frontiers_get_smaller_blocks():
    """Blocks of 64 threads where the first chunk's mean frontier (n / rounds) is narrower than a warp."""
    assert frontier.block_threads(16384, 8192) == 64          # a ring: 2 vertices a round
    assert frontier.block_threads(16384, 254) == 128          # a 128 x 128 grid: ~64
    assert frontier.block_threads(16384, 12) == 128           # Kemp random
    assert frontier.block_threads(5000, 0) == 128             # no rounds counted: as one round
    assert frontier.NARROW_THREADS <= frontier.THREADS         # TFR_THREADS is the kernel's launch bound
