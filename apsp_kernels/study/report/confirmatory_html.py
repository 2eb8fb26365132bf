"""The pre-registered confirmatory batch as the index, the findings paper and the summary notebook show it
(confirmatory.py finds and compares it): the plan's batch id, sha256 and commit, its design with each setting's
progress, and -- only once the batch is complete -- every claim's reference and confirmatory verdict, the claims
whose verdict differs first.  Reads only; writes nothing."""
from __future__ import annotations

import html

from . import compare
from . import confirmatory as CF
from .your_run import rows_html

HEAD = ('<tr><th>the paper claims</th><th>paper</th><th>reference [95% CI]<br><small>verdict</small></th>'
        '<th>confirmatory [95% CI]<br><small>verdict</small></th><th>outcome<br><small>why</small></th></tr>')


def _code(x):
    return f"<code>{html.escape(str(x))}</code>"


def progress_html(settings):
    """The design, one row a setting: its study, card, leases measured of those planned, and its folders.  Counts
    are written '2 of 5', words, so the table holds no bare number without a unit."""
    rows = []
    for s in settings:
        other = (f" (and {len(s.elsewhere)} on another model of GPU: failed leases, not counted)" if s.elsewhere else "")
        folders = ", ".join(_code(f) for f in s.shown_folders) or "-"
        rows.append(f"<tr><td>{html.escape(s.name)}</td><td>{html.escape(s.study)}</td><td>{_code(s.device)}</td>"
                    f"<td>{len(s.leases)} of {s.planned}{html.escape(other)}</td><td>{html.escape(s.status)}</td>"
                    f"<td>{folders}</td></tr>")
    return ('<table class="confirmatory"><tr><th>setting</th><th>study</th><th>device</th><th>leases measured</th>'
            f'<th>status</th><th>folders</th></tr>{"".join(rows)}</table>')


def plan_line(st):
    p = st.plan
    try:
        where = st.path.resolve().relative_to(CF.paths.ROOT).as_posix()
    except ValueError:
        where = str(st.path)
    return (f"Plan {_code(where)}, sha256 {_code(st.sha256)}, written {html.escape(str(p.get('written', '-'))[:10])} at "
            f"commit {_code(str(p.get('method_commit', '-'))[:12])}, before any of its data existed "
            "(docs/preregistration.md shows it whole). Its runs are found by the sha256 their provenance records, "
            "not by their folders' names.")


def sentence(table):
    n = table["outcome"].value_counts()
    parts = ", ".join(f"{int(n[k])} {k}" for k in compare.OUTCOMES if n.get(k))
    return (f"Of the plan's {len(table)} claims: {parts}. A different verdict is a finding of the batch, reported "
            "as one; the method is not changed to remove it.")


def plan_html(st, claims):
    """One plan's part: the batch and its plan, then its progress, or (complete) the comparison."""
    head = (f"<h3>Batch {_code(st.batch)}: {'complete' if st.complete else CF.PARTIAL if st.measured else CF.NOT_MEASURED}"
            f"</h3><p>{plan_line(st)}</p>")
    design = progress_html(st.settings)
    if not st.complete:
        now = ("<b>Not yet measured</b>: no results folder names this plan" if not st.measured else "<b>Partial</b>")
        return (f"{head}<p>{now}. Leases measured of those planned: {html.escape(CF.progress_line(st.settings))}. "
                "No verdict of this batch is computed or shown before every setting has its leases (the plan's "
                f"stopping rule).</p>{design}")
    if st.table is None:
        return f"{head}<p>Complete, but no reference verdict table is recorded to set it beside.</p>{design}"
    t = st.table
    diff = t[t["outcome"] == compare.DIFFERENT]
    return (f"{head}<p>{html.escape(sentence(t))}</p>"
            + (f'<p>Where the verdict differs:</p><table class="confirmatory">{HEAD}{rows_html(diff, claims, mark=False)}'
               "</table>" if len(diff) else "<p>No verdict differs from the reference's.</p>")
            + f"<details><summary>Every claim of the plan ({len(t)})</summary><table class=\"confirmatory\">{HEAD}"
              f"{rows_html(t, claims, mark=False)}</table></details>"
            + f"<details><summary>The design: every setting's leases</summary>{design}</details>")


def section_html(ref=None, root=None, where=None, claims=None, heading=True):
    """The section (index, findings paper, notebook 07): every committed plan's batch; '' where no plan is
    committed.  ``ref``: the reference verdict rows (the recorded reference table by default)."""
    from ..method import claims as claims_mod
    C = claims or claims_mod.load()
    ref = ref if ref is not None else compare.reference_rows(root)
    found = CF.states(ref, root, where, C)
    if not found:
        return ""
    intro = ("<p>A batch whose plan (what decides each verdict, what is measured and on how many machine leases, when "
             "the batch is complete) was committed before any of its data existed. Once complete, every claim's "
             "verdict is computed once and set beside the reference's; until then only its progress is shown.</p>")
    gone = "".join(f"<p>Plan <code>{html.escape(name)}</code> was replaced by <code>{html.escape(r['replaced_by'])}</code> "
                   f"on {html.escape(r['date'])}, before any of its data: {html.escape(r['why'])}</p>"
                   for name, r in CF.replaced(where).items())
    return ((f'<h2 id="confirmatory">The pre-registered confirmatory batch</h2>{intro}' if heading else "")
            + "".join(plan_html(st, C) for st in found) + gone)
