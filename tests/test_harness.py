import numpy as np
import pandas as pd

from apsp_kernels.measure import harness
from apsp_kernels import reference_apsp, fletcher64
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G


def test_measure_records_and_verifies():
    g = G.kemp(64, seed=1)
    ref = reference_apsp(g)
    recs = harness.measure(registry.get("fw_sequential"), g, repeats=3, reference=ref)
    assert len(recs) == 3 and all(r["verified"] and r["status"] == "ok" for r in recs)
    recs = harness.measure(registry.get("fw_sequential"), g, repeats=1, reference=fletcher64(ref))
    assert recs[0]["verified"]


def test_wrong_result_is_recorded_as_failed_and_gets_no_time():
    from apsp_kernels.study.seeds.kemp import load as M
    g = G.kemp(64, seed=1)
    wrong = reference_apsp(g)
    wrong[5, 7] += 1
    recs = harness.measure(registry.get("fw_sequential"), g, repeats=2, reference=wrong)
    assert all(r["status"] == "failed_verification" for r in recs)
    df = pd.DataFrame(recs).assign(graph="kemp 2-6", process=0)
    s = M.summary(df)
    assert not s["ok"].iloc[0] and np.isnan(s["median"].iloc[0])


def test_errors_do_not_stop_the_sweep():
    algo = registry.get("dijkstra_cpu")
    from apsp_kernels import Graph
    g = Graph.from_edges(3, [0, 1], [1, 2], [-1, 2])
    recs = harness.measure(algo, g, repeats=2)
    assert recs[0]["status"] == "error" and "non-negative" in recs[0]["error"]
