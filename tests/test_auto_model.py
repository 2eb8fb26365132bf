"""What ``method="auto"``'s choice costs on a first call, on the CPU: data/auto.yaml (the model's inputs besides
the benchmark rows) against the recorded rows and the probe it replaces, no benchmark graph generated and no pandas
imported to choose, and the probe's BFS levels equal to scipy's unweighted shortest paths."""
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from apsp_kernels import api, costs, paths
from apsp_kernels.core import generators, structure
from apsp_kernels.io import suite_graphs as SG

REC = (paths.RECORDED / "benchmarks",)
H100 = dict(gpu=True, free_bytes=80e9, benchmarks=REC)
HUBS = paths.RECORDED / "device-logs" / "20261127-structure-hubs" / "NVIDIA_H100_80GB_HBM3-2026-11-27-structure-hubs.csv"
SUITE_26 = paths.RECORDED / "benchmarks" / "NVIDIA_H100_80GB_HBM3-2026-11-26-structure.csv"


@pytest.fixture(autouse=True)
def fresh_model():
    costs.table.cache_clear()
    costs.model.cache_clear()
    costs._bench_graph_depth.cache_clear()
    yield
    costs.table.cache_clear()
    costs.model.cache_clear()
    costs._bench_graph_depth.cache_clear()


@pytest.mark.parametrize("n", [256, 512, 1024, 2048, 4096, 8192, 16384])
def test_the_written_bench_depths_are_the_probes(n):
    assert costs.model()["bench_hop_depth"][n] == structure.probe(generators.kemp(n, seed=n)).hop_depth


HEAVY = paths.RECORDED / "device-logs" / "h200-20261130-0925-frontier-heavy" / "frontier_heavy.csv"


def _per_walk(rows, code):
    """Per-walk seconds of ``code``'s verified kernel rows on the hub and Barabasi-Albert graphs, by its hub count."""
    out = []
    for r in rows[(rows.algorithm == code) & (rows.verified == True) & rows.graph.isin(["hub", "ba"])].itertuples():  # noqa: E712
        g = SG.make(r.graph, int(r.n), seed=int(r.n))
        d = int(np.diff(g.indptr).max())
        out.append((r.graph, int(r.n), r.kernel_ms / 1e3 / (-(-int(r.n) // 512) * int(r.hop_depth) * d)))
    return out


@pytest.mark.skipif(not HUBS.exists(), reason="no recorded hub rows")
def test_the_hub_units_are_the_least_of_the_recorded_rows():
    """tuned_sparse: the least over the hub and Barabasi-Albert rows of both recorded suites; tuned_frontier (the
    block shares a hub's edges: n x d / 128 a solve): the least over the hub rows of the paired probe of its kernel
    (medians of its rounds; on Barabasi-Albert its rate, not its hub, sets the time)."""
    from apsp_kernels.algorithms.gpu.tuned import frontier as F
    rows = pd.concat([pd.read_csv(HUBS), pd.read_csv(SUITE_26)], ignore_index=True)
    unit = costs.model()["hub_unit"]
    sparse = _per_walk(rows, "tuned_sparse")
    assert len(sparse) == 6
    assert unit["tuned_sparse"] == pytest.approx(min(x[2] for x in sparse), rel=0.01)
    probe = pd.read_csv(HEAVY)
    hub = probe[(probe.graph == "hub") & (probe.variant == "heavy")].groupby(["n", "max_out_degree"]).kernel_ms.median()
    per = [ms / 1e3 / (n * d / F.THREADS) for (n, d), ms in hub.items()]
    assert len(per) == 2 and unit["tuned_frontier"] == pytest.approx(min(per), rel=0.01)


def test_a_choice_never_generates_a_benchmark_graph(monkeypatch):
    """The sweep codes' rows lack the hop depth; the depth of the graph they were measured on is read from
    data/auto.yaml, not generated and probed (~65 ms of a first choice at n = 16,384 on two cores)."""
    def refuse(*a, **k):
        raise AssertionError("generated a benchmark graph to choose")
    g = SG.make("kemp", 16384, seed=16384)            # made before kemp is refused
    monkeypatch.setattr(generators, "kemp", refuse)
    c = api.choose(g, **H100)
    assert c.algorithm.name == "tuned_sparse" and "hop depth 12" in c.reason


def test_an_unwritten_size_is_still_probed(monkeypatch):
    made = []
    real = generators.kemp
    monkeypatch.setattr(generators, "kemp", lambda n, seed=0: made.append(n) or real(n, seed=seed))
    assert costs._bench_graph_depth(300) == structure.probe(real(300, seed=300)).hop_depth and made == [300]


def test_choosing_imports_no_pandas():
    """pandas' import (~150 ms) was in every process that imported the package: the cost rows are plain dicts."""
    code = ("import sys; from apsp_kernels import api, paths; from apsp_kernels.io import suite_graphs as SG; "
            "g = SG.make('ba', 1024, seed=1); "
            "c = api.choose(g, gpu=True, free_bytes=80e9, benchmarks=(paths.RECORDED / 'benchmarks',)); "
            "print(c.algorithm.name, 'pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=paths.ROOT).stdout.split()
    assert out[1] == "False", out


@pytest.mark.parametrize("name", ["kemp", "ba", "hub", "grid", "ring", "complete"])
def test_the_probes_bfs_levels_are_scipys(name):
    """Levels by BFS order and pointer jumping, equal to scipy's unweighted Dijkstra (the probe's former form),
    unreached vertices included (inf)."""
    g = SG.make(name, 512, seed=7)
    a = sp.csr_matrix((np.ones(g.m, np.float64), g.indices, g.indptr), shape=(g.n, g.n))
    src = [0, 100, 511]
    want = np.atleast_2d(csgraph.shortest_path(a, method="D", unweighted=True, directed=True, indices=src))
    assert np.array_equal(structure._levels(a, src), want)


def test_the_probes_levels_where_some_are_unreached():
    a = sp.csr_matrix((np.ones(3), ([0, 1, 3], [1, 2, 0])), shape=(5, 5))      # 3 -> 0 -> 1 -> 2, 4 alone
    got = structure._levels(a, [3, 4])
    assert got.tolist() == [[1, 2, 3, 0, np.inf], [np.inf] * 4 + [0]]


@pytest.mark.parametrize("name, n", [("complete", 2048), ("hub", 4096), ("ba", 4096), ("kemp", 16384),
                                     ("helsinki-drive", None)])
def test_choosing_compiles_and_launches_nothing(name, n, monkeypatch):
    """The choice is host arithmetic over the rows: no kernel of any code (chosen or not) is compiled or launched
    to choose, so a first call compiles only the code it runs."""
    from apsp_kernels.algorithms.gpu import runtime

    def refuse(*a, **k):
        raise AssertionError("a kernel was compiled or launched to choose")
    for f in ("module", "kernel", "launch", "compile_options"):
        monkeypatch.setattr(runtime, f, refuse)
    g = SG.make(name, n, seed=n or 0)
    assert api.choose(g, **H100).algorithm.device == "gpu"
