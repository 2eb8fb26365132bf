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


def test_an_inf_or_nan_weight_is_no_edge_and_a_negative_self_loop_a_cycle():
    """As scipy reads nx.to_scipy_sparse_array (stored inf and NaN: no edge); a negative self-loop raises, as the
    same graph as a matrix does."""
    from scipy.sparse import csgraph
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, np.inf), (1, 2, 2.5), (2, 0, float("nan")), (0, 2, 4.0), (2, 1, 1)])
    want = csgraph.shortest_path(nx.to_scipy_sparse_array(G, nodelist=list(G.nodes)))
    np.testing.assert_array_equal(ak.shortest_paths(G), want)
    G.add_edge(1, 1, weight=-1)
    with pytest.raises(ak.NegativeCycleError, match="self-loop of weight -1"):
        ak.shortest_paths(G)
