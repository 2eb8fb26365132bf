"""The commands that measure auto or the elimination refuse, in one line and before any GPU, where pymetis is not
installed: the elimination would order by BFS levels and auto would never pick it, unlike every recorded row."""
import os
import subprocess
import sys

import pytest
import yaml

from script_runs import ROOT

COMMANDS = [
    ["scripts/elimination_gpu_measure.py"],
    ["scripts/e2e_scatter_probe.py", "--codes", "tuned_frontier", "auto"],
    ["scripts/auto_first_call.py", "--graphs", "kemp", "--sizes", "64"],
    ["scripts/deep_measure.py", "--codes", "tuned_elimination/32"],
    ["scripts/host_path_probe.py"],
    ["scripts/auto_check.py"],
    ["scripts/elimination_first_call.py"],
    ["scripts/choice_cost.py", "--graphs", "kemp:64"],
    ["scripts/frontier_pilot_probe.py", "--graphs", "kemp:64"],
    ["scripts/predict_picks.py", "grid:64"],
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


def test_a_plans_run_refuses_before_any_command_and_a_dry_run_still_lists(tmp_path, without_pymetis):
    """Every plan checks auto, whose rules were set with the elimination ordered by METIS: a device call without
    the wheels runs nothing."""
    plan = tmp_path / "m-plan.yaml"
    plan.write_text(yaml.safe_dump({"commands": [
        "python3 -c \"import os, pathlib; pathlib.Path(os.environ['OUT'], 'ran').write_text('')\""]}))
    run = lambda *a: subprocess.run([sys.executable, "scripts/run_check_plan.py", str(plan), "--out",
                                     str(tmp_path / "out"), *a], capture_output=True, text=True,
                                    env=without_pymetis, cwd=ROOT, timeout=300)
    r = run()
    assert r.returncode == 2 and "pymetis is not installed here" in r.stderr
    assert not (tmp_path / "out" / "ran").exists()
    r = run("--dry-run")
    assert r.returncode == 0 and "python" in r.stdout
    plan.write_text(yaml.safe_dump({"commands": [                      # a plan that says it measures without METIS
        "python3 -c \"import os, pathlib; pathlib.Path(os.environ['OUT'], 'ran').write_text('')\" --without-metis"]}))
    r = run()
    assert r.returncode == 0 and (tmp_path / "out" / "ran").exists()


def test_only_a_command_that_runs_auto_or_the_elimination_is_refused(monkeypatch):
    import argparse
    from apsp_kernels import elimination_choice
    monkeypatch.setattr(elimination_choice, "measured_ordering", lambda: False)
    ap = argparse.ArgumentParser()
    elimination_choice.refuse_unmeasured_ordering(ap, ["tuned_frontier", "tuned_deep/8"])     # no exit
    for codes in (None, ["tuned_frontier", "auto"], ["tuned_elimination/32"]):
        with pytest.raises(SystemExit):
            elimination_choice.refuse_unmeasured_ordering(ap, codes)
    monkeypatch.setattr(elimination_choice, "measured_ordering", lambda: True)
    elimination_choice.refuse_unmeasured_ordering(ap)
