"""The data sets (SNAP ego-Facebook, Bitcoin-OTC): local copies, pinned checksums and counts, and
what a user is told when the download fails.  Tested with small local files in SNAP's format."""
import gzip

import pytest

from apsp_kernels.io import datasets


def _fake_facebook(tmp_path):
    # a small file in SNAP's ego-Facebook format (undirected pairs, space separated)
    p = tmp_path / "facebook_combined.txt.gz"
    with gzip.open(p, "wt") as f:
        f.write("0 1\n0 2\n1 2\n2 3\n")
    return p


def test_dataset_from_local_dir(tmp_path, monkeypatch):
    _fake_facebook(tmp_path)
    monkeypatch.setenv("APSP_DATA_DIR", str(tmp_path))
    g = datasets.load("ego-facebook", check_counts=False)
    assert g.n == 4 and g.m == 8
    with pytest.raises(datasets.DatasetError, match="SNAP publishes 4039"):
        datasets.load("ego-facebook")  # the real counts are checked


def test_dataset_checksum_mismatch(tmp_path, monkeypatch):
    _fake_facebook(tmp_path)
    monkeypatch.setenv("APSP_DATA_DIR", str(tmp_path))
    with pytest.raises(datasets.DatasetError, match="does not match the pinned"):
        datasets.fetch("ego-facebook", expected_sha="0" * 64)


def test_dataset_download_failure_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("APSP_DATA_DIR", str(tmp_path / "empty"))
    monkeypatch.setenv("APSP_CACHE_DIR", str(tmp_path / "cache"))
    import pooch
    def boom(*a, **k):
        raise OSError("network unreachable")
    monkeypatch.setattr(pooch, "retrieve", boom)
    with pytest.raises(datasets.DatasetError, match="APSP_DATA_DIR"):
        datasets.fetch("ego-facebook")


def test_bitcoin_otc_extra_columns_are_ignored_by_choice(tmp_path, monkeypatch):
    # SOURCE,TARGET,RATING,TIME: a SNAP line with extra columns is refused unless the data set says
    # what they are; Bitcoin-OTC's entry says "unweighted" (ratings dropped, weight 1)
    with gzip.open(tmp_path / "soc-sign-bitcoinotc.csv.gz", "wt") as f:
        f.write("6,2,4,1289241911.72836\n6,5,2,1289241941.53378\n1,15,1,1289243140.39049\n")
    monkeypatch.setenv("APSP_DATA_DIR", str(tmp_path))
    g = datasets.load("bitcoin-otc", check_counts=False)
    assert g.ids.tolist() == [1, 2, 5, 6, 15] and g.m == 3 and set(g.weights.tolist()) == {1}
