"""auto's rule handing deep graphs of many edges a vertex below 10,000 vertices from tuned_frontier to tuned_fw
(``frontier_rounds_choice``): what it asks, and every recorded corridor row below 10,000 it was set from."""
import pytest

from apsp_kernels import choice, elimination_choice as E, frontier_rounds_choice as F, paths
from apsp_kernels.algorithms import registry
from apsp_kernels.io import suite_graphs as SG
from apsp_kernels.measure import rounds
from apsp_kernels.structure_suite import within_bound

FR, FW = registry.get("tuned_frontier"), registry.get("tuned_fw")
ROWS = ("elimination/NVIDIA_H200-2026-11-30-corridor-sweep.csv", "solver/NVIDIA_H200-2026-11-30-corridors-check.csv",
        "solver/NVIDIA_H200-2026-11-30-denser-check.csv")
RESULT = {"e2e_ms": "host", "e2e_int32_ms": "int32", "e2e_device_ms": "device"}
CODES = ("tuned_elimination", "tuned_frontier", "tuned_fw")


def test_it_plays_its_roles():
    assert F.target() is FW and registry.by_role(F.FROM) is FR


def test_a_deep_corridor_goes_to_tuned_fw_and_says_why():
    g = SG.make("corridor-24", 7000, seed=7000)                  # depth 301 = 3.6 sqrt(n)
    to, why = F.instead(g, FR, "device")
    assert to is FW and "3.60 sqrt(n) > 2 sqrt(n)" in why and "x 1.80" in why
    assert choice.choose(g, gpu=True, free_bytes=100e9, result="host").algorithm is FW


def test_it_says_no_unless_every_condition_holds(monkeypatch):
    deep = SG.make("corridor-24", 7000, seed=7000)
    assert F.instead(deep, FR, None) is None                              # rows, not all pairs
    assert F.instead(deep, registry.get("tuned_sparse"), "host") is None  # only in tuned_frontier's place
    assert F.instead(deep, FR, "host", fits=lambda code: False) is None
    assert F.instead(SG.make("corridor-8", 6000, seed=6000), FR, "host") is None     # 2.2 sqrt(n): x1.11, not enough
    assert F.instead(SG.make("knn", 4096, seed=4096), FR, "host") is None            # 1.1 sqrt(n): below the knee
    assert F.instead(SG.make("ring", 4096, seed=4096), FR, "host") is None           # m / n 2: not denser
    monkeypatch.setattr(E, "DENSER_FROM", deep.n)                                    # from there the elimination's
    assert F.instead(deep, FR, "host") is None


def _medians():
    med = rounds.medians(rounds.read(ROWS, paths.RECORDED))
    return [(g, int(n), RESULT[mode], tuple(float(r[c]) for c in CODES)) for (g, n, mode), r in med.iterrows()
            if n < E.DENSER_FROM]


@pytest.mark.parametrize("gname, n, result, ms", _medians())
def test_auto_within_the_bound_on_the_corridor_rows_it_was_set_from(gname, n, result, ms):
    """Every corridor below 10,000 vertices of the rows (medians of 3-5 rotated rounds, one H200): auto's pick
    within 1.25x + 2 ms of the fastest of the three codes (five of these 39 were past it without the rule)."""
    g = SG.make(gname, n, seed=n)
    pick = choice.choose(g, gpu=True, free_bytes=100e9, result=result).algorithm.name
    got = dict(zip(CODES, ms))
    assert within_bound(got[pick], min(ms)), (pick, got)
