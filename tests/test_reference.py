"""The one cached reference per graph (algorithms.reference): the checksum of scipy's exact distances,
computed once per graph and then read from the cache, which the campaign, the benchmark and the
multi-GPU runs share."""
from apsp_kernels import fletcher64, reference_apsp
from apsp_kernels.algorithms import cpu, reference
from apsp_kernels.core import generators as G
from apsp_kernels.study.seeds.kemp import runs as campaign


def test_one_cached_reference_per_graph(tmp_path, monkeypatch):
    monkeypatch.setattr(reference, "CACHE", tmp_path)
    g, h = G.kemp(70, seed=3), G.kemp(70, seed=4)
    assert reference.graph_key(g) != reference.graph_key(h)
    assert reference.reference_checksum(g) == fletcher64(reference_apsp(g))
    assert reference.reference_checksum(h) == fletcher64(reference_apsp(h))
    monkeypatch.setattr(cpu, "dijkstra_apsp", lambda *a, **k: (_ for _ in ()).throw(AssertionError("recomputed")))
    assert reference.reference_checksum(G.kemp(70, seed=3)) == fletcher64(reference_apsp(g))    # from the cache
    assert len((tmp_path / reference.CACHE_FILE).read_text().strip("{}\n").splitlines()) == 2


def test_the_campaign_uses_the_same_cache():
    assert campaign.reference_checksum is reference.reference_checksum
