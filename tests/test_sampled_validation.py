"""measurements.sampled_validation: the sampled estimate against full runs of the same job."""
import numpy as np
import pandas as pd

from apsp_kernels.study.seeds.kemp import load as M


def _rows(graph, process, estimate, ms):
    return dict(algorithm="fw_sequential", variant="None", graph=graph, n=2048, params="{}", estimate=estimate,
                status="ok", verified=True if estimate == "measured" else None, wall_ms=ms, device="cpu", process=process)


def test_graphs_are_not_pooled_and_pairs_stay_inside_a_process():
    rows = []
    for p, (full, samp) in enumerate([(800, 760), (1000, 950), (900, 860)]):
        rows += [_rows("kemp", p, "measured", full), _rows("kemp", p, "sampled", samp)]
    rows += [_rows("dense", 0, "measured", 4000)]          # another graph: not the same job
    v = M.sampled_validation(pd.DataFrame(rows))
    assert len(v) == 1 and v["graph"].iloc[0] == "kemp"
    r = v.iloc[0]
    assert np.isclose(r["full_median_ms"], 900) and np.isclose(r["sampled_median_ms"], 860)
    assert r["paired_processes"] == 3 and np.isclose(r["paired_median"], 0.95) and r["within_spread"]
    assert np.isclose(r["paired_min"], 0.95) and np.isclose(r["paired_max"], 860 / 900)
