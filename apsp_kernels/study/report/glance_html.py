"""The index's at-a-glance block in HTML: the figure of every claim with a paper's number (glance_plot), the
same rows as text for a reader who cannot see the figure or wants to copy a number, the tally of verdicts
split by direction and by what they rest on, and the claims without a paper's number (orderings, trends,
events) in a compact table with our numbers.  Claims are named by their C-number and a short title only:
no identifier reaches this part of the page."""
from __future__ import annotations

import html

import pandas as pd

from ..show import signed
from . import glance as G
from . import glance_plot as GP

CSS = """
table.glance{border-collapse:collapse;font-size:12.5px;width:100%;margin:.3em 0 .8em}
table.glance td,table.glance th{border:0;border-bottom:1px solid #eaeef2;padding:.15em .35em;vertical-align:top;text-align:left}
table.glance th{font-weight:600;color:#57606a}
table.glance td.n{font-weight:bold;white-space:nowrap}
table.glance td.v{white-space:nowrap}
table#orderings td.ours{width:40%}
table#orderings span.ratio{color:#57606a;font-size:11.5px}
ul.tally{list-style:none;padding:0;margin:.2em 0 .8em;font-size:13.5px}ul.tally li{margin:.1em 0}
.glyph{font-weight:bold}
h3.glance{font-size:15px;margin:.8em 0 .2em}
"""
BASIS_COLUMNS = ("measured", "within tolerance only", "computed", "bound", "-")


def _verdict(verdict):
    colour, glyph = G.LOOK.get(verdict, ("#57606a", "\u2022"))
    return f'<span class="glyph" style="color:{colour}">{glyph}</span> {html.escape(verdict)}'


def alt_text(g):
    """The figure in words: what it draws, then each row's name, title, numbers and verdict."""
    rows = "; ".join(f"{r['name']} {r['title']}: {' / '.join(G.lines(r, r['unit']))}, {r['verdict']}"
                     for _, r in g.iterrows())
    return (f"Every claim with a paper's number, {len(g)} rows grouped by paper: for each, ours divided by the "
            "paper's number on a log axis labelled at the top and the bottom (right: measured exceeds the claim), "
            "the paper's band and its tolerance shaded, the marker's shape saying what the verdict rests on. "
            f"The rows: {rows}.")


def figure(g, reports):
    """The figure (written to reports/glance.png) with its caption, or a line saying there is none."""
    if g is None or not len(g) or not GP.plot(g, reports / G.GLANCE_PNG):
        return '<p class="nonum">No claim with a number in these reports: no forest plot.</p>'
    return (f'<figure><img id="forest" src="{G.GLANCE_PNG}" alt="{html.escape(alt_text(g))}">'
            f"<figcaption>The {len(g)} claims that state a number: the paper's number and ours, printed on each row, "
            "and their ratio drawn on one log axis (1: as claimed; right: we measured more). Shaded: the paper's "
            "number or band, lighter where the verdict's tolerance widens it. Shape: what the verdict rests on. "
            "C-numbers are the claims' places in data/claims.yaml. Just below, \u2018The plot's rows as text\u2019 "
            "opens to every row's numbers in full; the table after it, of orderings, trends and events, holds the "
            "claims without a paper's number."
            "</figcaption></figure>")


def rows_table(g):
    """The figure's rows as text, collapsed under the figure."""
    body = "".join(f'<tr><td class="n">{html.escape(r["name"])}</td><td>{html.escape(r["title"])}</td>'
                   f'<td class="numbers">{"<br>".join(html.escape(t) for t in G.lines(r, r["unit"]))}</td>'
                   f'<td class="v">{_verdict(r["verdict"])}</td><td>{html.escape(G.BASIS_WORDS.get(r["basis"], r["basis"]))}</td></tr>'
                   for _, r in g.iterrows())
    return (f'<details id="glance-rows"><summary>The plot\'s {len(g)} rows as text</summary><table class="glance">'
            "<tr><th></th><th>claim</th><th>the paper's number \u00b7 ours [95% CI]</th><th>verdict</th>"
            f"<th>rests on</th></tr>{body}</table></details>")


def others_table(o):
    """The claims without a paper's number, with our numbers and verdicts."""
    if o is None or not len(o):
        return ""
    ratio = lambda r: f'<br><span class="ratio">{html.escape(r["ratio"])}</span>' if r.get("ratio") else ""
    body = "".join(f'<tr><td class="n"><a href="{html.escape(r["notebook"])}.html">{html.escape(r["name"])}</a></td>'
                   f'<td>{html.escape(r["title"])}</td><td class="ours">{html.escape(r["ours"])}{ratio(r)}</td>'
                   f'<td class="v">{_verdict(r["verdict"])}</td></tr>'
                   for _, r in o.iterrows())
    return (f'<h3 class="glance">Orderings, trends and events: {len(o)} claims without a paper\'s number</h3>'
            '<table class="glance" id="orderings"><tr><th></th><th>the paper claims</th><th>ours</th><th>verdict</th></tr>'
            f"{body}</table>")


def tally_frame(v):
    """The verdicts counted by direction (signed) and by what they rest on: verdicts down, bases across."""
    basis = v["basis"].fillna("-").astype(str).replace("", "-") if "basis" in v else pd.Series("-", index=v.index)
    t = pd.crosstab(pd.Series(signed.shown(v), index=v.index, name="verdict"), basis.rename("basis"))
    cols = [c for c in BASIS_COLUMNS if c in t] + [c for c in t if c not in BASIS_COLUMNS]
    order = [w for w in (*signed.ORDER, *sorted(set(t.index) - set(signed.ORDER))) if w in t.index]
    return t.loc[order, cols]


def tally(v):
    """:func:`tally_frame` as a short list, one verdict a line with its total and its bases: a list, not a table,
    since every column of a table of counts would need a unit in its head."""
    t = tally_frame(v)
    items = "".join(f"<li>{_verdict(w)}: <b>{int(t.loc[w].sum())}</b> \u2014 "
                    + ", ".join(f"{int(t.loc[w, c])} {html.escape(G.BASIS_WORDS.get(c, c))}" for c in t.columns if t.loc[w, c])
                    + "</li>" for w in t.index)
    return f'<ul class="tally" id="tally">{items}</ul>'
