"""Every GPU algorithm and variant against the CPU reference, exactly (marker ``gpu``)."""
import numpy as np
import pytest

from apsp_kernels import Graph, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G

pytestmark = pytest.mark.gpu
SIZES = (1, 2, 15, 16, 17, 31, 33, 100, 255, 1000, 1500)
GPU = registry.by_device("gpu")
EXACT = [(a, v) for a in GPU for v in a.exact_variants]


def awkward_graph(n, seed, negative):
    """Directed, asymmetric, zero-weight and duplicate edges, unreachable pairs."""
    g = G.kemp(n, 0, 4, 0, 100, seed=seed)           # out-degree 0 allowed: unreachable pairs
    s, d, w = g.edges()
    k = min(g.m, 5)
    s = np.concatenate([s, s[:k]])                    # duplicates, heavier than the originals
    d = np.concatenate([d, d[:k]])
    w = np.concatenate([w, w[:k] + 7])
    g = Graph.from_edges(n, s, d, w, meta=g.meta)
    return G.with_potential(g, scale=40, seed=seed) if negative and g.m else g


def forced(algo, n, block):
    """Launcher keywords that force about three partitions per round (Kemp's forced mode)."""
    if algo.forced_params is None:
        return {}
    return algo.forced_params(n, block, max(1, -(-max(n, 1) // block) // 3))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("algo, variant", EXACT, ids=lambda x: getattr(x, "name", str(x)))
def test_exact(algo, variant, n):
    negative = algo.negative_weights and n % 2 == 1
    g = awkward_graph(n, seed=1000 + n, negative=negative)
    ref = reference_apsp(g)
    kw = forced(algo, n, variant)
    d, t = algo.run(g, variant=variant, **kw)
    np.testing.assert_array_equal(d, ref)
    assert t["kernel_ms"] >= 0


@pytest.mark.parametrize("mode", registry.MODES)
@pytest.mark.parametrize("algo", [a for a in GPU if a.memory_modes], ids=lambda a: a.name)
def test_memory_modes(algo, mode):
    for n in (17, 100):
        g = awkward_graph(n, seed=n, negative=True)
        d, t = algo.run(g, memory=mode)
        np.testing.assert_array_equal(d, reference_apsp(g))
        assert {"alloc_ms", "h2d_ms", "d2h_ms", "kernel_ms"} <= set(t)


def test_ooc_forced_partitions():
    g = G.kemp(700, seed=3)
    a = registry.get("kemp_ooc")
    d, t = a.run(g, variant=16, budget_bytes=5 * 16 * 704 * 4)   # 3 block rows per partition
    assert t["partitions"] > 10
    np.testing.assert_array_equal(d, reference_apsp(g))


@pytest.mark.parametrize("n", (100, 1000))
def test_harish_original_terminates_and_never_undershoots(n):
    g = G.kemp(n, 2, 6, seed=n)
    d, _ = registry.get("harish").run(g, variant="original")
    ref = reference_apsp(g)
    assert np.all(d >= ref)


def test_harish_refuses_negative_weights():
    from apsp_kernels import GraphError
    g = Graph.from_edges(2, [0], [1], [-1])
    with pytest.raises(GraphError, match="non-negative"):
        registry.get("harish").run(g)


def test_too_big_is_refused_before_allocating():
    import cupy as cp
    from apsp_kernels.gpu_device import GPUMemoryError
    free = cp.cuda.runtime.memGetInfo()[0]
    n = int((free / 4) ** 0.5) + 1024                 # one matrix more than the free memory
    with pytest.raises(GPUMemoryError, match=r"tran_fw: needs .*\(role out_of_core"):
        from apsp_kernels.gpu_device import check_fits
        check_fits("tran_fw", registry.get("tran_fw").footprint(n, 0))
    assert registry.by_role("out_of_core").device == "gpu"      # the hint's role names a real algorithm


def test_kernel_error_names_the_algorithm():
    from apsp_kernels.algorithms.gpu import runtime as gpu_runtime
    from apsp_kernels.algorithms.gpu.dense import TRAN_DEFINES
    k = gpu_runtime.kernel("tran_fw.cu", "tran_fw_step", defines=TRAN_DEFINES)
    import cupy as cp
    with pytest.raises(gpu_runtime.GPUKernelError, match="tran_fw"):
        gpu_runtime.launch("tran_fw", k, (1, 1), (64, 64), (cp.zeros(1, cp.int32), cp.zeros(1, cp.int32), 1, 0))
