"""The tuned codes on the GPU (marker ``gpu``), exact against the reference on awkward sizes (1, 2, 31,
33, 127, 129, 1025) and kinds (zero-weight and duplicate edges, unreachable pairs, negative edges where
the code takes them, disconnected halves and an isolated vertex, chains both ways, complete graphs);
tests/test_gpu.py runs them at its own sizes too, as every registry code."""
import numpy as np
import pytest

from apsp_kernels import Graph, GraphError, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.core.distances import NegativeCycleError

from tuned_graphs import SIZES, kinds

pytestmark = pytest.mark.gpu
TUNED = [a for a in registry.by_device("gpu") if a.name.startswith("tuned_")]
CASES = [(a, v) for a in TUNED for v in a.exact_variants]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("algo, variant", CASES, ids=lambda x: getattr(x, "name", str(x)))
def test_tuned_exact(algo, variant, n):
    for negative in (False, True) if algo.negative_weights else (False,):
        for label, g in kinds(n, seed=900 + n, negative=negative):
            d, t = algo.run(g, variant=variant)
            np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{algo.name}/{variant} {label} n={n}")
            assert t["kernel_ms"] >= 0 and d.dtype == np.int32


@pytest.mark.parametrize("n", (4100, 5000))
def test_tuned_fw_many_rounds(n):
    """33 and 40 rounds of 128, padding in the last block: the blocked schedule far from its edges."""
    g = G.kemp(n, 0, 6, 0, 1000, seed=n)
    g = G.with_potential(g, scale=50, seed=n)
    d, t = registry.get("tuned_fw").run(g)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert t["padded_n"] % 128 == 0 and t["launches"] == 3 * (t["padded_n"] // 128)


@pytest.mark.parametrize("n", SIZES + (4100,))
def test_tuned_fw_float32_exact_on_integer_weights(n):
    """The float32 kernels (tfw_phase*_f32) on the int32 suite's kinds as float32: integer path sums below 2^24, so
    the int32 reference exactly (+inf where it says INF); negative weights included (the kernel takes them)."""
    from apsp_kernels.core.limits import INF
    fw = registry.get("tuned_fw")
    for negative in (False, True):
        for label, g in kinds(n, seed=950 + n, negative=negative) if n < 4100 else [("kemp", G.kemp(n, seed=n))]:
            d, t = fw.run(g, dtype="float32")
            ref = reference_apsp(g).astype(np.float64)
            ref[ref >= INF] = np.inf
            assert d.dtype == np.float32 and t["dtype"] == "float32"
            np.testing.assert_array_equal(d, ref, err_msg=f"tuned_fw float32 {label} n={n}")


def test_tuned_fw_phase_times():
    g = G.kemp(2048, seed=5)
    d, t = registry.get("tuned_fw").run(g, phases=True)
    np.testing.assert_array_equal(d, reference_apsp(g))
    # the split accounts for the solve (each phase timed on its own events); which phase dominates is a
    # benchmark's question (scripts/tuned_phases.py): at n = 2048 phase 1's 16 serial rounds outweigh phase 3
    # on the H100 (1.06 vs 0.70 ms), at n = 16384 phase 3 is 95% of the time
    parts = [t["phase1_ms"], t["phase2_ms"], t["phase3_ms"]]
    assert min(parts) > 0 and sum(parts) <= 1.05 * t["kernel_ms"]


def test_tuned_fw_reports_a_negative_cycle():
    g = Graph.from_edges(300, [0, 1, 2, 250], [1, 2, 0, 251], [1, 1, -3, 5])
    for name, v in (("tuned_fw", None), ("tuned_fw_stream", "int4"), ("tuned_fw_stream", "cupy")):
        with pytest.raises(NegativeCycleError):
            registry.get(name).run(g, variant=v)
    with pytest.raises(NegativeCycleError, match="vertex"):          # the float32 kernels: never a result either
        registry.get("tuned_fw").run(g, dtype="float32")


def test_tuned_sparse_refuses_negative_weights():
    with pytest.raises(GraphError, match="non-negative"):
        registry.get("tuned_sparse").run(Graph.from_edges(2, [0], [1], [-1]))


def test_tuned_sparse_same_result_every_batch_and_run():
    """The in-place sweeps may take a different number of sweeps from run to run (warps race, which
    only changes how fast values settle); the distances may not differ."""
    g = G.kemp(3000, 1, 6, 0, 1000, seed=8)
    ref = reference_apsp(g)
    for batch in registry.get("tuned_sparse").variants:
        for _ in range(2):
            d, t = registry.get("tuned_sparse").run(g, variant=batch)
            np.testing.assert_array_equal(d, ref)
            assert t["batches"] == -(-3000 // batch) and t["sweeps"] >= t["batches"]
