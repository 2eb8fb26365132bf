"""The commands that measure auto or the elimination refuse, in one line and before any GPU, where pymetis is not
installed: the elimination would order by BFS levels and auto would never pick it, unlike every recorded row."""
import os
import subprocess
import sys

import pytest

from script_runs import ROOT

COMMANDS = [
    ["scripts/elimination_gpu_measure.py"],
    ["scripts/e2e_scatter_probe.py"],
    ["scripts/auto_first_call.py", "--graphs", "kemp", "--sizes", "64"],
    ["-m", "apsp_kernels.structure_suite", "--graphs", "kemp", "--sizes", "64"],
]


@pytest.fixture
def without_pymetis(tmp_path):
    """An environment where ``import pymetis`` fails."""
    hidden = tmp_path / "site"
    (hidden / "pymetis").mkdir(parents=True)
    (hidden / "pymetis" / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(hidden), str(ROOT)]))


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] if c[0] != "-m" else c[1] for c in COMMANDS])
def test_a_measuring_command_refuses_without_pymetis(command, without_pymetis):
    r = subprocess.run([sys.executable, *command], capture_output=True, text=True, env=without_pymetis, cwd=ROOT,
                       timeout=300)
    assert r.returncode == 2, r.stderr[-2000:]
    assert "pymetis is not installed here" in r.stderr and "Traceback" not in r.stderr
