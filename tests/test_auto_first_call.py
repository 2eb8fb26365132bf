"""scripts/auto_first_call.py's choice of codes (CPU only: the GPU runs are the device's)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import auto_first_call as A                                              # noqa: E402

from apsp_kernels.io import suite_graphs as SG                            # noqa: E402


def test_the_rules_codes_are_timed_beside_the_cost_models():
    """A code auto's rules run (tuned_deep on the path) is timed in the rounds, so auto is held against it; the
    elimination only where auto's separator test lets it run."""
    assert {"tuned_deep", "tuned_elimination", "tuned_frontier", "tuned_fw"} <= set(A.known_codes())
    big = A.known_codes()
    assert "tuned_deep" in A._codes(SG.make("path", 16384, seed=16384), big)
    assert "tuned_elimination" in A._codes(SG.make("grid", 16384, seed=16384), big)
    assert "tuned_elimination" not in A._codes(SG.make("kemp", 16384, seed=16384), big)   # large separators
    assert A._codes(SG.make("path", 16384, seed=16384), ["tuned_deep"]) == ["tuned_deep"]


def test_an_unknown_code_is_refused_before_anything_runs(tmp_path, capsys):
    with pytest.raises(SystemExit):
        A.main(["--graphs", "path", "--sizes", "4096", "--big-codes", "tuned_deep", "tuned_nope", "--out", str(tmp_path)])
    assert "tuned_nope" in capsys.readouterr().err and not any(tmp_path.iterdir())
