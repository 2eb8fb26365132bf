"""``method="auto"`` sees structure: the hop-depth probe scales a frontier-sweep code's predicted
time, so that auto picks a code within 1.25x of the fastest verified one on every graph of the structure suite,
held here on the suite's recorded device rows (``python3 -m apsp_kernels.structure_suite``)."""
import pandas as pd
import pytest

from apsp_kernels import api, costs, paths
from apsp_kernels.algorithms import registry
from apsp_kernels.core import structure
from apsp_kernels.io import suite_graphs as SG

H100 = dict(gpu=True, free_bytes=80e9)      # the recorded rows' device, whatever this machine has
TOLERANCE = 1.25                            # the bound, set before any suite row was measured


def _suite_file():
    found = sorted((paths.RECORDED / "benchmarks").glob("*-structure.csv"))
    assert found, "no recorded structure-suite rows (data/results/benchmarks/*-structure.csv)"
    return found[-1]


def test_the_probe_scales_only_codes_whose_sweeps_grow_with_depth():
    ring = SG.make("ring", 4096, seed=4096)
    probe = structure.probe(ring)
    assert probe.hop_depth >= 2048 - 1                       # a ring of n both ways: n / 2 hops
    sparse, fw = registry.get("tuned_sparse"), registry.get("tuned_fw")
    flat = costs.predict(sparse, ring)
    deep = costs.predict(sparse, ring, structure=probe)
    assert deep.ms > 100 * flat.ms and "hop depth" in deep.source
    assert costs.predict(fw, ring, structure=probe).ms == costs.predict(fw, ring).ms


@pytest.mark.parametrize("name, n", [("ring", 16384), ("grid", 16384), ("helsinki-walk", None)])
def test_deep_graphs_leave_the_sweep_code(name, n):
    """The issue's measurements (its table of 2026-11-25): on deep graphs tuned_sparse ran 3.4x-84x slower than
    tuned_fw, and degree alone picked it.  With the probe auto leaves it."""
    g = SG.make(name, n, seed=n or 0)
    assert api.choose(g, **H100).algorithm.name != "tuned_sparse"
    deep = costs.predict(registry.get("tuned_sparse"), g, structure=structure.probe(g))
    assert deep.ms > costs.predict(registry.get("tuned_fw"), g).ms


def test_a_shallow_graph_never_speeds_a_sweep_code_up():
    ba = SG.make("ba", 4096, seed=4096)
    sparse = registry.get("tuned_sparse")
    probed, unprobed = costs.predict(sparse, ba, structure=structure.probe(ba)), costs.predict(sparse, ba)
    assert probed.ms >= unprobed.ms and unprobed.floor and not probed.floor     # unprobed: a bound from below


# Measured misses of the kernel bound, each named with what was measured (the bound does not move; a strict xfail
# fails once auto gets it right): Barabasi-Albert at 4096, where auto takes tuned_frontier (11.8 ms of kernel
# against tuned_fw's 7.8, 1.52x; the rate measured on Kemp's graphs underestimates it, 6.8 ms predicted), though
# end to end it is the fastest in float64 (18.6 ms against 19.6) and within the end-to-end bound in every mode.
MISSES = {("ba", 4096)}
# Codes auto picks that this suite file (recorded before they existed) did not time: held to the bound on their own
# rows elsewhere.
CHECKED_ELSEWHERE = {"tuned_deep": "tests/test_auto_deep.py (the deep graphs' rule, on its H200 check rows)"}


def _untimed(pick, timed):
    if pick not in timed and pick in CHECKED_ELSEWHERE:
        pytest.skip(f"auto picks {pick}, which this suite file did not time; checked in {CHECKED_ELSEWHERE[pick]}")


def _suite_cases():
    import pandas as pd
    try:
        df = pd.read_csv(_suite_file())
    except AssertionError:
        return [("no rows", 0)]
    return [pytest.param(g, int(n), marks=pytest.mark.xfail(strict=True, reason="a measured miss")) if (g, int(n)) in MISSES
            else (g, int(n)) for g, n in df[["graph", "n"]].drop_duplicates().itertuples(index=False)]


def test_the_suite_covers_every_class_at_both_sizes():
    df = pd.read_csv(_suite_file())
    have = set(map(tuple, df[["graph", "n"]].drop_duplicates().itertuples(index=False)))
    assert {(c, n) for c in ("kemp", "grid", "ring", "ba") for n in (4096, 16384)} <= have
    assert {"complete", *SG.ROADS} <= {g for g, _ in have}


@pytest.mark.parametrize("gname, n", _suite_cases())
def test_auto_is_within_its_bound_on_every_recorded_suite_graph(gname, n):
    df = pd.read_csv(_suite_file())
    for (gname, n), t in df[(df.graph == gname) & (df.n == n)].groupby(["graph", "n"], sort=False):
        gpu = t[(t.kind == "gpu") & (t.verified.astype(str) == "True")]
        assert not gpu.empty, (gname, n)
        g = SG.make(gname, int(n) if gname not in SG.ROADS else None, seed=int(n) if gname not in SG.ROADS else 0)
        assert g.n == int(n) and g.m == int(t.m.iloc[0]), (gname, n)          # the same graph as on the device
        pick = api.choose(g, **H100).algorithm.name
        best = gpu.kernel_ms.min()
        timed = gpu.set_index("algorithm").kernel_ms
        _untimed(pick, timed.index)
        assert pick in timed.index, (gname, n, pick)
        assert timed[pick] <= TOLERANCE * best, f"{gname} n={n}: auto picks {pick} ({timed[pick]:.1f} ms), fastest {best:.1f} ms"


MODES = ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")


@pytest.mark.parametrize("gname, n", [c.values if hasattr(c, "values") else c for c in _suite_cases()])
def test_autos_pick_is_within_the_end_to_end_bound_in_every_mode(gname, n):
    """The bound as users meet it: the picked code's end-to-end time (float64 to the host, int32, left on the
    device) within 1.25x + 2 ms of the fastest verified code's in the same mode (structure_suite.BOUND)."""
    from apsp_kernels.structure_suite import within_bound
    df = pd.read_csv(_suite_file())
    t = df[(df.graph == gname) & (df.n == n)]
    gpu = t[(t.kind == "gpu") & (t.verified.astype(str) == "True")].set_index("algorithm")
    g = SG.make(gname, int(n) if gname not in SG.ROADS else None, seed=int(n) if gname not in SG.ROADS else 0)
    pick = api.choose(g, **H100).algorithm.name
    _untimed(pick, gpu.index)
    for col in MODES:
        assert within_bound(gpu.loc[pick, col], gpu[col].min()), (gname, n, pick, col, gpu[col].idxmin())
