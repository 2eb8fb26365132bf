"""tuned_fw_ooc on the GPU (marker ``gpu``): exact against the reference with budgets that force many
super-blocks (down to 128 wide), unequal last ones, one tile buffer or several, one compute stream or
three; a budget four times below the matrix; the refusal of a budget below the pivot bands; a negative
cycle across super-blocks.  tests/test_tuned_gpu.py runs it in core (the default budget) on the awkward
sizes, tests/test_gpu.py in its forced mode; tests/test_tuned_ooc.py and test_tuned_ooc_launcher.py check the
same schedule and launcher without a GPU."""
import numpy as np
import pytest

from apsp_kernels import Graph, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms.gpu.tuned import ooc_plan
from apsp_kernels.core.distances import NegativeCycleError
from apsp_kernels.gpu_device import GPUMemoryError

from tuned_graphs import kinds

pytestmark = pytest.mark.gpu
ALGO = registry.get("tuned_fw_ooc")


def run(g, S, **kw):
    return ALGO.run(g, budget_bytes=ooc_plan.budget_for(g.n, S, kw.get("buffers", ooc_plan.BUFFERS)),
                    super_block=S, **kw)


@pytest.mark.parametrize("n", (2, 127, 129, 300, 700, 1025))
@pytest.mark.parametrize("S", (128, 384))
def test_streamed_exact(n, S):
    for negative in (False, True):
        for label, g in kinds(n, seed=910 + n, negative=negative):
            d, t = run(g, S)
            np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n} S={S}")
            p = ooc_plan.plan(n, t["budget_bytes"], max_super_block=S)
            assert t["super_blocks"] == p.blocks and t["device_bytes"] <= t["budget_bytes"]
            assert 0 < t["compute_ms"] <= t["kernel_ms"] * 1.001 and d.dtype == np.int32


@pytest.mark.parametrize("buffers, streams", [(1, 1), (2, 1), (4, 2), (6, 3)])
def test_buffers_and_streams(buffers, streams):
    g = G.with_potential(G.kemp(2000, 0, 6, 0, 500, seed=3), scale=40, seed=3)
    d, t = run(g, 256, buffers=buffers, compute_streams=streams)
    assert t["super_blocks"] == 8
    np.testing.assert_array_equal(d, reference_apsp(g))


def test_four_times_the_budget():
    """The target's shape at a size the tests afford: the 4096^2 matrix (64 MiB) in a 16 MiB budget."""
    g = G.kemp(4096, seed=7)
    budget = 4 * 4096 ** 2 // 4
    d, t = ALGO.run(g, budget_bytes=budget)
    assert t["super_blocks"] > 1 and t["device_bytes"] <= budget
    np.testing.assert_array_equal(d, reference_apsp(g))
    d2, _ = registry.get("tuned_fw").run(g)
    np.testing.assert_array_equal(d, d2)


def test_refuses_a_budget_below_the_pivot_bands():
    g = G.kemp(1000, seed=1)
    with pytest.raises(GPUMemoryError, match="cannot hold the pivot bands.*raise budget_bytes") as e:
        ALGO.run(g, budget_bytes=ooc_plan.min_budget(1000) - 1)
    assert "\n" not in str(e.value)


def test_refuses_another_block():
    with pytest.raises(ValueError, match="block must be 128"):
        ALGO.launcher(G.kemp(10, seed=1), block=64)


def test_reports_a_negative_cycle():
    g = Graph.from_edges(600, [10, 300, 590], [300, 590, 10], [2, -7, 1])   # across three super-blocks
    with pytest.raises(NegativeCycleError):
        run(g, 128)
