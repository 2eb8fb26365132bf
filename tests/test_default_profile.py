"""One default profile: every notebook's parameters cell, runner.run() and ./run_all.sh agree."""
import ast
import inspect
import json

from apsp_kernels.study.report import runner
from apsp_kernels.paths import ROOT
from apsp_kernels.study.seeds.kemp import profiles

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _parameters_profile(path):
    """The literal ``profile = ...`` of the notebook's cell tagged ``parameters`` (papermill's)."""
    nb = json.loads(path.read_text())
    cells = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == 1, f"{path.name}: {len(cells)} cells tagged parameters, expected 1"
    for node in ast.parse("".join(cells[0]["source"])).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["profile"]:
            assert isinstance(node.value, ast.Constant), f"{path.name}: profile is not a literal"
            return node.value.value
    raise AssertionError(f"{path.name}: no `profile = ...` in its parameters cell")


def test_default_is_a_profile():
    assert profiles.DEFAULT in profiles.PROFILES


def test_notebooks_parameters_cells_use_the_default():
    assert NOTEBOOKS
    wrong = {p.name: v for p in NOTEBOOKS if (v := _parameters_profile(p)) != profiles.DEFAULT}
    assert not wrong, f"parameters cells differ from profiles.DEFAULT = {profiles.DEFAULT!r}: {wrong}"


def test_runner_defaults_are_the_default(monkeypatch):
    assert inspect.signature(runner.run).parameters["profile"].default == profiles.DEFAULT
    seen = {}
    monkeypatch.setattr(runner, "run", lambda profile, *a, **k: seen.setdefault("profile", profile) and 0)
    runner.main([])                       # ./run_all.sh with no arguments
    assert seen["profile"] == profiles.DEFAULT
