"""The study contract: every seed fills the same rooms, the registry imports them plainly, and every claim notebook
opens its study through it, with the batch as a papermill parameter."""
import ast
import json

import pytest

from apsp_kernels import paths
from apsp_kernels.study.contract import Study
from apsp_kernels.study.registry import STUDIES, of_notebook, open_study

STUDY_DIR = paths.ROOT / "apsp_kernels" / "study"
NOTEBOOKS = sorted((paths.ROOT / "notebooks").glob("*.ipynb"))


def _code_cells(nb_path):
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def _parameters(nb_path):
    cell = next(c for c in _code_cells(nb_path) if "parameters" in c.get("metadata", {}).get("tags", []))
    return {t.id for node in ast.parse("".join(cell["source"])).body if isinstance(node, ast.Assign) for t in node.targets}


def test_every_study_is_a_contract_from_its_own_seed_package():
    for name, s in STUDIES.items():
        assert isinstance(s, Study) and s.name == name
        for room in (s.measure, s.find, s.load, s.rows, s.open):
            assert callable(room) and room.__module__ == f"apsp_kernels.study.seeds.{name}.study", (name, room)
        assert s.plan and (paths.ROOT / s.plan).exists(), f"{name}: its plan {s.plan} is missing"


def test_no_study_module_is_imported_by_a_string():
    for f in STUDY_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            assert not {"importlib", "runpy"} & {n.split(".")[0] for n in names}, f"{f}: imports {names}"
            assert not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__"), f


@pytest.mark.parametrize("nb_path", [p for p in NOTEBOOKS if not p.stem.endswith("_summary")], ids=lambda p: p.stem)
def test_every_claim_notebook_opens_its_study_through_the_registry(nb_path):
    assert {"batch", "profile", "source"} <= _parameters(nb_path), f"{nb_path.name}: batch, profile and source parameters"
    first = "".join(_code_cells(nb_path)[1]["source"])
    assert f'NB = "{nb_path.stem}"' in first and "open_study(NB, batch=batch" in first, nb_path.name
    assert of_notebook(nb_path.stem) is not None
    code = "\n".join("".join(c["source"]) for c in _code_cells(nb_path))
    assert "from apsp_kernels import study" not in code and "registry, study" not in code
    assert "APSP_BATCH" not in code


def test_the_summary_takes_the_batch_too():
    summary = next(p for p in NOTEBOOKS if p.stem.endswith("_summary"))
    assert "batch" in _parameters(summary)


def test_a_batch_names_a_folder_a_batch_or_nothing(tmp_path):
    s = STUDIES["iitkgp"]
    recorded = s.runs()
    assert s.choose("") == [] and s.choose("19990101-000000") == []
    assert [b.name for b in s.choose(recorded[0].name)] == [recorded[0].name]
    assert s.choose(str(recorded[0].path))[0].path == recorded[0].path
    batch_id = recorded[0].name.removesuffix("-iitkgp")
    assert [b.name for b in s.choose(batch_id)] == [recorded[0].name]
    study, rep = open_study("10_iitkgp", batch=recorded[0].name)
    assert study is s and rep.run_dir == recorded[0].path


def test_a_notebook_of_no_study_is_refused():
    with pytest.raises(KeyError, match="belongs to no registered study"):
        open_study("99_nothing")
