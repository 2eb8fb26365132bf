"""Spot Check 4 of seed 002 (Hochberg) on the CPU: the graph of his Fig. 1.2 and his printed output,
exactly, after every pivot and at the end.  The GPU side is in tests/test_hochberg_gpu.py."""
import numpy as np
import pytest

import hochberg_golden as H
from apsp_kernels import normalise_inf, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.cpu.fw import _fw_sequential
from apsp_kernels.paths import SEEDS


def test_transcription_matches_the_seed():
    seed = sorted(SEEDS.glob("002_*.txt"))
    if not seed:
        pytest.skip(f"seed 002 not found in {SEEDS} (set APSP_SEEDS_DIR)")
    assert H.missing_from_seed(seed[0].read_text(encoding="utf-8")) == []
    assert len(H.tables()) == 1 + 6 + 1                          # M_0, one table per pivot, the result


def test_graph_file_gives_fig_1_2():
    assert np.array_equal(H.graph().to_dense(), H.tables()[0][2])


def test_cpu_fw_after_every_pivot():
    """The sequential FW (Kemp Alg. 4, the study's CPU FW) run one pivot at a time prints his tables."""
    D = H.graph().to_dense()
    for k in range(6):
        _fw_sequential(D, np.array([k]))
        np.testing.assert_array_equal(normalise_inf(D.copy()), H.after_pivot(k), err_msg=f"after pivot {k}")
    np.testing.assert_array_equal(normalise_inf(D), H.final())


@pytest.mark.parametrize("a", registry.by_device("cpu"), ids=lambda a: a.name)
def test_every_cpu_code_gives_his_result(a):
    d, _ = a.run(H.graph())
    np.testing.assert_array_equal(d, H.final())


def test_reference_gives_his_result():
    np.testing.assert_array_equal(reference_apsp(H.graph()), H.final())
