import numpy as np
import pytest

from apsp_kernels import INF, MAX_PATH_WEIGHT, Graph, GraphError, normalise_inf


def test_inf_plus_inf_fits_int32():
    assert int(INF) + int(INF) < 2**31
    assert MAX_PATH_WEIGHT == int(INF) // 2


def test_dedupe_keeps_lightest_and_drops_self_loops():
    g = Graph.from_edges(3, [0, 0, 0, 1, 2], [1, 1, 0, 2, 2], [5, 3, 7, 4, 0])
    d = g.to_dense()
    assert d[0, 1] == 3 and d[1, 2] == 4
    assert list(np.diagonal(d)) == [0, 0, 0]
    assert d[2, 0] == INF and g.m == 2


def test_padding_is_isolated():
    g = Graph.from_edges(2, [0], [1], [7])
    d = g.to_dense(pad_to=4)
    assert d.shape == (4, 4) and d[0, 1] == 7 and d[3, 3] == 0 and d[3, 0] == INF and d[0, 3] == INF


@pytest.mark.parametrize("w, msg", [([1.5], "not an integer"), ([np.nan], "finite"), (["a"], "integers")])
def test_bad_weights_are_refused(w, msg):
    with pytest.raises(GraphError, match=msg):
        Graph.from_edges(2, [0], [1], np.array(w))


def test_inf_limit_bounds_the_longest_simple_path():
    # a bound of (n - 1) x max|w| would refuse a 1000-vertex graph whose only edge weighs 10**6
    Graph.from_edges(1000, [0], [1], [10**6])
    Graph.from_edges(1000, [0], [1], [MAX_PATH_WEIGHT])            # one edge: the path is the edge
    half = MAX_PATH_WEIGHT // 2
    Graph.from_edges(3, [0, 1], [1, 2], [half, half])              # 2 x half <= MAX: accepted
    with pytest.raises(GraphError, match=r"MAX_PATH_WEIGHT.*needs int64.*scipy"):
        Graph.from_edges(3, [0, 1], [1, 2], [half + 1, half + 1])
    # two heavy out-edges of ONE vertex cannot both lie on a simple path: the bound takes one
    Graph.from_edges(3, [0, 0], [1, 2], [MAX_PATH_WEIGHT, -MAX_PATH_WEIGHT])
    with pytest.raises(GraphError, match="MAX_PATH_WEIGHT"):
        Graph.from_edges(2, [0], [1], [MAX_PATH_WEIGHT + 1])


def test_negative_weights_can_be_refused():
    with pytest.raises(GraphError, match="negative"):
        Graph.from_edges(2, [0], [1], [-1], allow_negative=False)


def test_endpoint_out_of_range():
    with pytest.raises(GraphError, match="out of range"):
        Graph.from_edges(2, [0], [2], [1])


def test_normalise_inf_maps_polluted_values():
    d = np.array([[0, INF - 5], [MAX_PATH_WEIGHT, -3]], np.int32)
    normalise_inf(d)
    assert d[0, 1] == INF and d[1, 0] == MAX_PATH_WEIGHT and d[1, 1] == -3


def test_a_negative_self_loop_is_a_negative_cycle_for_every_reader():
    """Graph.from_edges (every file reader's) dropped it, where a matrix with it raised NegativeCycleError."""
    from apsp_kernels import NegativeCycleError
    with pytest.raises(NegativeCycleError, match="self-loop of weight -7 at vertex 0") as e:
        Graph.from_edges(3, [0, 0, 1], [1, 0, 2], [5, -7, 4])
    assert e.value.vertex == 0 and e.value.index == 1
