"""Hochberg's kernel and his explorations on the GPU (marker ``gpu``): Spot Check 4 after every launch
of his kernel, each exploration exact (tests/test_gpu.py runs them on its awkward graphs too), the
path matrix, the layouts, the no-kernel build of his timing method, and a report of where the kernel
without __syncthreads() goes wrong.  The no-sync variant may be wrong: it is registered inexact."""
import numpy as np
import pytest

import hochberg_golden as H
from apsp_kernels import INF, NegativeCycleError, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms.gpu import fw_hochberg
from apsp_kernels.core.graph import normalise_inf
from apsp_kernels.core.verify import next_hop_errors

pytestmark = pytest.mark.gpu
# his study's entries (hochberg_naive is the campaign's kernel, untouched: it has no launch=False)
HOCHBERG = [(a, v) for a in registry.by_device("gpu") if a.name.startswith("hochberg") and a.name != "hochberg_naive"
            for v in a.exact_variants]


def test_his_kernel_prints_spot_check_4_after_every_launch():
    """His fw.c on graph1.txt: Na = 64 ('Alignment = 64'), 256 threads, grid ceil(Na/256) x N, the
    matrix read back after each launch as his commented-out printArray lines do."""
    import cupy as cp
    from apsp_kernels.algorithms.gpu import runtime as gpu_runtime
    g = H.graph()
    N, Na = g.n, 64
    host = np.full((N, Na), INF, np.int32)           # his padding columns are never read
    host[:, :N] = g.to_dense()
    dev = cp.asarray(host)
    k = gpu_runtime.kernel("hochberg_naive.cu", "hochberg_fw_step")
    for kk in range(N):
        k(((Na + 255) // 256, N), (256,), (np.int32(kk), dev, np.int32(Na), np.int32(N)))
        got = normalise_inf(cp.asnumpy(dev)[:, :N])
        np.testing.assert_array_equal(got, H.after_pivot(kk), err_msg=f"after launch k={kk}")
    np.testing.assert_array_equal(got, H.final())


@pytest.mark.parametrize("algo, variant", HOCHBERG + [(registry.get("hochberg_naive"), None)],
                         ids=lambda x: getattr(x, "name", str(x)))
def test_every_exact_hochberg_code_gives_spot_check_4(algo, variant):
    d, t = algo.run(H.graph(), variant=variant)
    np.testing.assert_array_equal(d, H.final())
    assert t["kernel_ms"] >= 0


@pytest.mark.parametrize("n", [1, 10, 33, 257, 1000])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("algo, variant", HOCHBERG, ids=lambda x: getattr(x, "name", str(x)))
def test_his_cycles(algo, variant, n, directed):
    g = G.cycle(n, directed=directed)
    d, _ = algo.run(g, variant=variant)
    np.testing.assert_array_equal(d, reference_apsp(g))


def test_layouts():
    g = G.kemp(1000, seed=1)
    strides = {}
    for a, v in (("hochberg_align", 64), ("hochberg_align", 32), ("hochberg_explore", "unpadded"),
                 ("hochberg_explore", "pitch")):
        d, t = registry.get(a).run(g, variant=v)
        np.testing.assert_array_equal(d, reference_apsp(g))
        strides[v] = t["row_stride"]
        if v == "pitch":
            assert t["pitch_bytes"] == 4 * t["row_stride"] and t["pitch_bytes"] >= 4000
    assert strides[64] == 1024 and strides[32] == 1024 and strides["unpadded"] == 1000


@pytest.mark.parametrize("n", [1, 6, 100, 777])
@pytest.mark.parametrize("kind", ["kemp", "negative", "cycle"])
def test_next_hop_matrix(kind, n):
    g = {"kemp": lambda: G.kemp(n, 0, 4, 0, 50, seed=n), "cycle": lambda: G.cycle(n, directed=False),
         "negative": lambda: G.with_potential(G.kemp(n, 1, 4, 0, 50, seed=n), scale=20, seed=n)}[kind]()
    d, nxt, t = fw_hochberg.hochberg_paths(g)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert next_hop_errors(g, d, nxt) == []


def test_next_hop_of_fig_1_2():
    d, nxt, _ = fw_hochberg.hochberg_paths(H.graph())
    assert next_hop_errors(H.graph(), d, nxt) == []
    assert nxt[2, 0] == 5            # C to A (7) goes C -> F -> E -> A


@pytest.mark.parametrize("algo, variant", HOCHBERG, ids=lambda x: getattr(x, "name", str(x)))
def test_without_the_kernel_the_matrix_comes_back_unchanged(algo, variant):
    """His second build (Sec. 2.3): the same copies, no launch."""
    g = G.kemp(300, seed=2)
    d, t = algo.run(g, variant=variant, launch=False)
    np.testing.assert_array_equal(d, normalise_inf(g.to_dense()))
    assert t["launches"] == 0 and t["h2d_ms"] > 0 and t["d2h_ms"] > 0


RACE_GRAPHS = {
    "chain": lambda n: G.chain(n), "chain_reversed": lambda n: G.chain(n, reverse=True),
    "cycle_undirected": lambda n: G.cycle(n, directed=False), "cycle_directed": lambda n: G.cycle(n),
    "cycle_weighted": lambda n: G.cycle(n, directed=False, max_weight=1000, seed=n),
    "complete": lambda n: G.complete(n, 1, 1000, seed=n), "kemp": lambda n: G.kemp(n, seed=n),
}


def test_report_where_the_kernel_without_syncthreads_goes_wrong(capsys):
    """Not a pass/fail test of the variant: a report (printed even without -s) of the inputs on which
    it is wrong, and how.  The kernel with the barrier on the same inputs is the control and must be right."""
    nosync, control = registry.get("hochberg_explore"), registry.get("hochberg_align")
    assert "nosync" in nosync.inexact_variants
    lines, wrong_inputs = [], 0
    for name, make in RACE_GRAPHS.items():
        for n in (31, 32, 33, 256, 1000):
            g = make(n)
            ref = reference_apsp(g)
            np.testing.assert_array_equal(control.run(g, variant=32)[0], ref)
            bad, under = [], []
            for _ in range(3):
                try:
                    d = nosync.run(g, variant="nosync")[0]
                except NegativeCycleError:             # garbage read as trkc made a diagonal negative
                    bad.append("negative cycle")
                    under.append("-")
                    continue
                bad.append(int((d != ref).sum()))
                under.append(int((d < ref).sum()))
            wrong_inputs += any(b != 0 for b in bad)
            lines.append(f"  {name:17s} n={n:5d}: wrong entries per run {bad}, of them below the truth {under}")
    with capsys.disabled():
        print(f"\nhochberg_explore/nosync (no __syncthreads()): wrong on {wrong_inputs} of {len(lines)} inputs")
        print("\n".join(lines))
