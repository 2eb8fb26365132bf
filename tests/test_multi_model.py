"""The time model of tuned_fw_multi (``multi/model.py``): calibrated on the committed 2-GPU run it predicts the
4-GPU run, its bytes follow the layouts, and the table in docs/multi-gpu.md is the one it computes."""
import pytest

from apsp_kernels.algorithms.gpu.multi import model as M


def test_calibrated_on_two_gpus_it_predicts_four_within_two_percent():
    c = M.check(calibrate_on=2)
    assert c.predicted(2) == pytest.approx(c.measured[2], rel=1e-9)
    assert c.predicted(4) == pytest.approx(c.measured[4], rel=0.02)
    assert 20 < c.gbps < 2000                     # a bandwidth, not a fudge factor gone wild


def test_a_model_that_ignored_the_transfer_would_miss():
    """The check can fail: T1 / P alone is off by more than the tolerance the model meets."""
    c = M.check()
    assert abs(c.one_gpu_s / 2 - c.measured[2]) / c.measured[2] > 0.005
    assert M.predict_s(c.n, 4, c.one_gpu_s, c.gbps / 10) > 1.1 * c.measured[4]


def test_bytes_a_round():
    assert M.bytes_a_round(65536, 1) == 0
    assert M.bytes_a_round(65536, 4) == 128 * 65536 * 4
    assert M.bytes_a_round(65536, 64, "grid") == 2 * 128 * 8192 * 4 == M.bytes_a_round(65536, 64) // 4
    with pytest.raises(ValueError, match="layout"):
        M.bytes_a_round(10, 2, "cube")


def test_the_docs_table_is_current():
    assert M.main(["--check"]) == 0
