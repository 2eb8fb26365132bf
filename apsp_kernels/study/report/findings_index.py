"""The top of reports/index.html: the findings in sentences (findings_text) with the tally of verdicts by
direction and basis and the claims without a paper's number (orderings, trends) beside the at-a-glance
figure of every claim with one (glance_html), then one row per claim: the claim in words, the paper's number, ours with its 95% interval (end-to-end and kernel-only where both exist),
the verdict with what it rests on (the rows' ``basis`` column; '-' where the rows have none) and one
line of why.  The runner passes the reference verdict rows (compare.py); without them, the render's own
(reports/verdicts.csv)."""
from __future__ import annotations

import html
import re

import pandas as pd

from ..method import claims as claims_mod
from . import findings_text as FT
from . import glance, glance_html
from ..show import signed

FOREST_PNG = "forest.png"
WHY_CHARS = 150          # the one line of why; the rest of the reason goes into the row's details

CSS = """
.findings{display:flex;gap:1.5em;align-items:flex-start}
.findings .words{flex:0 0 36%;font-size:15px;line-height:1.4}
.findings .words li{margin-bottom:.45em}
.findings .glance-figure{flex:1 1 auto;min-width:0}
.findings figure{margin:0}
.findings figure img{width:100%;max-width:860px;height:auto;display:block}
.findings figcaption{font-size:13px;color:#57606a}
.nonum{font-size:12.5px;color:#57606a}
.findings p.tally{margin:.4em 0 0;font-size:13px;color:#57606a}
table#claims{table-layout:fixed;width:100%;border-collapse:collapse;font-size:13.5px}
table#claims td,table#claims th{word-break:break-word;overflow-wrap:anywhere}
table#claims col.c-words{width:31%}table#claims col.c-paper{width:11%}table#claims col.c-ours{width:22%}
table#claims col.c-verdict{width:10%}table#claims col.c-why{width:26%}
table#claims small{color:#57606a}
details.why summary{cursor:pointer;color:#0969da}
""" + glance_html.CSS


def rows(reports):
    """The verdict rows: reports/verdicts.csv (notebook 07), else every notebook's own table, else None."""
    v = FT.load_rows(reports)
    if v is None or v.empty:              # notebook 07 did not run: the notebooks' own tables of this folder
        own = sorted((reports / "verdicts").glob("*.csv"))
        v = pd.concat([pd.read_csv(f).assign(notebook=f.stem) for f in own], ignore_index=True) if own else None
    return v if v is not None and not v.empty else None


def _txt(x):
    s = "" if x is None or (isinstance(x, float) and x != x) else str(x).strip()
    return "" if s in ("-", "nan") else s


def _paper(r, c):
    out = html.escape(_txt(r.get("claimed")) or "-")
    kemp = _txt(r.get("kemp"))
    if kemp and kemp != _txt(r.get("claimed")):
        out += f"<br><small>Kemp measured {html.escape(kemp)}</small>"
    return out


def _ours(r):
    out = html.escape(_txt(r.get("ours_text")) or "-")
    both = [(w, _txt(r.get(k))) for w, k in (("end-to-end", "ours_end_to_end"), ("kernel", "ours_kernel"))]
    both = [(w, t) for w, t in both if t and not t.startswith("n/a")]
    if len(both) == 2:
        out += "<br><small>" + "; ".join(f"{w} {html.escape(t)}" for w, t in both) + "</small>"
    cpu = _txt(r.get("best_cpu"))
    if cpu and FT.best_cpu_of(cpu):
        out += f"<br><small>vs best CPU: {html.escape(cpu)}</small>"
    return out


def _why(r):
    why = _txt(r.get("reason")) or "-"
    if len(why) <= WHY_CHARS:
        return html.escape(why)
    cut = why.rfind(" ", 0, WHY_CHARS)
    cut = cut if cut > 40 else WHY_CHARS
    return (f'{html.escape(why[:cut])} ...<details class="why"><summary>the whole reason</summary>'
            f"{html.escape(why)}</details>")


def report_name(notebook):
    """'report 02': how a reader's page names the report a claim is tested in (a claim's identifier means nothing
    to a reader; it stays in the row's data-claim attribute for tests and scripts)."""
    nb = str(notebook or "")
    return f"report {nb[:2]}" if nb[:2].isdigit() else "its report"


def first_screen(html_text):
    """The part of the index a reader sees before the table of every claim: the findings, the plot and the list of
    claims without a number."""
    return html_text.split("<h2>Every claim</h2>")[0]


def visible_text(html_text):
    """What a reader reads of a piece of HTML: its text without tags and attributes (ids in data-* attributes
    and links' targets are not shown)."""
    import re
    return html.unescape(re.sub(r"<[^>]*>", " ", html_text))


def table_html(v, claims, verdict_classes):
    body, name = [], glance.names(claims)
    for _, r in v.iterrows():
        cid, verdict = str(r["claim"]), str(r["verdict"])
        c = claims.get(cid) or {}
        nb = _txt(r.get("notebook")) or c.get("notebook", "")
        basis = _txt(r.get("basis")) if "basis" in v else ""
        verdict = signed.verdict_text(r)
        cls = verdict_classes.get(verdict, "") or signed.css_class(verdict)
        body.append(
            f'<tr class="claim-row" data-claim="{html.escape(cid)}" data-notebook="{html.escape(nb)}">'
            f'<td class="words"><b>{name.get(cid, "")}</b> {html.escape(FT.claim_words(cid, claims))}<br><small><a href="{html.escape(nb)}.html">'
            f'{html.escape(report_name(nb))}</a></small></td><td class="paper">{_paper(r, c)}</td><td class="ours">{_ours(r)}</td>'
            f'<td class="verdict {cls}">{html.escape(verdict)}<br><small class="basis">{html.escape(basis or "-")}</small></td>'
            f'<td class="why">{_why(r)}</td></tr>\n')
    return ('<table id="claims"><colgroup><col class="c-words"><col class="c-paper"><col class="c-ours">'
            '<col class="c-verdict"><col class="c-why"></colgroup>'
            "<tr><th>the paper claims</th><th>paper's number</th><th>ours [95% CI]</th><th>verdict<br><small>rests on"
            "</small></th><th>why</th></tr>\n" + "".join(body) + "</table>")


def findings_html(reports, verdict_classes, v=None):
    """The findings block of the index ('' where no verdict rows exist); writes reports/glance.png.  ``v``: the
    verdict rows to show (the reference's), else this render's."""
    v = v if v is not None else rows(reports)
    if v is None:
        return '<p class="failed">No verdict rows in this batch: no findings to show (see the reports below).</p>'
    claims = claims_mod.load()
    said = FT.sentences(v, claims)
    g = glance.rows(v, claims)
    words = "".join(f"<li>{html.escape(s)}</li>" for s in said)
    return f"""<div class="findings"><div class="words"><ul id="findings">{words}</ul>
<p class="tally">Every verdict, by direction and by what it rests on:</p>{glance_html.tally(v)}{solver_html()}</div>
<div class="glance-figure">{glance_html.figure(g, reports)}{glance_html.rows_table(g) if len(g) else ""}</div></div>
{glance_html.others_table(glance.others(v, claims))}
<h2>Every claim</h2>
{table_html(v, claims, verdict_classes)}"""


def solver_html():
    """One line on the solver (notebook 11's finding, computed from the recorded structure-suite rows), for the many
    readers who come for ``shortest_paths`` rather than the papers, below the claims' findings (which keep the first
    screen); '' where no rows are recorded."""
    try:
        from ..seeds.tuned import suite as SU
        rows, auto = SU.load()
    except (OSError, ValueError, KeyError):
        return ""
    if not len(rows):
        return ""
    said = html.escape(SU.finding(rows, auto, after=SU.load_scatter(), first_calls=SU.load_first_calls()))
    said = re.sub(r"`([^`]+)`", r"<code>\1</code>", said)           # the finding's Markdown code spans
    return f'<p class="solver"><b>The solver.</b> {said} (<a href="11_tuned.html">11_tuned</a>)</p>'


def paper_numbers(v):
    """For tests: {claim: (paper's number, ours)} as the table shows them."""
    return {str(r["claim"]): (_txt(r.get("claimed")) or "-", _txt(r.get("ours_text")) or "-") for _, r in v.iterrows()}


