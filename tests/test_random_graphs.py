"""Seed 001's graph classes (small sizes only: the CI machine has 2 cores): exact n and m, simple
and undirected, seeded, the degree class of each generator, and the catalogue of the seed's
graphs (real file where one is given, a stand-in otherwise)."""
import gzip

import numpy as np
import pytest

from apsp_kernels import Graph, GraphError, MAX_PATH_WEIGHT
from apsp_kernels.io import catalogue, datasets
from apsp_kernels.core import random_graphs as R

MAKERS = {"uniform": R.uniform, "power_law": R.power_law, "geometric": R.geometric}


def _pairs(g):
    s, d, _ = g.edges()
    return s.astype(np.int64) * g.n + d, d.astype(np.int64) * g.n + s


@pytest.mark.parametrize("kind", MAKERS)
@pytest.mark.parametrize("n, m", [(2, 1), (50, 0), (300, 1200), (400, 30000), (2000, 16000)])
def test_exact_size_simple_and_undirected(kind, n, m):
    g = MAKERS[kind](n, m, seed=5)
    assert g.n == n and g.m == 2 * m
    fwd, back = _pairs(g)
    assert np.array_equal(np.sort(fwd), np.sort(back))                 # both directions, same weight
    s, d, w = g.edges()
    assert not np.any(s == d) and np.unique(fwd).size == fwd.size        # no loops, no repeats
    order_f, order_b = np.argsort(fwd), np.argsort(back)
    assert np.array_equal(w[order_f], w[order_b])
    assert (w >= 1).all() and (w <= 1000).all()
    assert g.meta["generator"] == kind and g.meta["m"] == m


@pytest.mark.parametrize("kind", MAKERS)
def test_seeded(kind):
    a, b, c = (MAKERS[kind](500, 2000, seed=s) for s in (1, 1, 2))
    assert a == b and a != c


def test_fast_csr_is_the_graph_from_edges_builds():
    for g in (R.uniform(200, 5000, seed=1), R.power_law(300, 900, seed=2), R.geometric(300, 900, seed=3)):
        assert g == Graph.from_edges(g.n, *g.edges())


def test_weight_cap_keeps_paths_below_inf():
    assert R.weight_cap(2700) == 1000 and R.weight_cap(16_777_214) == 32
    assert (16_777_214 - 1) * R.weight_cap(16_777_214) <= MAX_PATH_WEIGHT


def test_degree_classes():
    n, m = 3000, 24000                                     # average degree 16
    deg = {k: np.diff(f(n, m, seed=7).indptr) for k, f in MAKERS.items()}
    assert deg["power_law"].max() > 8 * deg["power_law"].mean()       # hubs: a heavy tail
    top = np.sort(deg["power_law"])[::-1]
    assert top[: n // 100].sum() > 0.05 * 2 * m                       # the top 1% hold over 5% of the ends
    for k in ("uniform", "geometric"):                                # Poisson-like: no hubs
        assert deg[k].max() < 3 * deg[k].mean()
    dense = np.diff(R.uniform(400, 40000, seed=1).indptr)            # half of all pairs
    assert dense.min() > 0.7 * dense.mean()


def test_geometric_joins_the_closest_pairs():
    g = R.geometric(800, 4000, seed=3)
    r = g.meta["radius"]
    pts = np.random.Generator(np.random.MT19937(3)).random((800, 2))   # the generator's own draw
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    iu = np.triu_indices(800, 1)
    within = np.count_nonzero(dist[iu] <= r)
    assert within == 4000                                            # exactly the pairs within the radius
    s, d, w = g.edges()
    assert np.all(dist[s, d] <= r) and w.max() <= 1000


def test_bad_sizes():
    for f in MAKERS.values():
        with pytest.raises(GraphError):
            f(10, 46)
    with pytest.raises(GraphError):
        R.power_law(100, 200, gamma=2.0)


# ------------------------------------------------------------------ catalogue
def test_catalogue_lists_the_seeds_graphs():
    apsp = [e.name for e in catalogue.for_problem("apsp")]
    bfs = [e.name for e in catalogue.for_problem("bfs")]
    assert apsp == ["random-2700", "ego-facebook", "gene-4412", "bitcoin-otc", "random-7500"]
    assert bfs == ["random-2700", "gene-human", "slashdot", "as-skitter", "geometric"]
    for e in catalogue.SEED001:
        assert e.generated_by_seed == (e.url is None)
        assert e.dataset is None or e.dataset in datasets.REGISTRY
    rows = catalogue.table()
    assert len(rows) == 9 and all("stand-in" in r["here"] or "seed" in r["here"] for r in rows)


@pytest.mark.parametrize("name", ["ego-facebook", "bitcoin-otc", "random-2700", "slashdot", "gene-human",
                                  "as-skitter", "geometric"])
def test_small_stand_ins_keep_the_class(name, monkeypatch):
    monkeypatch.delenv("APSP_DATA_DIR", raising=False)
    e = catalogue.entry(name)
    scale = 500 / e.n
    g = catalogue.graph(name, seed=1, scale=scale)
    n, m = catalogue.scaled_size(e, scale)
    assert (g.n, g.m) == (n, 2 * m) and n == 500
    if e.dense:
        assert m / (n * (n - 1) / 2) == pytest.approx(e.m / (e.n * (e.n - 1) / 2), rel=0.05)
    else:
        assert 2 * m / n == pytest.approx(2 * e.m / e.n, rel=0.05)
    assert g.meta["origin"] == ("generated as in the seed" if e.generated_by_seed else "stand-in")
    assert g.meta["catalogue"] == name


def test_full_size_apsp_stand_in():
    g = catalogue.graph("ego-facebook", seed=0, real=False)
    assert (g.n, g.m // 2) == (4039, 88234) and g.meta["origin"] == "stand-in"
    u = catalogue.graph("ego-facebook", seed=0, real=False, weights="unit")
    assert (u.weights == 1).all() and u.m == g.m


def test_real_file_is_used_where_present(tmp_path, monkeypatch):
    # a small file in SNAP's Bitcoin-OTC format (directed, "src,dst,rating,time"), one pair both ways
    with gzip.open(tmp_path / "soc-sign-bitcoinotc.csv.gz", "wt") as f:
        f.write("6,2,4,1289241911\n2,6,1,1289241912\n6,5,2,1289241941\n1,15,1,1289243140\n15,1,1,1\n")
    monkeypatch.setenv("APSP_DATA_DIR", str(tmp_path))
    g = catalogue.graph("bitcoin-otc", seed=2)
    assert g.meta["origin"] == "real file" and (g.n, g.m) == (5, 6)          # 3 undirected pairs
    s, d, w = g.edges()
    assert np.array_equal(np.sort(s.astype(np.int64) * 5 + d), np.sort(d.astype(np.int64) * 5 + s))
    assert (w >= 1).all() and (w <= 1000).all()
    assert catalogue.graph("bitcoin-otc", seed=2, real=False).meta["origin"] == "stand-in"
    with pytest.raises(ValueError, match="no reader"):
        catalogue.graph("gene-4412", real=True)
