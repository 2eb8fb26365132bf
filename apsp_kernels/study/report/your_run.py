"""The index's part on the user's own run: a line on its first screen (nothing measured here; a smoke run that
checks the pipeline; or how a measured run compares) and a section setting every claim the render measured beside
the reference (compare.py decides each outcome).  Reads the notebooks' verdict tables (``reports/verdicts``) and the
provenance and records of the runs they name; writes nothing."""
from __future__ import annotations

import html
import json
from pathlib import Path

import pandas as pd

from ... import paths
from . import compare


def user_rows(reports):
    """Every notebook's own verdict table of this render (``<reports>/verdicts/<nb>.csv``), or None."""
    own = sorted((Path(reports) / "verdicts").glob("*.csv"))
    return pd.concat([pd.read_csv(f).assign(notebook=f.stem) for f in own], ignore_index=True) if own else None


def _run_dir(results):
    p = Path(str(results))
    return p if p.is_absolute() else paths.ROOT / p


def provenance(run_dir):
    """The first process's provenance of a run folder ({} where none)."""
    found = sorted(Path(run_dir).glob("provenance-*.json")) + sorted(Path(run_dir).glob("*/provenance*.json"))
    return json.loads(found[0].read_text()) if found else {}


def records_errors(run_dir):
    """The algorithm, n and error of every record of a run folder (only what a refusal needs)."""
    frames = []
    for f in sorted(Path(run_dir).glob("process-*.csv")):
        head = pd.read_csv(f, nrows=0).columns
        if {"algorithm", "n", "error"} <= set(head):
            frames.append(pd.read_csv(f, usecols=["algorithm", "n", "error"]))
    return pd.concat(frames, ignore_index=True) if frames else None


def gather(reports, ref):
    """(comparison table, the user's provenance, [(what, yours, reference's)], refused sizes) of this render."""
    mine = compare.measured_here(user_rows(reports), ref)
    if mine is None or not len(mine):
        return compare.compare(None if mine is None else mine, ref), {}, [], None
    runs = list(dict.fromkeys(mine["results"].astype(str)))
    prov = provenance(_run_dir(runs[0]))
    refused = compare.refused_sizes(pd.concat([e for r in runs if (e := records_errors(_run_dir(r))) is not None]
                                              or [pd.DataFrame(columns=["algorithm", "n", "error"])]))
    from ..method import claims as claims_mod
    table = compare.compare(mine, ref, refused, claims_mod.load())
    return table, prov, compare.versions(prov, provenance(compare.reference_table().parent)), refused


def reference_line(ref_prov):
    """What the findings are: the reference verdicts, the card and the batch they were measured on."""
    return (f'<span class="reference">The findings are the study\'s reference verdicts, recorded on '
            f'{html.escape(str((ref_prov or {}).get("gpu") or "the reference GPU"))} (batch '
            f'{html.escape(compare.REFERENCE_BATCH)} and each study\'s own).</span> ')


def banner_html(table, prov, gpu=None, lead=""):
    """The first screen's line on the user's run, after ``lead`` (what the findings are), in one paragraph so that
    the findings still fit the first screen; ``gpu``: (available, why) of this machine."""
    if table is None or not len(table):
        why = f" (no GPU: {html.escape(gpu[1])})" if gpu and not gpu[0] else ""
        return (f'<p class="your-run">{lead}<b>Nothing was measured on this machine</b>{why}: every verdict below is the '
                "recorded reference run's. To compare your GPU with it: <code>./run_all.sh --profile decide</code> "
                "(docs/your-gpu.md).</p>")
    said = html.escape(compare.sentence(table, dict(date=str(prov.get("timestamp") or "")[:10])))
    cls = "your-run smoke" if set(table["profile"].astype(str)) == {compare.PIPELINE} else "your-run"
    return f'<p class="{cls}">{lead}<b>Your run is a comparison, not the findings.</b> {said} <a href="#your-run">Claim by claim</a>.</p>'


def rows_html(table, claims, mark=True):
    """One table row per claim of a comparison (compare.compare): the claim, the paper's number, the reference's
    number and verdict, the other run's, and the outcome with why.  ``mark``: each row carries its claim id
    (``data-claim``), as this render's own comparison does; a recorded batch's section (second_gpu) does not."""
    from . import findings_text as FT
    out = []
    for r in table.to_dict("records"):
        cls = {compare.SAME: "c-same", compare.DIFFERENT: "c-different"}.get(r["outcome"], "c-undecided")
        tr = f'<tr data-claim="{html.escape(str(r["claim"]))}">' if mark else "<tr>"
        out.append(f'{tr}<td>{html.escape(FT.claim_words(r["claim"], claims))}</td>'
                   f'<td>{html.escape(str(r["claimed"]))}</td>'
                   f'<td>{html.escape(str(r["reference"]))}<br><small>{html.escape(r["reference_verdict"])}</small></td>'
                   f'<td>{html.escape(str(r["yours"]))}<br><small>{html.escape(r["yours_verdict"])}</small></td>'
                   f'<td class="{cls}"><b>{html.escape(r["outcome"])}</b><br><small>{html.escape(r["why"])}</small></td></tr>')
    return "".join(out)


def section_html(table, prov, versions, refused, total=None):
    """The comparison section (below the findings): the user's machine, then one row per claim."""
    if table is None or not len(table):
        return ""
    from ..method import claims as claims_mod
    C = claims_mod.load()
    p = prov or {}
    device = p.get("gpu") or ", ".join(dict.fromkeys(table["device"].dropna().astype(str))) or "no GPU recorded"
    profile = p.get("profile") or ", ".join(dict.fromkeys(table["profile"].dropna().astype(str))) or "-"
    machine = (f"Your machine: {html.escape(str(device))}, profile {html.escape(str(profile))}, measured "
               f"{html.escape(str(p.get('timestamp') or 'at a time not recorded')[:16].replace('T', ' '))}"
               + (f" UTC, CUDA runtime {html.escape(compare._version('cuda_runtime_version', p.get('cuda_runtime_version')))}, "
                  f"CuPy {html.escape(str(p.get('cupy') or 'not recorded'))}" if p else ""))
    diff = "".join(f"<li>{html.escape(w)}: yours {html.escape(a)}, the reference's {html.escape(b)}</li>" for w, a, b in versions)
    lacks = ""
    if refused is not None and len(refused):
        lacks = ("<p><b>Sizes this GPU's memory refused</b> (their claims are not decidable here): "
                 + "; ".join(f"{html.escape(str(a))} at n = {int(n)}" for a, n in refused[["algorithm", "n"]].itertuples(index=False))
                 + ".</p>")
    rows = [rows_html(table, C)]
    smoke = set(table["profile"].astype(str)) == {compare.PIPELINE}
    left = (total or 0) - len(table)
    rest = (f" The other {left} claims were not measured here: their reports re-rendered the recorded batches "
            "(notebooks 08-10 measure with <code>python -m apsp_kernels.study measure &lt;study&gt;</code>)."
            if left > 0 else "")
    return f"""<h2 id="your-run">Your run beside the reference</h2>
<p>{machine}.</p>{'<p>Not as the reference:</p><ul class="versions">' + diff + '</ul>' if diff else ''}{lacks}
<p>{html.escape(compare.sentence(table, dict(date=str(p.get('timestamp') or '')[:10])))}{rest}</p>
{f'<details><summary>The {len(table)} claims it measured, none decided</summary>' if smoke else ''}<table id="compare"><tr><th>the paper claims</th><th>paper</th><th>reference [95% CI]<br><small>verdict</small></th>
<th>yours [95% CI]<br><small>verdict</small></th><th>outcome<br><small>why</small></th></tr>
{''.join(rows)}</table>{'</details>' if smoke else ''}"""


def parts(reports, ref):
    """(the first screen's lines, the comparison section) of the index for this render."""
    from ... import gpu_device
    table, prov, versions, refused = gather(reports, ref)
    banner = banner_html(table, prov, gpu_device.gpu_status(), lead=reference_line(provenance(compare.reference_table().parent)))
    return banner, section_html(table, prov, versions, refused, len(ref) if ref is not None else None)


def is_smoke(reports, name):
    """Whether a report's verdicts were measured under the smoke profile (its verdict table says so)."""
    f = Path(reports) / "verdicts.csv" if name.endswith("_summary") else Path(reports) / "verdicts" / f"{name}.csv"
    if not f.exists():
        return False
    prof = pd.read_csv(f, usecols=lambda c: c == "profile")
    return "profile" in prof and (prof["profile"].astype(str) == compare.PIPELINE).any()


CSS = (".your-run{border-left:4px solid #0969da;padding:.2em .8em;margin:.4em 0;background:#f6f8fa;font-size:13px}"
       ".your-run.smoke{border-color:#9a6700}.c-same{color:#1a7f37}.c-different{color:#cf222e}.c-undecided{color:#57606a}")
