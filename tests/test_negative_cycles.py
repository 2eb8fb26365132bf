"""Negative cycles of any length and any magnitude (denormals included) raise NegativeCycleError on every path:
each of scipy's method names, dense, sparse (CSR, CSC, LIL) and networkx input, before any code that could loop on
one runs (scipy 1.17's Johnson never returns on a tiny cycle longer than two edges; its Bellman-Ford returns
negative distances).  Calls that could hang run in a child process under a timeout, so that a regression fails."""
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import apsp_kernels as ak
from apsp_kernels.core.negative_cycle import exact_integers, negative_cycle_vertex

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys
import numpy as np, scipy.sparse as sp
import apsp_kernels as ak
cases = json.loads(sys.argv[1])
out = []
for n, rows, cols, w, kind, method, directed in cases:
    a = sp.coo_matrix((np.array(w, np.float64), (rows, cols)), shape=(n, n))
    if kind == "dense":
        a = a.toarray()
    elif kind == "networkx":
        import networkx as nx
        g = nx.DiGraph() if directed else nx.Graph()
        g.add_nodes_from(range(n))
        g.add_weighted_edges_from(zip(rows, cols, w))
        a = g
    else:
        a = a.asformat(kind)
    try:
        ak.shortest_paths(a, method, directed)
        out.append("returned")
    except ak.NegativeCycleError:
        out.append("NegativeCycleError")
    except Exception as e:
        out.append(f"{type(e).__name__}: {e}")
print(json.dumps(out))
"""


def outcomes(cases, timeout=90):
    """What ``shortest_paths`` does on each case, in a child process that is killed past ``timeout`` seconds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    try:
        r = subprocess.run([sys.executable, "-c", CHILD, json.dumps(cases)], capture_output=True, text=True,
                           timeout=timeout, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"shortest_paths did not return within {timeout} s on one of {cases}")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


# (n, rows, cols, weights): every one a negative cycle of three or more edges that float arithmetic can lose
CYCLES = {
    "tiny": (4, [0, 1, 2], [1, 2, 0], [-3e-16, 1e-16, 1e-16]),
    "denormal": (4, [0, 1, 2], [1, 2, 0], [-3 * 5e-324, 5e-324, 5e-324]),
    "absorbed": (5, [3, 0, 1, 2], [0, 1, 2, 0], [-1e12, 1e10, -1e10 - 2e-6, 1e-6]),   # -1e-6 under a -1e12 potential
    "long": (40, list(range(40)), [(i + 1) % 40 for i in range(40)], [-39.5e-17] + [1e-17] * 39),
    "unit": (4, [0, 1, 2], [1, 2, 0], [1.0, 1.0, -2.0000000000000004]),              # -4.4e-16: Johnson hung
    "rounded": (4, [0, 1, 2], [1, 2, 0], [0.1, 0.2, -0.30000000000000004]),          # -2.8e-17: scipy sees none
}
KINDS = ["dense", "csr", "csc", "lil", "networkx"]
METHODS = ["auto", "J", "BF", "D", "FW"]


@pytest.mark.parametrize("cycle", sorted(CYCLES))
def test_every_method_and_input_kind_raises_on_a_tiny_negative_cycle(cycle):
    n, rows, cols, w = CYCLES[cycle]
    kinds = [k for k in KINDS if k != "dense" or min(map(abs, w)) > 1e-8]    # dense |w| <= 1e-8: no edge, as scipy
    cases = [(n, rows, cols, w, kind, method, True) for kind in kinds for method in METHODS]
    got = outcomes(cases)
    wrong = [(c[4], c[5], o) for c, o in zip(cases, got) if o != "NegativeCycleError"]
    assert not wrong


def test_the_issue_reproducer_raises_in_process():
    a = sp.csr_matrix(([-3e-16, 1e-16, 1e-16], ([0, 1, 2], [1, 2, 0])), shape=(4, 4))
    assert outcomes([(4, [0, 1, 2], [1, 2, 0], [-3e-16, 1e-16, 1e-16], "csr", "auto", True)]) == ["NegativeCycleError"]
    with pytest.raises(ak.NegativeCycleError, match="negative cycle through vertex"):
        ak.shortest_paths(a)


def test_dense_weights_within_1e_8_of_zero_make_no_cycle_as_in_scipy():
    a = sp.csr_matrix(([-3e-9, 1e-9, 1e-9], ([0, 1, 2], [1, 2, 0])), shape=(4, 4)).toarray()
    assert np.isinf(ak.shortest_paths(a, "J")[0, 1:]).all()


def test_a_cycle_of_weight_zero_or_more_is_no_negative_cycle():
    for w in ([-2e-16, 1e-16, 1e-16], [-2 * 5e-324, 5e-324, 5e-324], [-1e300, 5e299, 5e299]):
        a = sp.csr_matrix((w, ([0, 1, 2], [1, 2, 0])), shape=(4, 4))
        d = ak.shortest_paths(a, "BF")
        assert d[0, 0] == 0 and d[0, 1] == w[0]
    assert negative_cycle_vertex(3, [0, 1, 2], [1, 2, 0], [1e10, -1e10 + 2e-6, -1e-6]) == -1


def test_exact_integers_keep_every_ratio():
    for w in ([0.5, -0.25, 3.0], [-5e-324, 1e300, 1.0], [7, -3, 2**62], [0.1, 1e-17, -2.5e10]):
        ints = exact_integers(np.array(w))
        unit = Fraction(w[0]) / int(ints[0])
        assert [Fraction(int(i)) * unit for i in ints] == [Fraction(x) for x in w]


def _exact_negative_cycle(n, edges):
    """Floyd-Warshall over Fractions: whether some vertex reaches itself by a negative walk."""
    inf = None
    d = [[Fraction(0) if i == j else inf for j in range(n)] for i in range(n)]
    for u, v, w in edges:
        if u == v:
            if w < 0:
                return True
            continue
        if d[u][v] is inf or Fraction(w) < d[u][v]:
            d[u][v] = Fraction(w)
    for k in range(n):
        for i in range(n):
            if d[i][k] is inf:
                continue
            for j in range(n):
                if d[k][j] is not inf and (d[i][j] is inf or d[i][k] + d[k][j] < d[i][j]):
                    d[i][j] = d[i][k] + d[k][j]
    return any(d[i][i] < 0 for i in range(n))


_tiny = st.sampled_from([5e-324, 1e-300, 1e-17, 1e-16, 0.1, 1.0, 1e10, 1e300])


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 6), data=st.data())
def test_property_negative_cycle_found_exactly(n, data):
    """Weights of wildly different magnitudes, signs and denormals: found exactly when Fractions say so."""
    k = data.draw(st.integers(0, 12))
    edges = [(data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1)),
              data.draw(st.sampled_from([-1, 1])) * data.draw(_tiny) * data.draw(st.sampled_from([1, 2, 3])))
             for _ in range(k)]
    src, dst, w = (np.array(x) for x in zip(*edges)) if edges else (np.zeros(0, int),) * 2 + (np.zeros(0),)
    v = negative_cycle_vertex(n, src, dst, w)
    assert (v >= 0) == _exact_negative_cycle(n, edges)
