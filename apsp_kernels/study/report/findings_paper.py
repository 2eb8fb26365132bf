"""reports/findings.html: the findings as a short paper, written from the same verdict rows as the
index (so the two cannot drift apart): per seed what was claimed, what we found and why it may differ
(the hardware ratios of notebook 07 as a hypothesis with its ranges), the best-CPU comparison, and the
limitations of the study (stand-ins, when the tolerances and rules were set, stability is not validity,
leases as the independent unit).  The history in LIMITS is what git log records (hashes, times); every
number about the measurements is computed from the rows here."""
from __future__ import annotations

import base64
import html

from ..method import claims as claims_mod
from . import findings_index as FI
from . import findings_text as FT
from . import forest as forest_mod
from . import reasons
from ..show import signed
from .forest import SEED_NAMES

SEED_TITLES = {"000": "Kemp 2012 (thesis; also Tran 2010 and Katz & Kider 2008 as he reports them)",
               "001": "Pathak et al., IIT Kharagpur", "002": "Hochberg 2012", "003": "Sing et al., TU Wien",
               "004": "NTHU blocked APSP report"}

# What git log and the recorded runs say about when each choice was made (no measured number here).
LIMITS = (
    "Seed 001's graphs: six of its SNAP graphs are replaced by generated stand-ins of the same size and "
    "density where the originals are not in the repository; its verdicts are about those stand-ins.",
    "When the tolerances were set: the factor 1.25 on every claimed band arrived in commit 7d86f8f "
    "(22 Nov 21:21 UTC), after the paper batch 20261122-200000 had been committed (20:08) and seen; "
    "harish_time_growth was added in that same commit. The crossover factor 2 arrived in 3e82503 (18:51) "
    "after the quick sweep up to 8,192 vertices. No tolerance value changed after 7d86f8f. "
    "They were therefore not declared before measuring.",
    "Stability is not validity: the method was last changed on {method_changed} (data/analysis-changes.csv "
    "dates each change and the verdicts it moved); the changes of "
    "23-24 Nov followed verdicts that flipped between runs, so agreement between runs measures the method's "
    "stability under the data it was tuned on, not that the verdicts are right.",
    "Leases are the independent unit: processes that ran on the same machine lease share its speed; "
    "intervals that treat each process as independent are too narrow where several processes share a lease.",
    "A claim judged only within the tolerance (the interval excludes the paper's number) is shown as such "
    "where the verdict rows carry a basis; where they do not, the basis column reads '-'.",
)



def _replication_link(files):
    """The link to the replication report written beside this page (its HTML, and its PDF where one was printed)."""
    if not files:
        return ""
    pdf = [f for f in files if f.endswith(".pdf")]
    html_ = [f for f in files if f.endswith(".html")]
    return (" &middot; the same findings as a replication report in ReScience C's shape: "
            + (f'<a href="{html_[0]}">{html_[0]}</a>' if html_ else "")
            + (f' (<a href="{pdf[0]}">PDF</a>)' if pdf else ""))

CSS = """body{font-family:Georgia,serif;max-width:60em;margin:1.5em auto;padding:0 1em;line-height:1.45}
h1,h2,h3{font-family:sans-serif}table{border-collapse:collapse;table-layout:fixed;width:100%;font-size:13px;
font-family:sans-serif}td,th{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left;
word-break:break-word;overflow-wrap:anywhere}small{color:#57606a}img{max-width:100%}.c-same{color:#1a7f37}.c-different{color:#cf222e}.c-undecided{color:#57606a}
details.tally{font-size:13px;color:#57606a}details.tally summary{cursor:pointer}"""


def _rows_of_seed(v, claims, seed):
    return v[[FT.seed_of((claims.get(c) or {}).get("where", w)) == seed for c, w in zip(v["claim"], v["where"])]]


def _claims_table(rows, claims):
    out = ['<table><colgroup><col style="width:34%"><col style="width:12%"><col style="width:24%">'
           '<col style="width:12%"><col style="width:18%"></colgroup><tr><th>claimed</th><th>paper</th><th>ours [95% CI]'
           '</th><th>verdict <small>(rests on)</small></th><th>why</th></tr>']
    for _, r in rows.iterrows():
        basis = FI._txt(r.get("basis")) if "basis" in rows else ""
        out.append(f"<tr><td>{html.escape(FT.claim_words(r['claim'], claims))}</td>"
                   f"<td>{FI._paper(r, claims.get(r['claim']) or {})}</td><td>{FI._ours(r)}</td>"
                   f"<td>{html.escape(signed.verdict_text(r))} <small>({html.escape(basis or '-')})</small></td>"
                   f"<td>{FI._why(r)}</td></tr>")
    return "\n".join(out) + "</table>"


def _why_they_differ(differ, claims, said):
    """Per claim that differs or is not reproduced: the reasons a person would give (reasons.py: what sets our
    measurement apart from the paper's, each with what it rests on); the rule's tally of sizes stays one click away."""
    if differ.empty:
        return ""
    items = "".join(
        f"<li>{html.escape(FT.claim_words(r['claim'], claims).rstrip('.'))}: {html.escape(said.get(r['claim'], ''))}"
        f'<details class="tally"><summary>how the rule decided</summary>{html.escape(str(r["reason"]))}</details></li>'
        for _, r in differ.iterrows())
    return f"<h3>Why they differ</h3><ul>{items}</ul>"


def _seed_section(v, claims, seed, said=None):
    said = said if said is not None else reasons.table(v, claims).set_index("claim")["why"].to_dict()
    rows = _rows_of_seed(v, claims, seed)
    if rows.empty:
        return ""
    counts = FT.verdict_counts(rows) or ""
    differ = rows[rows["verdict"].isin(["differs in magnitude", "not reproduced"])]
    why = ""
    if seed == "000":
        from . import summary
        table, sentence = summary.implied_cpu_gain(claims, v)
        if len(table):
            why = ("<h3>Why the speed-ups may differ: a hypothesis</h3><p>If only the GPU had changed, Kemp's "
                   "speed-up times the H100/GTX 470 ratio of what bounds each kernel (vendor peaks; the bound is an "
                   "assumption) would be ours; what is left is the implied gain of the CPU baseline, given as the "
                   "range from Kemp's range and our 95% interval.</p>" + table.to_html(index=False, border=0, escape=True)
                   + f"<p>{html.escape(sentence.replace('`', ''))}</p>")
        kemp = FT.kemp_factors(v, claims)
        why = (f"<p>{html.escape(kemp)}</p>" if kemp else "") + why
    why += _why_they_differ(differ, claims, said)
    return (f'<h2 id="seed-{seed}">Seed {seed}: {html.escape(SEED_TITLES.get(seed, SEED_NAMES.get(seed, "")))}</h2>'
            f"<p>{html.escape(counts)}</p>{why}<h3>What was claimed and what we found</h3>{_claims_table(rows, claims)}")


def _best_cpu(v, claims):
    said = FT.best_cpu_comparison(v, claims)
    rows = [(FT.claim_words(r["claim"], claims), r["best_cpu"]) for _, r in v.iterrows() if FT.best_cpu_of(r.get("best_cpu"))]
    if not rows:
        return ""
    return ("<h2>Against the best CPU code</h2>" + (f"<p>{html.escape(said)}</p>" if said else "")
            + "<table><tr><th>claim</th><th>the same GPU code / the best CPU code [95% CI]</th></tr>"
            + "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(str(b))}</td></tr>" for a, b in rows) + "</table>")


def page(v, claims=None, forest_src=None, source="the verdict rows of this render (verdicts.csv)", replication=(),
         second_gpu="", confirmatory=""):
    """The whole findings paper as HTML, from the verdict rows ``v``; ``forest_src``: the forest plot's
    image source (a data: URI in the written page, which then stands alone), else the index's PNG; False: no plot
    (no claim with a number); ``replication``: the file names of the replication report written beside it, to link;
    ``second_gpu``: the section setting the reference beside its campaign on another GPU model (second_gpu.py);
    ``confirmatory``: the pre-registered confirmatory batch's section (confirmatory_html.py)."""
    from ..method import rules
    claims = claims if claims is not None else claims_mod.load()
    said = FT.sentences(v, claims)
    why = reasons.table(v, claims).set_index("claim")["why"].to_dict()
    seeds = sorted({FT.seed_of((claims.get(c) or {}).get("where", w)) for c, w in zip(v["claim"], v["where"])})
    limits = "".join(f"<li>{html.escape(t.format(method_changed=rules.METHOD_LAST_CHANGED[:16].replace('T', ' ') + ' UTC'))}</li>"
                     for t in LIMITS)
    forest = (f'<figure><img src="{forest_src or FI.FOREST_PNG}" alt="{html.escape(forest_mod.alt_text(v))}">'
              "<figcaption>Every claim with a number: ours / paper's, log axis (as on the index).</figcaption></figure>"
              if forest_src is not False else "<p>No claim with a number in these rows: no forest plot.</p>")
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>apsp-repro: findings</title><style>{CSS}</style></head>
<body><p><a href="index.html">&larr; index</a>{_replication_link(replication)}</p>
<h1>Five CUDA APSP papers on today's hardware: what holds</h1>
<h2>Summary</h2><ul>{''.join(f'<li>{html.escape(s)}</li>' for s in said)}</ul>{forest}
{''.join(_seed_section(v, claims, s, why) for s in seeds)}
{_best_cpu(v, claims)}
{second_gpu}
{confirmatory}
<h2>Limitations</h2><ul>{limits}</ul>
<p><small>Generated from {html.escape(source)} by apsp_kernels/study/report/findings_paper.py; a run measured on
another machine is compared with these verdicts on the index, never shown here.</small></p>
</body></html>
"""


def _replication_files(reports):
    from . import replication
    return [f for f in (replication.HTML, replication.PDF) if (reports / f).exists()]


def write(reports, v=None):
    """reports/findings.html from the verdict rows ``v`` (the reference's), else this render's; returns its path or
    None (no rows)."""
    given = v is not None
    v = v if given else FI.rows(reports)
    if v is None:
        return None
    if "where" not in v:
        v = v.assign(where=[(claims_mod.load().get(c) or {}).get("where", "") for c in v["claim"]])
    png = reports / FI.FOREST_PNG
    if not png.exists():                   # the index draws it first; a paper written on its own draws it here
        forest_mod.plot(v, png)
    src = ("data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()    # the paper stands alone
           if png.exists() else False)                                                   # nothing with a number
    out = reports / "findings.html"
    from . import compare
    said = (f"the recorded reference verdict table ({compare.REFERENCE_BATCH}/verdicts.csv)" if given
            else "the verdict rows of this render (verdicts.csv)")
    from . import confirmatory_html, second_gpu
    out.write_text(page(v, forest_src=src, source=said, replication=_replication_files(reports),
                        second_gpu=second_gpu.section_html(v) if given else "",
                        confirmatory=confirmatory_html.section_html(v) if given else ""), encoding="utf-8")
    return out


