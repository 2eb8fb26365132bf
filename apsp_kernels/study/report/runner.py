"""Batch runner behind ``./run_all.sh``: executes every notebook with papermill under a
profile (by name, the summary last: :func:`order`), renders each to HTML (nbconvert) and writes
``reports/index.html``.  A failing notebook does not stop the others; the exit status is
non-zero if any failed."""
from __future__ import annotations

import argparse
import html
import json
import re
import sys
import time
import traceback
from pathlib import Path

from ...paths import REPORTS, ROOT
from ..seeds.kemp.profiles import DEFAULT as DEFAULT_PROFILE, PROFILES
from .. import words

NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = Path(__file__).resolve().parents[2] / "report_templates"      # nbconvert's lab page, offline


def _title(nb_path):
    import nbformat
    nb = nbformat.read(nb_path, as_version=4)
    for c in nb.cells:
        if c.cell_type == "markdown":
            for line in c.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return nb_path.stem


def _jupyter_data_paths():
    """nbconvert's templates are data files; ``pip install --target DIR`` puts them under
    DIR/share/jupyter, where Jupyter does not look.  Add such folders to JUPYTER_PATH."""
    import os
    extra = [str(Path(p) / "share" / "jupyter") for p in sys.path if p and (Path(p) / "share" / "jupyter").is_dir()]
    if extra:
        old = os.environ.get("JUPYTER_PATH", "")
        os.environ["JUPYTER_PATH"] = os.pathsep.join([*extra, *([old] if old else [])])


def render_html(executed, out_html):
    _jupyter_data_paths()
    import nbformat
    from nbconvert import HTMLExporter
    from .report_layout import for_reader
    nb = for_reader(nbformat.read(executed, as_version=4), Path(executed).stem, REPORTS)   # findings first
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True,
                            template_name="offline", extra_template_basedirs=[str(TEMPLATES)])
    title = _title(executed)
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    style = "font-family:sans-serif;margin:1em 2em"
    back = f'<p style="{style}"><a href="index.html">&larr; all reports</a></p>'
    from .your_run import is_smoke
    if is_smoke(REPORTS, Path(executed).stem):
        back += (f'<p style="{style};color:#9a6700;font-weight:bold">A smoke run: it checks the pipeline and decides '
                 "nothing; its verdicts below are not findings. The findings are the reference's, on the index.</p>")
    link = f'<p style="{style}">Code: <a href="executed/{executed.name}">{executed.name}</a> (executed notebook)</p>'
    body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + back, body, count=1)
    body = body.replace("</body>", link + back + "</body>", 1)
    out_html.write_text(body, encoding="utf-8")


CLOCK_KEYS = ("start_time", "end_time", "duration")


def without_clock(executed):
    """The executed notebook without what changes between two runs of the same inputs: the
    timestamps and durations papermill and the kernel client record, and the random id of
    papermill's injected-parameters cell (which the HTML page carries)."""
    import nbformat
    nb = nbformat.read(executed, as_version=4)
    for k in CLOCK_KEYS:
        nb.metadata.get("papermill", {}).pop(k, None)
    for c in nb.cells:
        c.metadata.pop("execution", None)
        for k in CLOCK_KEYS:
            c.metadata.get("papermill", {}).pop(k, None)
        if "injected-parameters" in c.metadata.get("tags", []):
            c.id = "injected-parameters"
    nbformat.write(nb, executed)


def _error_of(executed):
    import nbformat
    try:
        nb = nbformat.read(executed, as_version=4)
    except Exception:
        return None
    for c in nb.cells:
        for o in c.get("outputs", []):
            if o.get("output_type") == "error":
                return f"{o.get('ename')}: {o.get('evalue')}"
    return None


VERDICT_CLASSES = words.CLASSES


def write_index(results):
    """reports/index.html: one row per claim (its verdict in the same row, so the two can never
    drift apart), the notebook, where its numbers come from and its status spanning its claims.
    Nothing on it depends on the clock: a re-render of recorded results gives the same bytes."""
    import pandas as pd
    VERDICT_COLOURS = words.COLOURS
    rows = []
    for r in results:
        vfile = REPORTS / "verdicts" / f"{r['name']}.csv"
        verdicts = pd.read_csv(vfile) if vfile.exists() and r["status"] == "ok" else None
        from ..show import signed
        pairs = (list(zip(verdicts["claim"], signed.shown(verdicts))) if verdicts is not None and len(verdicts)
                 else [("-", "-")])
        if verdicts is not None and "profile" in verdicts:      # a smoke verdict is never shown bare
            pairs = [(c, f"{v} (smoke: decides nothing)" if str(p) == "smoke" else v)
                     for (c, v), p in zip(pairs, verdicts["profile"])]
        own = _row_sources(verdicts, _source(r["name"]))   # claims of one notebook on different runs: each row says its own
        span = f' rowspan="{len(pairs)}"' if len(pairs) > 1 else ""
        status = ("ok" if r["status"] == "ok" else
                  f'<span class="failed">FAILED</span><br><small>{html.escape(r.get("error") or "")}</small>')
        link = f'<a href="{r["html"]}">{html.escape(r["title"])}</a>' if r.get("html") else html.escape(r["title"])
        for i, (claim, verdict) in enumerate(pairs):
            cls = VERDICT_CLASSES.get(str(verdict), "") or signed.css_class(str(verdict))
            cells = (f'<td class="claim">{html.escape(str(claim))}</td>'
                     f'<td class="verdict{" " + cls if cls else ""}">{html.escape(str(verdict))}</td>')
            if own:
                cells += f'<td class="source">{own[i]}</td>'
            if i == 0:
                source = "" if own else f'<td class="source"{span}>{_source_html(r["name"])}</td>'
                when = _when_html(_source(r["name"])) if own else ""
                cells = f'<td class="notebook"{span}>{link}{when}</td>{cells}{source}<td class="status"{span}>{status}</td>'
            rows.append(f'<tr class="claim-row" data-notebook="{html.escape(r["name"])}">{cells}</tr>\n')
    extra = " ".join(f'{what}: <a href="{f}">{f}</a>.' for what, f in
                     (("This render's summary of every claim", "07_summary.html"), ("its verdicts as CSV", "verdicts.csv"))
                     if (REPORTS / f).exists())
    colours = "".join(f".{VERDICT_CLASSES[v]}{{color:{c};font-weight:bold}}" for v, c in VERDICT_COLOURS.items())
    from . import compare, confirmatory_html, findings_index, findings_paper, replication, second_gpu, your_run
    ref = compare.reference_rows()          # the findings are the reference's, whatever this render measured
    findings = findings_index.findings_html(REPORTS, VERDICT_CLASSES, ref)
    replication.write(REPORTS, ref)         # before the paper, which links it (the PDF: its own entry point)
    paper = findings_paper.write(REPORTS, ref)
    banner, yours = your_run.parts(REPORTS, ref)
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>apsp-repro: findings</title>
<style>body{{font-family:sans-serif;margin:1em 2em}}h1{{font-size:1.5em;margin:.2em 0 .5em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.4em .6em;vertical-align:top;text-align:left}}
table#reports td.claim,table#reports td.verdict{{white-space:nowrap}}.failed{{color:#b00;font-weight:bold}}{colours}{findings_index.CSS}{your_run.CSS}</style></head><body>
<h1>apsp-repro: what five CUDA APSP papers claim, and what we find</h1>
{banner}
{'<p>The findings as a short paper, with the method and the limitations: <a href="findings.html">findings.html</a>.</p>' if paper else ''}
{findings}
{yours}
{second_gpu.section_html(ref)}
{confirmatory_html.section_html(ref)}
<p>{extra}{' The findings as a short paper: <a href="findings.html">findings.html</a>.' if paper else ''}</p>
<details id="runs"><summary>Which runs the numbers come from ({_provenance_label(results)}), per report</summary>
<p>Each report says whether its GPU numbers were measured now or re-rendered from the recorded reference run (device and date).</p>
{_mixed_sources_html(results)}
<table id="reports"><tr><th>notebook</th><th>claim</th><th>verdict</th><th>numbers from</th><th>status</th></tr>
{''.join(rows)}</table></details></body></html>
"""
    (REPORTS / "index.html").write_text(page, encoding="utf-8")


def _row_sources(verdicts, source=None):
    """Each row's 'numbers from' (its cards and runs, from the verdict table's ``device`` and ``results``; whether
    measured now, the dates and commits from the notebook's ``source``) where the rows of one notebook name more
    than one; None where they all name the same (the notebook's source says it once)."""
    if verdicts is None or not len(verdicts) or not {"device", "results"} <= set(verdicts):
        return None
    pairs = list(zip(verdicts["device"].astype(str), verdicts["results"].astype(str)))
    if len(set(pairs)) < 2:
        return None
    how = "measured in this batch" if (source or {}).get("measured_now") else "<b>recorded</b> run"
    return [f"{how}: {html.escape(d)}<br><small>{html.escape(r)}</small>" for d, r in pairs]


def _when_html(source):
    """'recorded runs of 2026-11-23 .. 2026-11-25, commits a, b': the dates and commits of a notebook whose rows name
    their own runs (shown under its title, once)."""
    s = source or {}
    if not s or s.get("missing"):
        return ""
    how = "measured in this batch" if s.get("measured_now") else "recorded runs"
    commits = str(s.get("commit") or "")
    return (f"<br><small>{how} of {html.escape(str(s.get('date') or '-'))}, "
            f"commit{'s' if ',' in commits else ''} {html.escape(commits or '-')}</small>")


def _source(name):
    f = REPORTS / "sources" / f"{name}.json"
    return json.loads(f.read_text()) if f.exists() else None


def _source_html(name):
    s = _source(name)
    if s is None:
        return "-"
    if s.get("missing"):        # a study whose own measurement has not run yet (notebook 10 before the device run)
        return html.escape(s["missing"])
    how = "measured in this batch" if s["measured_now"] else "<b>recorded</b> run"
    return (f"{how}: {html.escape(str(s['device']))}, {html.escape(s['date'])}, commit {html.escape(s['commit'])}"
            f"<br><small>{html.escape(s['run'])}</small>")


def _provenance_label(results):
    """The runs' kind for the summary line: where every report re-rendered a recorded run, 'recorded runs' and the
    profiles those runs were measured under (the render's own profile then only names where the figures went, so it
    is not shown); else the profiles that measured."""
    sources = [s for s in (_source(r["name"]) for r in results) if s and not s.get("missing")]
    if sources and not any(s["measured_now"] for s in sources):
        recorded = ", ".join(dict.fromkeys(p.strip() for s in sources for p in str(s.get("profile") or "").split(",")
                                           if p.strip())) or "not recorded"
        return f"<b>recorded runs</b>, nothing measured now; measured under profile {html.escape(recorded)}"
    profiles = ", ".join(sorted({r["profile"] for r in results})) or "-"
    return f"profile <b>{html.escape(profiles)}</b>"


def _mixed_sources_html(results):
    """Which run each study's reports draw on; said in red only where one study's reports draw on more than one run
    (its numbers would not be comparable row by row).  Different studies come from their own batches by design."""
    from ..registry import of_notebook
    by_study = {}
    for r in results:
        s = _source(r["name"])
        if s and not s.get("missing"):
            study = of_notebook(r["name"])
            # the title without its parenthesis ("(issue 14; ...)": a reader does not know the issue numbers)
            title = re.sub(r"\s*\(.*?\)", "", study.title) if study else r["name"]
            by_study.setdefault(title, []).append(s["run"])
    if not by_study:
        return ""
    mixed = {k: sorted(set(v)) for k, v in by_study.items() if len(set(v)) > 1}
    each = "; ".join(f"{html.escape(k)}: {html.escape(' + '.join(sorted(set(v))))}" for k, v in by_study.items())
    out = f"<p>Each study's numbers come from its own recorded batch: {each}.</p>"
    if mixed:
        out += ('<p class="failed">' + "; ".join(f"{html.escape(k)} draws on {len(v)} different runs ({html.escape(', '.join(v))})"
                                             for k, v in mixed.items())
                + ": its numbers are not comparable row by row.</p>")
    return out


def _status_file():
    return REPORTS / "status.json"


def _merge_status(results):
    """Keep the entries of notebooks this run did not execute (``--only``), so that the index
    lists every report; this run's entries replace older ones."""
    old = []
    if _status_file().exists():
        try:
            old = json.loads(_status_file().read_text())
        except ValueError:
            old = []
    names = {r["name"] for r in results}
    merged = sorted([r for r in old if r.get("name") not in names and (REPORTS / f"{r.get('name')}.html").exists()]
                    + results, key=lambda r: r["name"])
    # no durations on disk: the same render gives the same files (the console shows the times)
    _status_file().write_text(json.dumps([{k: v for k, v in r.items() if k != "seconds"} for r in merged], indent=1))
    return merged


def order(notebooks):
    """The order of execution: by name, except that a summary notebook (``*_summary``), which
    collects the others' verdict tables, runs after all of them (08_hochberg, 10_iitkgp ... sort after
    07_summary by name).  The index lists them by name."""
    return sorted(notebooks, key=lambda p: (Path(p).stem.endswith("_summary"), Path(p).name))


def run(profile=DEFAULT_PROFILE, only=None, source="measure", progress=True, stage="all", processes=None, batch=None):
    """Measure (the campaign) and render (execute the notebooks; ``only``: comma-separated parts
    of their names) under one batch id (``batch``: now unless given), which every notebook gets as its ``batch``
    parameter: the notebooks of one batch read one campaign."""
    import os
    batch = batch or time.strftime("%Y%m%d-%H%M%S")
    if source == "measure" and stage in ("all", "measure"):
        from ..seeds.kemp.measure import measure
        measure(profile, processes, batch)
    if stage == "measure":
        return 0
    import papermill as pm
    (REPORTS / "executed").mkdir(parents=True, exist_ok=True)
    # progress bars belong on the console (papermill's, per cell), not in the rendered reports
    os.environ.setdefault("TQDM_DISABLE", "1")
    print(f"batch {batch}", flush=True)
    nbs = order(p for p in NOTEBOOKS.glob("*.ipynb") if not p.name.startswith("_"))
    if only:
        parts = [o.strip() for o in only.split(",") if o.strip()]
        nbs = [p for p in nbs if any(o in p.stem for o in parts)]
        if not nbs:
            raise SystemExit(f"--only {only!r} matches no notebook in {NOTEBOOKS}")
    results = []
    for nb in nbs:
        name = nb.stem
        executed = REPORTS / "executed" / nb.name
        r = dict(name=name, title=_title(nb), profile=profile, status="ok", seconds=0.0)
        t0 = time.time()
        print(f"== {name} (profile {profile})", flush=True)
        declared = pm.inspect_notebook(str(nb))
        params = {k: v for k, v in dict(profile=profile, source=source, batch=batch).items() if k in declared}
        try:
            pm.execute_notebook(str(nb), str(executed), parameters=params, cwd=str(NOTEBOOKS),
                                progress_bar=progress, kernel_name="python3")
        except Exception as e:
            r["status"] = "failed"
            r["error"] = _error_of(executed) or f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        r["seconds"] = time.time() - t0
        if executed.exists():
            try:
                without_clock(executed)
                render_html(executed, REPORTS / f"{name}.html")
                r["html"] = f"{name}.html"
            except Exception as e:
                r.setdefault("error", f"HTML rendering failed: {e}")
                r["status"] = "failed"
                traceback.print_exc()
        results.append(r)
        print(f"   {r['status']} in {r['seconds']:.0f} s" + (f": {r.get('error')}" if r["status"] != "ok" else ""), flush=True)
    write_index(_merge_status(results))
    failed = [r for r in results if r["status"] != "ok"]
    print(f"\n{len(results) - len(failed)} notebooks ok, {len(failed)} failed; index: {REPORTS / 'index.html'}")
    for r in failed:
        print(f"  FAILED {r['name']}: {r.get('error')}")
    return 1 if failed else 0


def main(argv=None):
    p = argparse.ArgumentParser(description="Execute the claim notebooks and render the reports.")
    p.add_argument("--profile", default=DEFAULT_PROFILE, choices=sorted(PROFILES))
    p.add_argument("--only", default=None, help="run only notebooks whose name contains this (comma-separated list)")
    p.add_argument("--source", default="measure", choices=["measure", "recorded"],
                   help="GPU parts: measure now (falls back to recorded without a GPU) or use recorded results")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--stage", default="all", choices=["all", "measure", "render"],
                   help="measure: run the campaign only; render: execute the notebooks on what is there")
    p.add_argument("--processes", default=None,
                   help="which independent processes of the campaign to run now, e.g. 0 or 1,2 (default: all)")
    p.add_argument("--batch", default=None, help="batch id (default: now); a split campaign names the same one")
    p.add_argument("--lease", type=int, default=None,
                   help="measure only machine lease K (1..the profile's processes) of the campaign: its main process "
                        "and its share of the satellites; reboot between leases, one --batch (docs/your-gpu.md)")
    a = p.parse_args(argv)
    procs = [int(x) for x in a.processes.split(",")] if a.processes else None
    if a.lease is not None:
        from ..seeds.kemp.profiles import processes_of_lease
        try:
            procs = processes_of_lease(a.profile, a.lease)
        except ValueError as e:
            p.error(str(e))
    return run(a.profile, a.only, a.source, not a.no_progress, a.stage, procs, a.batch)


if __name__ == "__main__":
    sys.exit(main())
