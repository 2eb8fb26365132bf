"""The registry is where an algorithm's facts live: each entry is complete and consistent,
and its variants reach its launcher under the keyword it declares."""
import inspect

import pytest

from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G


def _launcher_params(a):
    return inspect.signature(a.launcher).parameters     # a wrapped CPU solver shows its own keywords


@pytest.mark.parametrize("a", list(registry.ALGORITHMS.values()), ids=lambda a: a.name)
def test_entry_is_complete(a):
    assert a.device in ("cpu", "gpu") and a.representation in ("dense", "csr")
    assert a.problem in registry.PROBLEMS
    assert set(a.inexact_variants) <= set(a.variants) and a.exact_variants
    if a.device == "gpu":
        assert a.limit_kind in ("bandwidth", "minplus"), f"{a.name}: no hardware limit to judge it against"
        assert set(a.memory_modes) <= set(registry.MODES)
    if a.variants != (None,):
        assert a.variant_param in _launcher_params(a), f"{a.name}: launcher lacks '{a.variant_param}'"
    if a.sampler is not None:
        assert a.device == "cpu" and a.sample_unit


def test_out_of_core_budget_rule_forces_partitions():
    a = registry.get("kemp_ooc")
    kw = a.forced_params(1000, 16, 3)
    assert kw == {"budget_bytes": 5 * 16 * 1008 * 4}                 # two strips and three block rows
    assert registry.rows_for_partitions(1024, 16, 4) == 16


def test_work_formulas():
    g = G.kemp(64, seed=1)
    assert registry.get("harish").updates(g) == 64.0 * g.m
    assert registry.get("katz_kider").updates(g) == 64.0 ** 3
    assert registry.get("tran_minplus").updates(g) > 64.0 ** 3


@pytest.mark.parametrize("a", registry.by_device("cpu"), ids=lambda a: a.name)
def test_every_cpu_variant_runs(a):
    from apsp_kernels import reference_apsp
    import numpy as np
    g = G.kemp(40, seed=2)
    for v in a.variants:
        d, timings = a.run(g, variant=v)                   # the one launcher contract, as on the GPU
        assert np.array_equal(d, reference_apsp(g)) and isinstance(timings, dict)


def test_every_launcher_returns_distances_and_timings():
    """One contract for every registry entry, CPU or GPU: the GPU ones are checked on the device
    (tests/test_gpu.py); here that each launcher is a function of the graph, not looked up by name
    (the single-source ones, which also take sources=, in tests/test_single_source.py)."""
    import inspect
    for a in registry.ALGORITHMS.values():
        assert callable(a.launcher) and inspect.signature(a.launcher).parameters, a.name
    g = G.kemp(16, seed=1)
    for a in registry.by_device("cpu"):
        out = a.run(g)
        assert isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], dict), a.name
