"""The notebooks run under papermill (``smoke`` profile) and produce their figure and table;
the batch runner writes an index that links every report."""
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NB = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("nb", NB, ids=lambda p: p.stem)
def test_notebook_has_tagged_parameters_cell(nb):
    cells = nbformat.read(nb, as_version=4).cells
    tagged = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1 and "profile" in tagged[0].source
    assert not any(c.get("outputs") for c in cells if c.cell_type == "code"), "committed with outputs"


@pytest.mark.slow
def test_run_all_smoke(tmp_path, monkeypatch):
    from apsp_kernels import runner
    rc = runner.run("smoke", only="00_", progress=False)
    assert rc == 0
    index = (runner.REPORTS / "index.html").read_text()
    links = re.findall(r'href="([^"]+\.html)"', index)
    assert "00_environment_and_cpu_baselines.html" in links
    for link in links:
        page = (runner.REPORTS / link).read_text()
        assert "<table" in page and "data:image/png" in page          # table and figure present
        assert "Traceback" not in page
    assert (ROOT / "figures" / "fig0_cpu_baselines.png").exists()
    executed = nbformat.read(runner.REPORTS / "executed" / "00_environment_and_cpu_baselines.ipynb", as_version=4)
    assert not any(o.get("output_type") == "error" for c in executed.cells for o in c.get("outputs", []))
    assert (runner.REPORTS / "verdicts" / "00_environment_and_cpu_baselines.csv").exists()


def test_failing_notebook_is_reported_and_others_continue(tmp_path, monkeypatch):
    from apsp_kernels import runner
    nbdir = tmp_path / "notebooks"
    nbdir.mkdir()
    for name, src in (("a_bad", "raise ValueError('boom')"), ("b_good", "x = 1")):
        nb = nbformat.v4.new_notebook(cells=[
            nbformat.v4.new_markdown_cell(f"# {name}"),
            nbformat.v4.new_code_cell("profile = 'smoke'", metadata={"tags": ["parameters"]}),
            nbformat.v4.new_code_cell(src)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, nbdir / f"{name}.ipynb")
    monkeypatch.setattr(runner, "NOTEBOOKS", nbdir)
    monkeypatch.setattr(runner, "REPORTS", tmp_path / "reports")
    assert runner.run("smoke", progress=False) == 1
    index = (tmp_path / "reports" / "index.html").read_text()
    assert "FAILED" in index and "boom" in index and "b_good.html" in index
