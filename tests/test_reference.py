"""The one cached reference per graph (algorithms.reference): the checksum of scipy's exact distances,
computed once per graph and then read from the cache, which the campaign, the benchmark and the
multi-GPU runs share."""
from apsp_kernels import fletcher64, reference_apsp
import numpy as np
import pytest

from apsp_kernels.algorithms import reference
from apsp_kernels.core import generators as G
from apsp_kernels.study.seeds.kemp import runs as campaign


def test_one_cached_reference_per_graph(tmp_path, monkeypatch):
    monkeypatch.setattr(reference, "CACHE", tmp_path)
    g, h = G.kemp(70, seed=3), G.kemp(70, seed=4)
    assert reference.graph_key(g) != reference.graph_key(h)
    assert reference.reference_checksum(g) == fletcher64(reference_apsp(g))
    assert reference.reference_checksum(h) == fletcher64(reference_apsp(h))
    monkeypatch.setattr(reference, "_exact", lambda *a, **k: (_ for _ in ()).throw(AssertionError("recomputed")))
    assert reference.reference_checksum(G.kemp(70, seed=3)) == fletcher64(reference_apsp(g))    # from the cache
    assert len((tmp_path / reference.CACHE_FILE).read_text().strip("{}\n").splitlines()) == 2


def test_the_campaign_uses_the_same_cache():
    assert campaign.reference_checksum is reference.reference_checksum


@pytest.mark.parametrize("name", ["kemp", "dag", "components", "path"])
@pytest.mark.parametrize("block_words", [1, 7 * 61, 10**9])
def test_the_checksum_made_block_by_block_is_the_whole_matrixs(name, block_words):
    """Rows in blocks of any size (one row; a block that does not divide n; all rows at once), a graph with
    negative weights (Johnson), one with unreachable pairs: the combined checksum is that of the whole matrix."""
    from apsp_kernels.io import suite_graphs as SG
    g = SG.make(name, 61 if name != "components" else 128, seed=5)
    whole = reference._exact(g)
    assert whole.shape == (g.n, g.n) and whole.dtype == np.int32
    assert reference.exact_checksum(g, block_words) == fletcher64(whole) == fletcher64(reference_apsp(g))


def test_a_committed_checksum_is_read_where_the_cache_has_none(tmp_path, monkeypatch):
    monkeypatch.setattr(reference, "CACHE", tmp_path / "empty")
    committed = tmp_path / "committed.json"
    g = G.kemp(40, seed=9)
    committed.write_text(f'{{"{reference.graph_key(g)}": "00000000000000ff"}}')
    monkeypatch.setattr(reference, "COMMITTED", committed)
    monkeypatch.setattr(reference, "_exact", lambda *a, **k: (_ for _ in ()).throw(AssertionError("recomputed")))
    assert reference.reference_checksum(g) == 0xff


def test_the_committed_checksums_are_of_the_suites_large_graphs():
    """Each committed key is a graph the structure suite makes (its generators unchanged since the checksum), and
    the ones the plans at 32,768 and 65,536 (every class of the suite there) and the deep rows of 36,000-60,000 need are there."""
    import json
    from apsp_kernels.io import suite_graphs as SG
    keys = set(json.loads(reference.COMMITTED.read_text()))
    deep = [(c, n) for c in ("path", "ring", "lollipop") for n in (40000, 48000, 56000)] + [("path", 36000),
                                                                                          ("path", 60000)]
    made = {reference.graph_key(SG.make(name, n, seed=n)) for name, n in
            [(c, 32768) for c in ("ring", "lollipop", "path", "grid", "grid3d", "knn")]
            + [(c, 65536) for c in ("grid", "knn", "path", "grid3d", "ring", "lollipop")] + deep}
    assert keys == made
