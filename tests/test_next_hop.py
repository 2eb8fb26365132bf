"""The checker of next-vertex matrices (Hochberg's Exploration 8), on a CPU FW that builds one."""
import numpy as np
import pytest

from apsp_kernels import INF, Graph, reference_apsp
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms.gpu.fw_hochberg import _next_hop_start
from apsp_kernels.core.verify import next_hop_errors


def fw_next(g):
    """FW with the next-vertex update of hochberg_rows_step_next, in numpy (INF guarded)."""
    d = g.to_dense().astype(np.int64)
    nxt = _next_hop_start(g.to_dense()).astype(np.int64)
    for k in range(g.n):
        cand = np.where((d[:, k:k + 1] < INF) & (d[k:k + 1, :] < INF), d[:, k:k + 1] + d[k:k + 1, :], INF)
        better = cand < d
        d = np.where(better, cand, d)
        nxt = np.where(better, nxt[:, k:k + 1], nxt)
    return d.astype(np.int32), nxt


@pytest.mark.parametrize("g", [G.kemp(60, 0, 4, 0, 9, seed=3), G.cycle(25, directed=False),
                               G.with_potential(G.kemp(40, 1, 5, 0, 20, seed=4), scale=10, seed=4),
                               Graph.from_edges(5, [0, 1, 2], [1, 2, 0], [0, 0, 0])],      # a zero-weight cycle
                         ids=["kemp", "cycle", "negative", "zero_cycle"])
def test_fw_next_hops_are_right(g):
    d, nxt = fw_next(g)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert next_hop_errors(g, d, nxt) == []


def test_wrong_next_hops_are_found():
    g = G.cycle(8, directed=False)
    d, nxt = fw_next(g)
    assert next_hop_errors(g, d, nxt) == []
    wrong = nxt.copy()
    wrong[0, 4] = 4                                                      # not an edge
    assert "shortest path" in next_hop_errors(g, d, wrong)[0]
    loop = nxt.copy()
    loop[0, 2], loop[1, 2] = 1, 0                                        # 0 -> 1 -> 0: both are edges
    errs = next_hop_errors(g, d, loop)
    assert any("shortest path" in e or "does not reach" in e for e in errs)
    none = nxt.copy()
    none[3, 3] = 2
    assert "diagonal" in next_hop_errors(g, d, none)[0]


def test_a_cycle_of_tight_zero_edges_is_found():
    g = Graph.from_edges(3, [0, 1, 1, 0, 2], [1, 0, 2, 2, 0], [0, 0, 5, 5, 1])
    d = reference_apsp(g)
    _, nxt = fw_next(g)
    assert next_hop_errors(g, d, nxt) == []
    nxt[0, 2], nxt[1, 2] = 1, 0            # each step tight (0 + 5 == 5), but the walk never reaches 2
    assert any("does not reach" in e for e in next_hop_errors(g, d, nxt))
