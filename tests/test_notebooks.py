"""The notebooks run under papermill (``smoke`` profile) and produce their figures and tables;
the batch runner writes an index that links every report.  Without a GPU the claim notebooks
re-render the recorded H100 reference run, which is what a reader without a GPU gets."""
import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from apsp_kernels.study.method import claims
from apsp_kernels.study import words

ROOT = Path(__file__).resolve().parent.parent
NB = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("nb", NB, ids=lambda p: p.stem)
def test_notebook_has_tagged_parameters_cell(nb):
    cells = nbformat.read(nb, as_version=4).cells
    tagged = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1 and "profile" in tagged[0].source and "source" in tagged[0].source
    assert not any(c.get("outputs") for c in cells if c.cell_type == "code"), "committed with outputs"


def test_summary_runs_after_every_notebook_whose_verdicts_it_collects():
    from apsp_kernels.study.report import runner
    names = [p.stem for p in runner.order(NB)]
    assert names[-1] == "07_summary" and names[:-1] == sorted(names[:-1])
    assert set(claims.load()[c]["notebook"] for c in claims.load()) <= set(names[:-1])


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
    assert "findings.html" in links
    for link in links:
        page = (reports / link).read_text()
        assert "<table" in page, f"{link}: no table"                      # each apart: a failure says which
        assert "data:image/png" in page, f"{link}: no embedded figure"
        assert "Traceback" not in page, link
    for p in NB:
        executed = nbformat.read(reports / "executed" / p.name, as_version=4)
        assert not any(o.get("output_type") == "error" for c in executed.cells for o in c.get("outputs", [])), p.name
    from apsp_kernels import paths
    assert (paths.FIGURES / "smoke" / "fig0_cpu_baselines.png").exists()
    assert paths.REPORTS != ROOT / "reports" and not str(paths.FIGURES).startswith(str(ROOT))
    verdicts = pd.read_csv(reports / "verdicts.csv")
    assert set(verdicts["claim"]) == set(claims.load())                  # every claim has a verdict
    assert set(verdicts["verdict"]) <= set(words.VERDICTS)
    need = {"claim", "quote", "where", "paper_n", "ours", "ci_lo", "ci_hi", "claimed_lo", "claimed_hi", "tolerance",
            "verdict", "reason", "ours_end_to_end", "ours_kernel", "best_cpu", "baseline_timed"}
    assert need <= set(verdicts.columns), need - set(verdicts.columns)
    assert verdicts["reason"].notna().all()
    # the index says, per report, where its numbers come from (measured here or recorded: device, date, commit)
    rows = re.findall(r'<tr class="claim-row" data-notebook="(\d\d_[^"]+)"><td class="notebook"[^>]*><a href=.*?</tr>',
                      index, flags=re.S)
    assert "<th>numbers from</th>" in index and set(rows) == {p.stem for p in NB}
    for name in [r for r in rows if not r.startswith("07_")]:
        row = re.search(rf'<tr class="claim-row" data-notebook="{name}"><td class="notebook".*?</tr>', index, flags=re.S).group(0)
        # or, for a study whose own device measurement has not run yet (10_iitkgp), that it has not
        # (a notebook whose rows rest on different runs names each row's cards and runs, its dates once)
        assert re.search(r"(measured in this batch|recorded</b> run): .+, \d{4}-\d\d-\d\d, commit"
                         r"|(measured in this batch|recorded runs) of \d{4}-\d\d-\d\d( \.\. \d{4}-\d\d-\d\d)?, commit"
                         r"|no device measurement yet: ", row), row[:300]
    # one row per claim, its verdict in the same row: exactly the verdict recorded for that claim
    pairs = re.findall(r'<td class="claim">([^<]*)</td><td class="verdict[^"]*">([^<]*)</td>', index)
    # (shown with its direction where it is 'differs in magnitude': show.signed)
    from apsp_kernels.study.show import signed
    profiles = verdicts["profile"].astype(str) if "profile" in verdicts else [""] * len(verdicts)
    shown = [f"{v} (smoke: decides nothing)" if p == "smoke" else v for v, p in zip(signed.shown(verdicts), profiles)]
    assert {c: v for c, v in pairs if c != "-"} == dict(zip(verdicts["claim"], shown))     # a smoke verdict never bare
    assert not re.search(r"\d\d:\d\d:\d\d", index)                          # no clock on the index


@pytest.mark.slow
def test_reports_tables_and_outputs_read_well(smoke_reports):
    """Every table of every report: no index column, a unit in the header of every column that
    holds numbers (identifiers such as a variant aside), no raw float (more than 4 significant
    digits after a decimal point); no stderr output (a
    progress log or a warning) in any report."""
    from apsp_kernels.study.show import tables
    text_columns = {h for h, u in tables.COLUMNS.values() if u is None}
    for page in sorted(smoke_reports.glob("*.html")):
        for t in html_tables(page.read_text(encoding="utf-8")):
            head = [c for c in t[0] if c[0] == "th"] if t else []
            assert not any(k in c[1] for r in t for c in r for k in ("row_heading", "blank", "index_name")), \
                f"{page.name}: a pandas index column in {[c[2] for c in head]}"
            for r in t[1:]:
                for i, (tag, _, txt) in enumerate(r):
                    for num in re.findall(r"(?<![\d.])\d+\.\d+(?![\d.])", txt):        # 3 significant figures (fmt), never a raw float
                        assert len(re.sub(r"\D", "", num).lstrip("0")) <= 4, f"{page.name}: raw float {num!r} in {txt[:80]!r}"
                    if tag == "td" and re.fullmatch(r"-?\d+(\.\d+)?", txt.strip()) and i < len(head):
                        h = head[i][2].strip()
                        assert h in text_columns or re.search(r"\([^()]+\)$", h), f"{page.name}: no unit in {h!r} ({txt})"
    for p in NB:
        executed = nbformat.read(smoke_reports / "executed" / p.name, as_version=4)
        streams = [o.get("text", "")[:200] for c in executed.cells for o in c.get("outputs", [])
                   if o.get("output_type") == "stream" and o.get("name") == "stderr"]
        assert not streams, f"{p.name}: stderr in the report: {streams[:3]}"


@pytest.mark.slow
def test_every_image_says_what_it_shows(smoke_reports):
    """Every <img> of every report (index, claim pages, findings paper) has alt text of its own: not
    empty, not a placeholder, and no two images of one page with the same text."""
    from html import unescape
    generic = re.compile(r"no description recorded|^(a|the)? ?(figure|image|plot|chart)s?\.?$", re.I)
    seen = 0
    for page in sorted(smoke_reports.glob("*.html")):
        imgs = re.findall(r"<img\b[^>]*>", page.read_text(encoding="utf-8"))
        alts = [unescape(m.group(1)) if (m := re.search(r'\balt="([^"]*)"', t)) else None for t in imgs]
        for a in alts:
            assert a and len(a) > 40 and not generic.search(a.strip()), f"{page.name}: alt {a!r}"
        assert len(set(alts)) == len(alts), f"{page.name}: two images with the same alt"
        seen += len(imgs)
    assert seen >= len(NB)


@pytest.mark.slow
def test_reports_speak_of_claims_not_of_issue_or_target_numbers(smoke_reports):
    """A reader does not know what "issue 14" or "target 5" is: no rendered page says either."""
    pat = re.compile(r"\b(?:[Ii]ssues?|[Tt]argets?) #?\d")
    for page in sorted(smoke_reports.glob("*.html")):
        text = re.sub(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+", "", page.read_text(encoding="utf-8"))
        found = [text[max(m.start() - 60, 0):m.end() + 20] for m in pat.finditer(text)]
        assert not found, f"{page.name}: {found[:3]}"


def html_tables(page):
    """[[(tag, class, text), ...] per row] per <table> of an HTML page."""
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tables, self.cell = [], None

        def handle_starttag(self, tag, attrs):
            if tag == "table":
                self.tables.append([])
            elif tag == "tr" and self.tables:
                self.tables[-1].append([])
            elif tag in ("td", "th") and self.tables and self.tables[-1]:
                self.cell = [tag, dict(attrs).get("class") or "", ""]

        def handle_endtag(self, tag):
            if tag in ("td", "th") and self.cell is not None:
                self.tables[-1][-1].append(tuple(self.cell))
                self.cell = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell[2] += data
    p = P()
    p.feed(page)
    return [[r for r in t if r] for t in p.tables]


def test_rendering_the_same_notebook_twice_gives_the_same_bytes(tmp_path, monkeypatch):
    """Reports re-rendered from the same records are byte-identical: no timestamps, durations or
    random ids in the executed notebooks, the HTML pages, the index or the status file."""
    from apsp_kernels.study.report import runner
    nbdir = tmp_path / "notebooks"
    nbdir.mkdir()
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# a table"),
        nbformat.v4.new_code_cell("profile = 'smoke'", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("import pandas as pd\nfrom apsp_kernels.study.show import tables\n"
                                  "tables.show(pd.DataFrame({'n': [1024], 'median': [872.7391]}))")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, nbdir / "a_table.ipynb")
    monkeypatch.setattr(runner, "NOTEBOOKS", nbdir)
    out = []
    for i in range(2):
        monkeypatch.setattr(runner, "REPORTS", tmp_path / "reports")
        assert runner.run("smoke", progress=False) == 0
        out.append({p.relative_to(tmp_path / "reports"): p.read_bytes()
                    for p in sorted((tmp_path / "reports").rglob("*")) if p.is_file()})
    assert out[0] == out[1]
    page = out[0][Path("a_table.html")].decode()
    assert "873" in page and "872.7391" not in page and "Styler at 0x" not in out[0][Path("executed/a_table.ipynb")].decode()


def test_failing_notebook_is_reported_and_others_continue(tmp_path, monkeypatch):
    from apsp_kernels.study.report import runner
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
