"""The host CPU's speed recorded in every provenance (measure/host_speed): the fixed graph is the king grid, and the
timed METIS_NodeND is a positive number of ms where pymetis exports METIS's C API, None where it does not."""
import numpy as np
import pytest

from apsp_kernels.algorithms.cpu.elimination import metis_parallel
from apsp_kernels.measure import host_speed, provenance


def test_king_grid_pattern_is_the_grid_with_its_diagonals():
    p = host_speed.king_grid_pattern(5)
    assert (p != p.T).nnz == 0 and p.diagonal().sum() == 0
    degree = np.diff(p.indptr).reshape(5, 5)
    assert degree[0, 0] == 3 and degree[0, 2] == 5 and degree[2, 2] == 8
    assert p[0, 6] and not p[0, 2]                        # (0,0)-(1,1) a diagonal neighbour, (0,0)-(0,2) not one


@pytest.mark.skipif(not metis_parallel.available(), reason="pymetis not installed or exports no METIS C API")
def test_metis_ms_is_timed_and_in_the_provenance():
    ms = host_speed.metis_ms()
    assert isinstance(ms, float) and 0 < ms < 10_000
    assert provenance.collect("test")["host_metis_ms"] == ms              # once a process


def test_without_the_c_api_the_speed_is_none(monkeypatch):
    monkeypatch.setattr(metis_parallel, "available", lambda: False)
    assert host_speed.metis_ms.__wrapped__() is None
