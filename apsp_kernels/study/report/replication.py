"""reports/replication.html (and .pdf): the study as a replication report in ReScience C's shape -- title in [Re]
form, abstract with its conclusion, scope (the claims numbered C1.. in data/claims.yaml's order), method, environment
and cost, one results table, correctness findings, a discussion per seed (reasons.py's sentences), threats to
validity, what was easy and what was hard, references and the commit.  Written from the recorded data only (the
reference verdict rows and the batches they name; no GPU): every number comes from replication_facts, the words
around them from the template (report_templates/replication).

    python -m apsp_kernels.study.report.replication [--out DIR] [--no-pdf]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jinja2
import pandas as pd

from ... import paths
from ..method import changes
from ..method import claims as claims_mod
from ..method import stats
from ..show import signed
from . import compare, correctness, reasons
from . import findings_text as FT
from . import replication_facts as F

HTML = "replication.html"
PDF = "replication.pdf"
TEMPLATE = Path(__file__).resolve().parents[2] / "report_templates" / "replication" / "replication.html.j2"
DIFFER = ("differs in magnitude", "not reproduced")
TIMED = {"measured": "in full", "sampled": "from a sample only",
         "measured, sampled": "in full at some sizes and from a sample at the others"}


def _n(x, one, many=None):
    return f"{x} {one if x == 1 else (many or one + 's')}"


def _list(items):
    items = [str(i) for i in items if i]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def conclusion(v, why, fails):
    """The one-sentence conclusion: how the speed-ups over one CPU thread came out, what the same GPU codes give
    against the best CPU code here, and how many published kernels return wrong distances."""
    one = why[why["kinds"].str.split().apply(lambda k: "one_thread" in k)]["claim"]
    rows = v[v["claim"].isin(one)]
    up = [r for r in rows.to_dict("records") if signed.verdict_text(r) == signed.SIGNED[signed.LARGER]]
    larger = len(up)
    rng = F.best_cpu_range(rows)
    lows = [x for x in (signed.num(r.get("claimed_lo")) for r in up) if x is not None]
    published = int(fails["published"].sum()) if len(fails) else 0
    text = (f"Of the {_n(len(rows), 'claim')} measured against a one-thread CPU code, {larger} came out larger than the paper "
            "claims on today's GPU")
    if rng:
        text += f", while the same GPU codes against the best CPU code here run {FT.fmt(rng[0])}-{FT.fmt(rng[1])}x as fast"
        if lows and rng[1] < min(lows):         # said only where every such claimed speed-up lies above that range
            text += ", so the papers' speed-ups measure their baselines as much as their kernels"
    if published:
        every = bool((fails.loc[fails["published"], "wrong"] == fails.loc[fails["published"], "runs"]).all())
        text += (f"; {_n(published, 'published kernel')} returned wrong distances "
                 + ("in every recorded run" if every else "in some recorded runs"))
    return text + "."


def _method(v, claims, facts_codes):
    counts, tol_rows = F.tolerances(claims)
    mc = F.method_changes()
    base = F.baselines(v)
    lease = F.leases(v)
    sampled = sum(n for k, n in base.items() if "sampled" in k)
    return {
        "codes": facts_codes,
        "fidelity": (f"Each claim is tested on a re-implementation in CuPy/CUDA of the code the paper describes "
                     f"('faithful': {len(facts_codes['faithful_gpu'])} GPU kernels and "
                     f"{len(facts_codes['faithful_cpu'])} CPU baselines as written), set beside this study's own "
                     f"codes where a comparison needs them ({len(facts_codes['ours'])}: the best CPU codes here and "
                     f"explorations of one change each). The tuned line ({len(facts_codes['tuned'])} GPU codes "
                     "written for today's GPU) enters no verdict."),
        "baselines": (f"Of the {sum(base.values())} verdicts that divide by a baseline's time, "
                      + _list(f"{n} timed it {TIMED.get(k, k)}" for k, n in base.items())
                      + f"; in {sampled} the baseline's time at some or all sizes is extrapolated from a timed sample "
                      "(baseline_timed says so per claim). Every GPU speed-up is also set against the best CPU code "
                      "here (the rows' best_cpu)."),
        "unit": (f"The independent unit is the machine lease (a boot of the device), not the process: processes "
                 f"that share a lease share its speed. Intervals are {stats.CONF:.0%} intervals over independent "
                 "processes; "
                 f"below {compare.LEASES} leases a verdict's interval is not over independent leases. The measured "
                 "claims rest on " + _list(f"{_n(n, 'lease')} ({_n(c, 'claim')})" for n, c in lease.items()) + "."),
        "tolerances": ("Agreement means ours lies within the paper's band widened by a tolerance: "
                       + _list(f"x{t:g} for {_n(n, 'claim')}" for t, n in counts.items())
                       + f". The tolerances were set by the {_n(len(tol_rows), 'dated change')} below; "
                       + (f"{sum(bool(r['batches_before']) for r in tol_rows)} of them came after batches had been "
                          "measured, so those tolerances were not declared before measuring." if tol_rows else "")),
        "tolerance_rows": [{"when": changes.when(r), "commit": r["commit"], "change": r["change"],
                            "before": ", ".join(r["batches_before"]) or "-"} for r in tol_rows],
        "changes": (f"data/analysis-changes.csv dates {_n(mc['all'], 'change')} of the analysis; "
                    f"{mc['after_measuring']} of those a verdict can follow from came after some batch had been "
                    f"measured (notes/method-history.md says why each was made). The last such change: "
                    f"{changes.when(mc['last']) if mc['last'] else '-'}."),
    }


def _environment(folders):
    env = F.environment(folders)
    cost = F.cost(folders)
    return {
        "sentence": (f"The reference verdicts rest on {_n(cost['batches'], 'recorded batch', 'recorded batches')} "
                     f"({cost['first'][:10]} to {cost['last'][:10]}), run on these stacks (from each process's "
                     "provenance):"),
        "columns": list(env.columns), "rows": env.astype(str).values.tolist(),
        "cost": (f"Cost: {cost['processes']} processes on {_n(cost['leases'], 'machine lease')}; their timed runs "
                 f"add up to {FT.fmt(cost['timed_hours'])} hours of wall-clock time where the result rows record it "
                 "(a lower bound on device time: start-up, compilation and idle time are not in it). The sampled "
                 f"CPU codes stand for {FT.fmt(cost['extrapolated_hours'])} hours of CPU wall-clock time that was "
                 "extrapolated from samples rather than run."),
    }, cost


def _discussion(v, claims, table, why):
    out = []
    num = F.claim_numbers(claims)
    for seed, name in F.seeds(v, claims):
        rows = table[table["seed"] == seed]
        vr = v[v["claim"].isin(rows["claim"])]
        items = [{"no": num[r["claim"]], "verdict": signed.verdict_text(r), "why": why[r["claim"]]}
                 for r in vr.to_dict("records") if r["verdict"] in DIFFER]
        items.sort(key=lambda i: int(i["no"][1:]))
        rest = len(rows) - len(items)
        out.append({"seed": seed, "name": name, "counts": FT.verdict_counts(vr) or "", "claims": items,
                    "rest": (f"The other {_n(rest, 'claim')} of this seed (reproduced, inconclusive or not "
                             "testable) carry their reasons in the findings paper." if rest and items else "")})
    return out


def _threats(t, mc):
    said = [
        f"{_n(t['one_thread'], 'claim')} divide by a one-thread CPU code: the speed-up then depends on the CPU as "
        "much as on the GPU, and the best CPU code here is shown beside each.",
        f"{_n(t['sampled'], 'claim')} rest on a baseline whose time is extrapolated from a timed sample.",
        f"{_n(t['stand_in'], 'claim')} are judged on generated stand-ins where the seed's graph files were not "
        "available.",
        f"{_n(t['few_leases'], 'claim')} rest on fewer than {compare.LEASES} machine leases: their intervals are "
        "not over independent leases and are too narrow where processes share one.",
        f"{_n(t['tolerance_only'], 'reproduced verdict')} hold only within the tolerance, and "
        f"{t['computed']} are computed, not run.",
        f"{mc['after_measuring']} analysis changes followed measured batches; agreement between later runs is "
        "stability under the data the method was tuned on, not validity.",
        f"{_n(t['no_gpu_named'], 'claim')} come from papers that name no GPU for the number, so no hardware ratio "
        "can be set beside them.",
    ]
    if t["analogue"]:
        said.append(f"{_n(t['analogue'], 'claim')} are tested on this study's analogue of the paper's comparison.")
    return said


def _easy_hard(v, claims, codes, fails, cost, t, mc):
    failing_published = fails[fails["published"]] if len(fails) else fails
    failing = set(fails["label"]) if len(fails) else set()
    verified = sum(label not in failing for label in codes["faithful_gpu"])
    num = F.claim_numbers(claims)
    measured_rep = int(((v["verdict"] == "reproduced") & (v.get("basis") == "measured")).sum())
    nt = v[v["verdict"] == "not testable"]
    easy = [f"Re-implementing the kernels from the papers' pseudo-code: {verified} of the "
            f"{len(codes['faithful_gpu'])} faithful GPU kernels verified on every recorded run; the exceptions are "
            "the published racy variants of the correctness findings.",
            f"{_n(measured_rep, 'claim')} reproduced on measurement alone, without the tolerance's help."]
    hard = [f"Correct answers: {_n(len(failing_published), 'published kernel')} returned wrong distances and had to "
            "be timed in a corrected form (seed 001's atomic fix)." if len(failing_published) else "",
            f"Fixing the method: {mc['after_measuring']} analysis changes came after batches had been measured.",
            f"CPU baselines at the papers' sizes: {FT.fmt(cost['extrapolated_hours'])} hours of CPU time were "
            "extrapolated from samples rather than run.",
            f"{_n(len(nt), 'claim')} could not be tested here: "
            + "; ".join(f"{num[c]}: {reasons._txt(r).rstrip('.')}" for c, r in zip(nt["claim"], nt["reason"])) + "."
            if len(nt) else "",
            f"Hardware: {_n(t['no_gpu_named'], 'claim')} rest on numbers whose GPU the paper does not name."]
    return easy, [h for h in hard if h]


def context(v, claims=None, root=None, source=None):
    """Everything the template shows, computed from the verdict rows ``v`` and the batches they name."""
    claims = claims if claims is not None else claims_mod.load()
    if "where" not in v:
        v = v.assign(where=[(claims.get(c) or {}).get("where", "") for c in v["claim"]])
    folders = correctness.batch_dirs(v, root)
    fails = F.correctness_rows(correctness.failures(folders))
    why_t = reasons.table(v, claims, root)
    why = why_t.set_index("claim")["why"].to_dict()
    table = F.results_table(v, claims)
    codes = F.codes(v, claims)
    env, cost = _environment(folders)
    t, mc = F.threats(v, why_t, claims), F.method_changes()
    easy, hard = _easy_hard(v, claims, codes, fails, cost, t, mc)
    seeds = F.seeds(v, claims)
    devices = v.get("device", pd.Series(dtype=str)).dropna().astype(str).str.removeprefix("1 x ")
    gpus = list(devices[~devices.str.startswith("none")].value_counts().index)     # most claims' GPU first
    published = fails[fails["published"]] if len(fails) else fails
    return {
        "title": f"[Re] {len(seeds)} CUDA all-pairs shortest path papers on the {_list(gpus)}",
        "source": source or f"the recorded reference verdict table ({compare.REFERENCE_BATCH}/verdicts.csv)",
        "commit": F.commit(),
        "seeds": seeds,
        "abstract": [f"We re-implemented the CUDA shortest-path kernels of {len(seeds)} papers and their CPU "
                     f"baselines and tested {len(table)} of their claims on the {_list(gpus)}. "
                     + (FT.verdict_counts(v) or "")],
        "conclusion": conclusion(v, why_t, fails),
        "scope_sentence": (f"The {len(table)} claims of data/claims.yaml, numbered in its order; each is quoted "
                           "verbatim from its seed there."),
        "method": _method(v, claims, codes),
        "environment": env,
        "results_sentence": ((FT.verdict_counts(v) or "") + " " + (FT.basis_counts(v) or "")).strip(),
        "results": table.to_dict("records"),
        "correctness": {
            "sentence": (f"Every timed run was checked against a CPU reference (the result rows' verified cells). "
                         f"{_n(len(fails), 'code')} returned wrong distances in the recorded runs, "
                         f"{len(published)} of them the published form of a paper's kernel."
                         if len(fails) else "Every timed run verified against its CPU reference."),
            "rows": fails.to_dict("records")},
        "discussion": _discussion(v, claims, table, why),
        "threats": _threats(t, mc),
        "easy": easy, "hard": hard,
        "references": F.references(),
        "measured_commits": cost["measured_commits"],
        "batches": [f.name for f in folders],
    }


def render(v, claims=None, root=None, source=None):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATE.parent)), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    return env.get_template(TEMPLATE.name).render(**context(v, claims, root, source))


def write(reports, v=None, pdf=False):
    """reports/replication.html from the verdict rows ``v`` (the reference's by default), and its PDF where
    ``pdf`` (headless Chromium); returns the paths written, [] where there are no rows."""
    v = v if v is not None else compare.reference_rows()
    if v is None or v.empty:
        return []
    reports = Path(reports)
    reports.mkdir(parents=True, exist_ok=True)
    out = reports / HTML
    out.write_text(render(v), encoding="utf-8")
    written = [out]
    if pdf:
        from . import pdf as pdf_mod
        written.append(pdf_mod.print_pdf(out, reports / PDF))
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description="Write the replication report (HTML, and PDF through headless Chromium).")
    ap.add_argument("--out", default=str(paths.REPORTS), help="folder to write into (default reports/)")
    ap.add_argument("--no-pdf", action="store_true", help="write the HTML only")
    a = ap.parse_args(argv)
    try:
        written = write(Path(a.out), pdf=not a.no_pdf)
    except RuntimeError as e:           # no Playwright or Chromium here: the HTML is written, the PDF is not
        print(f"replication: {e}", file=sys.stderr)
        return 1
    for f in written:
        print(f)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
