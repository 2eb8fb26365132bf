"""Real graphs from SNAP, fetched with pooch and checked.

Lookup order for a data set file:
1. the directory in ``$APSP_DATA_DIR`` (for offline machines: put the file there);
2. pooch's cache (``$APSP_CACHE_DIR`` or pooch's default), downloading if absent.

Each file's sha256 is checked when the registry pins one.  The SNAP files have no
published hashes and none was available when this was written (no network on the
build machines), so their entries carry ``sha256: null`` and are checked by their
published vertex and edge counts instead; :func:`fetch` prints the hash it saw so
that it can be pinned.  A pinned hash that does not match raises
:class:`DatasetError` and the file is not used.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from .formats import read_snap
from ..core.graph import Graph, GraphError


class DatasetError(GraphError):
    pass


@dataclass(frozen=True)
class Dataset:
    name: str
    url: str
    filename: str
    sha256: str | None
    vertices: int
    edges: int          # as SNAP counts them (undirected pairs for ego-Facebook)
    undirected: bool
    weight_column: int | None = None
    unweighted: bool = False         # extra columns present and deliberately ignored (weight 1)


REGISTRY = {
    "ego-facebook": Dataset("ego-facebook", "https://snap.stanford.edu/data/facebook_combined.txt.gz",
                            "facebook_combined.txt.gz", None, 4039, 88234, undirected=True),
    # Bitcoin-OTC's ratings are -10..10; we use the unweighted structure (weight 1).
    "bitcoin-otc": Dataset("bitcoin-otc", "https://snap.stanford.edu/data/soc-sign-bitcoinotc.csv.gz",
                           "soc-sign-bitcoinotc.csv.gz", None, 5881, 35592, undirected=False, unweighted=True),
    # Seed 001's BFS/SSSP graphs 3 and 4 (apsp_kernels.io.catalogue makes them undirected)
    "slashdot": Dataset("slashdot", "https://snap.stanford.edu/data/soc-Slashdot0902.txt.gz",
                        "soc-Slashdot0902.txt.gz", None, 82168, 948464, undirected=False),
    "as-skitter": Dataset("as-skitter", "https://snap.stanford.edu/data/as-skitter.txt.gz",
                          "as-skitter.txt.gz", None, 1696415, 11095298, undirected=True),
}


def sha256_of(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _check(ds: Dataset, path: Path, expected_sha=None):
    want = expected_sha if expected_sha is not None else ds.sha256
    if want is not None:
        got = sha256_of(path)
        if got != want:
            raise DatasetError(f"{path}: sha256 {got} does not match the pinned {want} for {ds.name}; "
                               "the file is corrupt or changed upstream -- delete it and fetch again")


def fetch(name: str, data_dir=None, expected_sha=None) -> Path:
    """Path to the data set's file, from ``$APSP_DATA_DIR`` or downloaded through pooch."""
    if name not in REGISTRY:
        raise KeyError(f"unknown data set {name!r}; known: {sorted(REGISTRY)}")
    ds = REGISTRY[name]
    local_dir = data_dir or os.environ.get("APSP_DATA_DIR")
    if local_dir:
        p = Path(local_dir) / ds.filename
        if p.exists():
            _check(ds, p, expected_sha)
            return p
    try:
        import pooch
    except ImportError as e:  # pragma: no cover - pooch is a dependency
        raise DatasetError("pooch is not installed") from e
    known = expected_sha or ds.sha256
    try:
        path = pooch.retrieve(ds.url, known_hash=f"sha256:{known}" if known else None,
                              fname=ds.filename, path=os.environ.get("APSP_CACHE_DIR") or pooch.os_cache("apsp-repro"),
                              progressbar=False)
    except ValueError as e:  # pooch's hash mismatch
        raise DatasetError(f"{ds.filename}: {e}") from None
    except Exception as e:
        raise DatasetError(
            f"could not download {ds.url} ({type(e).__name__}: {e}). Offline? Download it on a machine "
            f"with network and put {ds.filename} in a directory named by APSP_DATA_DIR"
            + (f" (or {local_dir})" if local_dir else "")) from None
    if not known:
        print(f"{ds.filename}: sha256 {sha256_of(path)} (not pinned; checked by vertex/edge counts)")
    return Path(path)


def load(name: str, data_dir=None, expected_sha=None, check_counts=True) -> Graph:
    """A data set as a Graph: the SNAP files of ``REGISTRY`` (fetched), or a road network bundled with the package
    (``roads.BUNDLED``: helsinki-walk, helsinki-drive, bremen-dist, south-seattle-car, seattle-ballard; no download)."""
    from . import roads
    if name in roads.BUNDLED:
        return roads.load(name)
    if name not in REGISTRY:
        raise KeyError(f"unknown data set {name!r}; known: {sorted(REGISTRY) + sorted(roads.BUNDLED)}")
    ds = REGISTRY[name]
    path = fetch(name, data_dir, expected_sha)
    g = read_snap(path, undirected=ds.undirected, weight_column=ds.weight_column, unweighted=ds.unweighted)
    if check_counts:
        m = g.m // 2 if ds.undirected else g.m
        if (g.n, m) != (ds.vertices, ds.edges):
            raise DatasetError(f"{path}: {g.n} vertices / {m} edges, SNAP publishes "
                               f"{ds.vertices} / {ds.edges}; the file is not the expected one")
    return g
