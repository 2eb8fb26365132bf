"""The notebooks run under papermill (``smoke`` profile) and produce their figures and tables;
the batch runner writes an index that links every report.  Without a GPU the claim notebooks
re-render the recorded H100 reference run, which is what a reader without a GPU gets."""
import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from apsp_kernels import claims

ROOT = Path(__file__).resolve().parent.parent
NB = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("nb", NB, ids=lambda p: p.stem)
def test_notebook_has_tagged_parameters_cell(nb):
    cells = nbformat.read(nb, as_version=4).cells
    tagged = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1 and "profile" in tagged[0].source and "source" in tagged[0].source
    assert not any(c.get("outputs") for c in cells if c.cell_type == "code"), "committed with outputs"


def test_every_claim_has_a_notebook():
    names = {p.stem for p in NB}
    for cid, c in claims.load().items():
        assert c["notebook"] in names, f"claim {cid} names missing notebook {c['notebook']}"


@pytest.mark.slow
def test_run_all_smoke_renders_every_report(smoke_reports):
    reports = smoke_reports
    index = (reports / "index.html").read_text()
    links = re.findall(r'href="([^"]+\.html)"', index)
    assert {f"{p.stem}.html" for p in NB} <= set(links)
    for link in links:
        page = (reports / link).read_text()
        assert "<table" in page and "data:image/png" in page, link        # table and figure present
        assert "Traceback" not in page, link
    for p in NB:
        executed = nbformat.read(reports / "executed" / p.name, as_version=4)
        assert not any(o.get("output_type") == "error" for c in executed.cells for o in c.get("outputs", [])), p.name
    from apsp_kernels import paths
    assert (paths.FIGURES / "smoke" / "fig0_cpu_baselines.png").exists()
    assert paths.REPORTS != ROOT / "reports" and not str(paths.FIGURES).startswith(str(ROOT))
    verdicts = pd.read_csv(reports / "verdicts.csv")
    assert set(verdicts["claim"]) == set(claims.load())                  # every claim has a verdict
    assert set(verdicts["verdict"]) <= set(claims.VERDICTS)
    need = {"claim", "quote", "where", "paper_n", "ours", "ci_lo", "ci_hi", "claimed_lo", "claimed_hi", "tolerance",
            "verdict", "reason", "ours_end_to_end", "ours_kernel", "best_cpu", "baseline_timed"}
    assert need <= set(verdicts.columns), need - set(verdicts.columns)
    assert verdicts["reason"].notna().all()
    # the index says, per report, where its numbers come from (measured here or recorded: device, date, commit)
    rows = re.findall(r"<tr><td><a href=\"(\d\d_[^\"]+)\.html\">.*?</tr>", index, flags=re.S)
    assert "<th>numbers from</th>" in index and rows
    for name in [r for r in rows if not r.startswith("07_")]:
        row = re.search(rf'<tr><td><a href="{name}\.html">.*?</tr>', index, flags=re.S).group(0)
        assert re.search(r"(measured in this batch|recorded</b> run): .+, \d{4}-\d\d-\d\d, commit", row), row[:300]


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
