"""A real networkx graph (the optional extra ``nx``) gives networkx's own distances.  The stub in
test_api.py covers the interface without networkx; this checks it against the library itself."""
import numpy as np
import pytest

nx = pytest.importorskip("networkx", reason="networkx not installed (pip install -e '.[nx]')")

import apsp_kernels as ak  # noqa: E402


@pytest.mark.parametrize("directed", [True, False])
def test_networkx_graph_matches_networkx(directed):
    G = nx.gnm_random_graph(40, 120, seed=3, directed=directed)
    rng = np.random.default_rng(3)
    for u, v in G.edges:
        G.edges[u, v]["weight"] = int(rng.integers(1, 50))
    dist = ak.shortest_paths(G)
    nodes = list(G.nodes)
    want = np.full((len(nodes), len(nodes)), np.inf)
    for s, row in nx.all_pairs_dijkstra_path_length(G):
        for t, d in row.items():
            want[nodes.index(s), nodes.index(t)] = d
    np.testing.assert_array_equal(dist, want)
