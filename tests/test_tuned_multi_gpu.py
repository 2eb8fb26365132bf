"""``tuned_fw_multi`` on GPUs (marked ``gpu``; skipped, with the reason, without them): exact against the CPU
reference on awkward sizes, kinds and rank counts (more ranks than block rows, uneven shares, negative weights),
with and without the lookahead, through the host result and through block-row checksums; a negative cycle raised.
1 GPU always, 2 and 4 where the host has them.  The kernels' launch order is also checked without a GPU
(tests/test_tuned_emulated.py)."""
import numpy as np
import pytest

from apsp_kernels import reference_apsp
from apsp_kernels.core import generators as G
from apsp_kernels.core.verify import fletcher64

from tuned_graphs import kinds


def _gpus():
    try:
        import cupy as cp
        return cp.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


TIMEOUT_S = 300
SIZES = (1, 100, 129, 300, 700, 1000)


def _solve_many(ctx, graphs, lookahead):
    from apsp_kernels.algorithms.gpu.multi.tuned import solve_rank
    return [solve_rank(ctx, g, None, True, lookahead) for g in graphs]


def _cases():
    out = []
    for n in SIZES:
        for label, g in kinds(n, seed=900 + n, negative=n % 2 == 0):
            if n >= 700 and label not in ("awkward", "chain"):
                continue
            out.append((f"{label} n={n}", g))
    return out


@pytest.mark.gpu
@pytest.mark.parametrize("ranks", (1, 2, 3, 4))
@pytest.mark.parametrize("lookahead", (True, False))
def test_block_rows_checksum_to_the_reference(ranks, lookahead):
    """One start of the ranks for every case: each case's whole-result checksum, combined from the ranks' block
    rows, equals the reference's."""
    if _gpus() < ranks:
        pytest.skip(f"needs {ranks} GPUs (NCCL: one rank per GPU); this host has {_gpus()}")
    from apsp_kernels.algorithms.gpu.multi import launch
    from apsp_kernels.core.verify import block_rows_checksum
    cases = _cases()
    per_rank = launch.spawn(ranks, _solve_many, ([g for _, g in cases], lookahead), timeout_s=TIMEOUT_S)
    for k, (label, g) in enumerate(cases):
        infos = [r[k] for r in per_rank]
        assert block_rows_checksum(infos) == fletcher64(reference_apsp(g)), label
        assert sum(i["rows"] for i in infos) == g.n
        if ranks > 1 and g.n > 128:
            assert max(i["received_bytes"] for i in infos) > 0


@pytest.mark.gpu
@pytest.mark.parametrize("ranks", (1, 2, 4))
def test_host_result_equals_the_reference(ranks):
    if _gpus() < ranks:
        pytest.skip(f"needs {ranks} GPUs; this host has {_gpus()}")
    from apsp_kernels.algorithms.gpu.multi.tuned import tuned_fw_multi
    g = G.with_potential(G.kemp(777, seed=5), scale=40, seed=5)
    d, t = tuned_fw_multi(g, n_gpus=ranks, timeout_s=TIMEOUT_S)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert t["n_gpus"] == ranks and len(t["kernel_ms_per_rank"]) == ranks and t["kernel_ms"] > 0


@pytest.mark.gpu
def test_one_rank_equals_tuned_fw():
    from apsp_kernels.algorithms.gpu.multi.tuned import tuned_fw_multi
    from apsp_kernels.algorithms.gpu.tuned.fw import tuned_fw
    g = G.kemp(2000, seed=6)
    d, _ = tuned_fw_multi(g, n_gpus=1)
    np.testing.assert_array_equal(d, tuned_fw(g)[0])


@pytest.mark.gpu
@pytest.mark.parametrize("ranks", (1, 2))
def test_a_negative_cycle_is_raised(ranks):
    if _gpus() < ranks:
        pytest.skip(f"needs {ranks} GPUs; this host has {_gpus()}")
    from apsp_kernels.algorithms.gpu.multi.tuned import tuned_fw_multi
    from apsp_kernels.core.distances import NegativeCycleError
    from apsp_kernels.core.graph import Graph
    n = 300
    src = np.arange(n, dtype=np.int32)
    g = Graph.from_edges(n, src, (src + 1) % n, np.where(src == n - 1, -n, 1).astype(np.int32))
    with pytest.raises(NegativeCycleError):
        tuned_fw_multi(g, n_gpus=ranks, timeout_s=TIMEOUT_S)
