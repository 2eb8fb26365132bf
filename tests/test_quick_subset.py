"""The quick subset (`./run_tests.sh --quick`): every test conftest.SLOW names still exists, so that a
renamed slow test cannot slip back into the quick run unnoticed, and the smoke batch stays out of it."""
import subprocess
import sys

import pytest

from apsp_kernels.paths import ROOT

import conftest


def _collected(*marker):
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *marker],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if "::" in line]


@pytest.mark.slow
def test_every_slow_prefix_names_a_test_and_the_quick_run_leaves_them_out():
    every = _collected()
    stale = [p for p in conftest.SLOW if not any(n.startswith(p) for n in every)]
    assert not stale, f"conftest.SLOW names tests that no longer exist: {stale}"
    quick = set(_collected("-m", "not slow"))
    assert quick and len(quick) < len(every)
    assert not [n for n in quick if n.startswith(conftest.SLOW)]
    assert not [n for n in quick if n.startswith(("tests/test_notebooks.py::test_run_all_smoke",
                                                  "tests/test_reports_browser.py"))]


def test_run_tests_quick_means_not_slow():
    text = (ROOT / "run_tests.sh").read_text()
    assert '"--quick" ]; then args+=(-m "not slow")' in text
