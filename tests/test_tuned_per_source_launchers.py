"""The launcher checks, no GPU, that tuned_frontier and tuned_deep share, each test run for both codes: both
read the graph through frontier.csr_arrays and the sources through as_sources, so they refuse the same inputs in
one line before any GPU work, and return an empty result without a GPU where there is nothing to solve.
tests/test_tuned_frontier_cpu.py and tests/test_tuned_deep_emulated.py hold each launcher's own checks and
its kernel on the CPU emulation."""
import numpy as np
import pytest

import frontier_graphs as F

from apsp_kernels import Graph, GraphError
from apsp_kernels.algorithms import registry

CODES = ("tuned_frontier", "tuned_deep")


@pytest.mark.parametrize("code", CODES)
def test_refusals_in_one_line_before_any_gpu_work(code):
    a = registry.get(code)
    with pytest.raises(GraphError, match=f"{code} needs non-negative edge weights"):
        a.run(Graph.from_edges(2, [0], [1], [-1]))
    with pytest.raises(GraphError, match="non-negative"):
        a.run(Graph.from_edges(2, [0], [1], [-1.5], dtype="auto"))
    with pytest.raises(GraphError, match="beyond float32"):
        a.run(Graph.from_edges(2, [0], [1], [1e39], dtype="auto"))
    with pytest.raises(GraphError, match="needs int32 weights"):                   # floats asked to be int32
        a.run(Graph.from_edges(2, [0], [1], [0.5], dtype="auto"), dtype="int32")
    with pytest.raises(GraphError, match="needs int32 weights"):                   # int64 weights: not silently float
        a.run(Graph.from_edges(3, [0, 1], [1, 2], [2**40, 1], dtype="auto"))
    with pytest.raises(ValueError, match="dtype must be one of"):
        a.run(F.path(3, 0), dtype="float64")
    with pytest.raises(ValueError, match="source 3 is not a vertex"):
        a.run(F.path(3, 0), sources=[0, 3])
    with pytest.raises(ValueError, match="integers"):
        a.run(F.path(3, 0), sources=[0.5])


@pytest.mark.parametrize("code", CODES)
def test_nothing_to_solve_needs_no_gpu(code):
    a = registry.get(code)
    d, t = a.run(F.path(5, 0), sources=[])
    assert d.shape == (0, 5) and d.dtype == np.int32 and t["sources"] == 0
    d, t = a.run(Graph.from_edges(0, [], [], []))
    assert d.shape == (0, 0)
    d, t = a.run(Graph.from_edges(0, [], [], []), dtype="float32")
    assert d.shape == (0, 0) and d.dtype == np.float32
