"""How the road networks of fast_paths' test maps were derived (run once, by hand; nothing but numpy):

    git clone https://github.com/easbar/fast_paths && cd fast_paths && git checkout cf922636fbafe2e3aa23795e6c5ccb05f8758e66
    python derive_fast_paths.py meta/test_maps/bremen_dist.gr apsp_kernels/io/data/bremen-dist.npz
    python derive_fast_paths.py meta/test_maps/south_seattle_car.gr apsp_kernels/io/data/south-seattle-car.npz
    python derive_fast_paths.py meta/test_maps/graph_ballard.gr apsp_kernels/io/data/seattle-ballard.npz

Each file is one arc a line, ``a u v w`` with vertices numbered from 0 and ``w`` a whole number (Bremen's: the road
distance in metres, "road network extracted from OSM data from Bremen, Germany using the road distance as weight",
its src/lib.rs; South Seattle's and Ballard's: A/B Street's networks, weights as given, their unit not stated), no
header. Sizes and sha256 in README.md. Every arc is kept as given (``directed = True``), vertices 0 .. the largest
number, ids = those numbers (a number no arc names stays an isolated vertex, as fast_paths reads the file); parallel
arcs are kept as stored, and the loader keeps the lightest, as every Graph does."""
import hashlib
import sys
from pathlib import Path

import numpy as np


def derive(gr, out):
    raw = Path(gr).read_bytes()
    rows = [line.split() for line in raw.decode("ascii").splitlines() if line.startswith("a ")]
    a = np.array([[int(x) for x in r[1:4]] for r in rows], np.int64)
    n = int(a[:, :2].max()) + 1
    assert a[:, 2].min() >= 0 and a[:, 2].max() < 2**31
    np.savez_compressed(out, ids=np.arange(n, dtype=np.int64), src=a[:, 0].astype(np.int32),
                        dst=a[:, 1].astype(np.int32), w=a[:, 2].astype(np.int32), directed=np.bool_(True))
    print(f"{gr}: {len(raw):,} bytes, sha256 {hashlib.sha256(raw).hexdigest()}, {n} vertices, {len(a)} arcs")


if __name__ == "__main__":
    derive(sys.argv[1], sys.argv[2])
