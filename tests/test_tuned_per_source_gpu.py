"""The GPU checks (marker ``gpu``) that tuned_frontier (a block per source) and tuned_deep (a warp per source)
share, each test run for both codes: the launchers take the same CSR arrays, sources and dtypes and report the
same timings, so the same checks hold; what differs is the graphs each is built for (frontier_graphs.py,
deep_graphs.py) and its sizes, in CODES.  Every kind exact against the CPU reference, parallel edges and
self-loops the kernel really sees, the sources= subset (repeated, unsorted, a scalar) equal to the full solve's
rows, the same result every run, the rounds of a directed path, integer-valued float32 exact, the opt-in shared
memory of n = 200000, a graph with no edge.  tests/test_tuned_frontier_gpu.py and tests/test_tuned_deep_gpu.py
hold each code's own checks."""
import numpy as np
import pytest

import deep_graphs as DG
import frontier_graphs as F

from apsp_kernels import Graph, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import deep, frontier
from apsp_kernels.core import structure_graphs as S
from apsp_kernels.core.graph import INF

pytestmark = pytest.mark.gpu

# Per code: its graphs (kinds), the sizes every kind is checked at, how many kinds the sources subset takes, the
# graph solved three times, (n, kinds) of the integer-valued float32 check, and the shared bytes that n = 200000
# needs of a block (frontier: its two bitmaps) or of a warp's slice (deep).
CODES = {
    "tuned_frontier": dict(kinds=F.kinds, sizes=F.SIZES, subset_kinds=5, same_graph=lambda: S.grid(3000, seed=1),
                           float_exact=(1000, 6), shared_bytes=frontier.shared_bytes),
    "tuned_deep": dict(kinds=DG.kinds, sizes=(1, 2, 31, 33, 70, 127, 1000), subset_kinds=6,
                       same_graph=lambda: DG.lollipop(3000, seed=1, clique=128), float_exact=(4096, 8),
                       shared_bytes=deep.slice_bytes),
}


def solve(code, g, **kw):
    return registry.get(code).run(g, **kw)


@pytest.mark.parametrize("code, n", [(c, n) for c in CODES for n in CODES[c]["sizes"]])
def test_every_kind_exact(code, n):
    for label, g in CODES[code]["kinds"](n, seed=70 + n):
        d, t = solve(code, g)
        np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n}")
        assert d.dtype == np.int32 and d.shape == (n, n) and t["dtype"] == "int32" and t["sources"] == n
        assert 1 <= t["rounds_max"] <= n and t["kernel_ms"] >= 0


@pytest.mark.parametrize("n", (2, 33, 1000))
@pytest.mark.parametrize("code", CODES)
def test_parallel_edges_and_self_loops(code, n):
    g, twin = F.multi_edges(n, seed=n)
    np.testing.assert_array_equal(solve(code, g)[0], reference_apsp(twin))


@pytest.mark.parametrize("n", (33, 1000))
@pytest.mark.parametrize("code", CODES)
def test_sources_subset_repeated_and_unsorted(code, n):
    for label, g in CODES[code]["kinds"](n, seed=n)[:CODES[code]["subset_kinds"]]:
        full, _ = solve(code, g)
        src = [n - 1, 5, 5, 0, n // 2, n - 1, 17]
        d, t = solve(code, g, sources=src)
        assert d.shape == (7, n) and t["sources"] == 7
        np.testing.assert_array_equal(d, full[src], err_msg=label)
        np.testing.assert_array_equal(solve(code, g, sources=np.int64(3))[0], full[[3]], err_msg=label)
        np.testing.assert_array_equal(full, reference_apsp(g), err_msg=label)


@pytest.mark.parametrize("code", CODES)
def test_same_result_every_run(code):
    """Threads (lanes, in tuned_deep) race within a round, which only changes how fast values settle: never the
    distances."""
    g = CODES[code]["same_graph"]()
    ref = reference_apsp(g)
    for _ in range(3):
        np.testing.assert_array_equal(solve(code, g)[0], ref)


@pytest.mark.parametrize("code", CODES)
def test_rounds_of_a_directed_path(code):
    """From 0, round t lowers vertex t + 1 only: n rounds; from the last vertex, one."""
    g = F.path(1000, 4)
    assert solve(code, g, sources=[0])[1]["rounds_max"] == 1000
    assert solve(code, g, sources=[999])[1]["rounds_max"] == 1


@pytest.mark.parametrize("code", CODES)
def test_integer_valued_float32_is_exact(code):
    """Integer weights in float32 where every distance is below 2^24: every sum exact, so the int answer."""
    n, count = CODES[code]["float_exact"]
    for label, g in CODES[code]["kinds"](n, seed=8)[:count]:
        ref = reference_apsp(g)
        assert ref[ref < INF].max() < 2**24, label
        d, _ = solve(code, g, dtype="float32")
        np.testing.assert_array_equal(d, F.int_to_float(ref), err_msg=label)


@pytest.mark.parametrize("code", CODES)
def test_more_shared_memory_than_48_kib(code):
    """n = 200000: about 50 KB of shared memory a block (tuned_frontier's two bitmaps) or a source (tuned_deep's
    slice, fewer warps a block), past the 48 KiB a kernel gets without opting in (the launcher opts in).  A
    directed path: the distances are the prefix sums, 200000 rounds from vertex 0."""
    n = 200000
    assert CODES[code]["shared_bytes"](n) > frontier.DEFAULT_SHARED
    g = F.path(n, 5)
    d, t = solve(code, g, sources=[0, 123457])
    pre = np.r_[0, np.cumsum(g.weights.astype(np.int64))]
    want = np.full((2, n), INF, np.int64)
    want[0] = pre
    want[1, 123457:] = pre[123457:] - pre[123457]
    np.testing.assert_array_equal(d, want)
    assert t["rounds_max"] == n
    if code == "tuned_deep":
        assert t["warps"] >= 1


@pytest.mark.parametrize("code", CODES)
def test_no_edges(code):
    d, t = solve(code, Graph.from_edges(40, [], [], []))
    want = np.full((40, 40), INF, np.int32)
    np.fill_diagonal(want, 0)
    np.testing.assert_array_equal(d, want)
    assert t["rounds_max"] == 1
