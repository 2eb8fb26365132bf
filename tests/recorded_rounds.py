"""Interleaved rounds recorded on the device (``scripts/e2e_scatter_probe.py`` rows) as cases for auto's picks: each
graph's named codes' medians per result, and the check that auto's pick by today's rules is within the structure
suite's bound of the fastest of them."""
import pandas as pd

from apsp_kernels import choice, paths
from apsp_kernels.io import suite_graphs as SG
from apsp_kernels.measure import rounds
from apsp_kernels.structure_suite import within_bound
from apsp_kernels.study.seeds.tuned.suite import KIND


def medians(*files):
    """(graph, n, result, {code: median ms}) per graph and mode of ``files`` (paths under the recorded folder);
    auto's own rows left out."""
    out = []
    for f in files:
        df = pd.read_csv(paths.RECORDED / f)
        med = rounds.medians(df[df.code != "auto"])
        out += [(g, int(n), KIND[m], r.dropna().to_dict()) for (g, n, m), r in med.iterrows()]
    return out


def assert_pick_within(gname, n, result, medians):
    """auto's pick on the graph (a bundled network at its own n) is a code measured there, within the bound."""
    pick = choice.choose(SG.make(gname, n, seed=n), gpu=True, free_bytes=140e9, result=result).algorithm.name
    assert pick in medians, (pick, medians)
    assert within_bound(medians[pick], min(medians.values())), (pick, medians)
