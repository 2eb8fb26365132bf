"""Seed 001's claims (data/claims.yaml, ``notebook: 10_iitkgp``) against the IIT-KGP measurement, one
verdict row each through :func:`.verdicts.evaluate` and the rules of :mod:`.rules`:

* orderings (``ordering``; ``exists`` for "can be worse"): per graph, time of the code claimed slower /
  time of the one claimed faster (``faster`` names it where it changes with the graph);
* ranges and bounds: per graph, time of the fastest baseline (``baselines``: "the best sequential run
  time", "the best parallel algorithms run") / time of the algorithm;
* trends: the single-source speed-up against the seed's density (log-log slope), the two named points
  on it, and the speed-up against the coarsening factor (slope pooled over the graphs).

A claim whose stage was not measured is *not testable*, the reason computed from what the batch holds;
a verdict on stand-in graphs says which."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...method import claims as claims_mod
from ... import records
from ...publish import style
from ....algorithms import registry
from . import load as R
from ...method import estimate, order_rules, rules
from ...method import verdicts as V
from ...method.text import fmt, interval


def claims_here(C=None):
    return [c for c in (C or claims_mod.load()).values() if c.get("notebook") == R.NB]


def codes(c, side):
    """[(algorithm, variant)] of a claim's ``algorithm`` or its baseline(s)."""
    if side == "algorithm":
        return [(c["algorithm"], c.get("variant"))]
    return [(b, None) for b in c["baselines"]] if c.get("baselines") else [(c["baseline"], c.get("baseline_variant"))]


def sides(c, graph):
    """(codes claimed faster, codes claimed slower) on one graph."""
    a, b = codes(c, "algorithm"), codes(c, "baseline")
    if c.get("faster") and graph in c["faster"]:
        fast = [x for x in a + b if x[0] == c["faster"][graph]]
        return fast, [x for x in a + b if x not in fast]
    return (b, a) if c["kind"] == "exists" else (a, b)


def why_not(rep, c):
    """Why the claim cannot be tested on what the batch holds; None if it can."""
    if not rep.measured:
        return R.NOT_RUN
    df = rep.df
    st = df[df["stage"] == c["stage"]]
    if st.empty:
        return (f"the IIT-KGP {c['stage']} measurement has not been run on the device yet (batch "
                f"{rep.run_dir.name} holds {', '.join(sorted(set(df['stage'].dropna())))})")
    names = {a for a, _ in codes(c, "algorithm") + codes(c, "baseline")}
    mine = df[df["algorithm"].isin(names) & df["graph"].isin(c["graphs"])]
    if mine.empty or (mine["status"] == "skipped").all():
        errs = mine["error"].dropna() if "error" in mine else pd.Series(dtype=object)
        return f"its codes were not run on its graphs ({errs.iloc[0] if len(errs) else 'not in the batch'})"
    return None


def _text(df, pts):
    return "; ".join(f"{R.label(df, p['graph'])}: {interval(p['v'], p['lo'], p['hi'])}" for p in pts if p["v"] == p["v"]) or "-"


def _mean_text(pts):
    """'3.1x [2.8, 3.4] (geometric mean over 5 graphs)' (estimate.geometric_mean of the graphs' ratios)."""
    ok = [p for p in pts if p["v"] == p["v"] and p["v"] > 0]
    if not ok:
        return "-"
    return f"{interval(*estimate.geometric_mean([p['est'] for p in ok]))} (geometric mean over {len(ok)} graphs)"


def _graph_ratios(df, c, num_side, time):
    """Per graph of the claim: time of ``num_side``'s codes / time of the other side's."""
    out = []
    for g in c["graphs"]:
        fast, slow = sides(c, g) if num_side == "slow" else (codes(c, "algorithm"), codes(c, "baseline"))
        out.append(R.ratio(df, g, slow, fast, time))
    return out


def _fill(row, df, c, e2e, ker):
    dec = ker if c.get("time") == "kernel" else e2e
    got = [p for p in dec if p["v"] == p["v"]]
    row.update(matched_n=", ".join(str(p["n"]) for p in got) or "-", per_size=_text(df, dec),
               ours_end_to_end=_text(df, e2e), ours_kernel=_text(df, ker),
               # how the divisor's side was timed (ranges: the baseline; orderings: both sides)
               baseline_timed=", ".join(sorted({str(p["num_timed"]) for p in got}
                                               | ({str(p["den_timed"]) for p in got} if c["kind"] not in ("range", "value") else set())))
               or "-")
    if row.get("ours_text", "-") == "-" and got:
        lo, hi = fmt(min(p["v"] for p in got)), fmt(max(p["v"] for p in got))
        row["ours_text"] = (f"ratio {lo}x on 1 graph" if len(got) == 1
                            else f"ratio {lo}x .. {hi}x over {len(got)} graphs")
    return [p["graph"] for p in dec if p["v"] != p["v"]]


def _ordering(df, c):
    e2e, ker = (_graph_ratios(df, c, "slow", t) for t in ("end_to_end", "kernel"))
    dec = ker if c.get("time") == "kernel" else e2e
    pts = [(p["n"], p["v"], p["lo"], p["hi"]) for p in dec if p["v"] == p["v"]]
    row = V.evaluate(c, df, ordering=pts)
    row["ours_text"] = "-"          # the points are graphs, not sizes: _fill words it so
    return row, _fill(row, df, c, e2e, ker)


def _range(df, c):
    e2e, ker = (_graph_ratios(df, c, "speedup", t) for t in ("end_to_end", "kernel"))
    dec = ker if c.get("time") == "kernel" else e2e
    pts = [estimate.Point(p["n"], p["est"]) for p in dec if p["v"] == p["v"]]
    row = V.evaluate(c, df, points=pts)
    missing = _fill(row, df, c, e2e, ker)
    row.update(ours_end_to_end=_mean_text(e2e), ours_kernel=_mean_text(ker))
    best = [(b, None) for b in registry.best_cpu_candidates()]
    bc = [R.ratio(df, g, best, codes(c, "algorithm")) for g in c["graphs"]]
    if any(p["v"] == p["v"] for p in bc):
        row["best_cpu"] = f"{_mean_text(bc)} over the fastest of {', '.join(registry.best_cpu_candidates())}"
    return row, missing


def density_trend(df, c):
    """The speed-up's log-log slope against the seed's density: ((verdict, reason), per-graph points)."""
    xs, groups, pts = [], [], []
    for g in c["graphs"]:
        p = R.ratio(df, g, codes(c, "baseline"), codes(c, "algorithm"))
        a, _, _ = R.fastest(df, g, codes(c, "algorithm"))
        b, _, _ = R.fastest(df, g, codes(c, "baseline"))
        if a.size and b.size:
            xs.append(float(df.loc[df["graph"] == g, "density"].dropna().iloc[0]))
            groups.append((b, a))
        pts.append(p)
    s, lo, hi = estimate.slope(xs, groups) if len(xs) >= 3 else (np.nan,) * 3
    return rules.trend_rule(s, lo, hi, len(xs), claimed_sign=-1), pts, (s, lo, hi)


def _trend(df, c):
    if c["id"] == "iitkgp_coarsening":
        factors = registry.get(c["algorithm"]).variants        # every coarsening factor of the claim's code
        per, pts = [], []
        for g in c["graphs"]:
            got = [(cf, R.runs(df, g, c["algorithm"], cf, R.col_for(c["algorithm"], c["time"]))[0]) for cf in factors]
            got = [(cf, r) for cf, r in got if r.size]
            if len(got) >= 2:
                per.append(([cf for cf, _ in got], [r for _, r in got]))
            for cf in (factors[0], factors[-1]):
                pts.append(dict(R.ratio(df, g, codes(c, "baseline"), [(c["algorithm"], cf)]), cf=cf))
        s, lo, hi = estimate.slope([x for xs, _ in per for x in xs], [r for _, rs in per for r in rs],
                                   groups=[i for i, (xs, _) in enumerate(per) for _ in xs])
        decided = rules.trend_rule(-s, -hi, -lo, max((len(x) for x, _ in per), default=0), claimed_sign=-1)
        row = V.evaluate(c, df, decided=decided)
        row.update(per_size="; ".join(f"{R.label(df, p['graph'])} CF {p['cf']}: {interval(p['v'], p['lo'], p['hi'])}"
                                      for p in pts if p["v"] == p["v"]) or "-", ours_text=f"slope {fmt(-s)} [{fmt(-hi)}, {fmt(-lo)}]")
        return row, [g for g in c["graphs"] if g not in {p["graph"] for p in pts if p["v"] == p["v"]}]
    decided, pts, slope = density_trend(df, c)
    missing = [p["graph"] for p in pts if p["v"] != p["v"]]
    if c.get("points"):
        named = {R.seed_n(g): g for g in c["graphs"]}
        at = {int(n): next(p for p in pts if p["graph"] == named[int(n)]) for n in c["points"]}
        lacking = [named[n] for n, p in at.items() if p["v"] != p["v"]]
        if lacking:
            decided = ("not testable", f"no speed-up measured on {', '.join(lacking)}, a graph the claim names")
        else:
            decided = rules.trend_with_points_rule(decided, [(n, p["v"], p["lo"], p["hi"], float(c["points"][n]))
                                                             for n, p in at.items()], c["claimed"], float(c["tolerance"]))
        g4 = next((p for p in pts if p["graph"] == "as-skitter"), None)
        if g4 is not None and g4["v"] == g4["v"]:
            decided = (decided[0], decided[1] + f"; Graph 4 (as-skitter, density 7.7e-6 as the seed's 7e-6): "
                                                f"{interval(g4['v'], g4['lo'], g4['hi'])}")
    row = V.evaluate(c, df, decided=decided)
    row["ours_text"] = f"slope against density {fmt(slope[0])} [{fmt(slope[1])}, {fmt(slope[2])}]"
    if c.get("points"):        # the speed-ups the claim names first (a reader took the slope for a speed-up)
        row["ours_text"] = "; ".join(f"{R.label(df, p['graph'])}: {interval(p['v'], p['lo'], p['hi'])} (the seed: "
                                     f"{fmt(float(c['points'][n]))}x)" for n, p in at.items() if p["v"] == p["v"]) \
            + "; " + row["ours_text"]
    ker = [R.ratio(df, p["graph"], codes(c, "baseline"), codes(c, "algorithm"), "kernel") for p in pts]
    _fill(row, df, c, pts, ker)
    return row, missing


def _occurrence(df, c):
    """An event the seed says happens (the race's wrong result): searches of the claim's code and variant whose
    result failed verification, of all its searches on the claim's graphs (order_rules.occurrence_rule; no race detector
    run on it)."""
    d = df[(df["stage"] == c["stage"]) & (df["algorithm"] == c["algorithm"]) & df["graph"].isin(c["graphs"])
           & (df["variant"].astype(str) == str(c["variant"])) & (df["status"] != "skipped")]
    wrong = d["status"] == "failed_verification"
    row = V.evaluate(c, df, decided=order_rules.occurrence_rule(int(wrong.sum()), len(d), c["occurs"]))
    per = [f"{R.label(df, g)}: {int(wrong[d['graph'] == g].sum())} of {int((d['graph'] == g).sum())}" for g in c["graphs"]
           if (d["graph"] == g).any()]
    row.update(per_size="; ".join(per) or "-", matched_n=", ".join(str(R.seed_n(g)) for g in c["graphs"] if (d["graph"] == g).any()) or "-",
               ours_text=f"{int(wrong.sum())} wrong searches of {len(d)}")
    return row, [g for g in c["graphs"] if not (d["graph"] == g).any()]


def graph_points(df, c, time="end_to_end"):
    """[(label, time on ``slower_graph`` / time on ``faster_graph``, lo, hi)] of each of the claim's ``algorithms``
    (its ``variants``), the same code on the two graphs."""
    out = []
    for a, v in zip(c["algorithms"], c["variants"]):
        x, _ = R.runs(df, c["slower_graph"], a, v, R.col_for(a, time))
        y, _ = R.runs(df, c["faster_graph"], a, v, R.col_for(a, time))
        if x.size and y.size:
            out.append((f"{a}{f' {v}' if v else ''}", *estimate.ratio(x, y)))
    return out


def _across_graphs(df, c):
    """One code on two graphs: the seed's graph claimed faster against the one claimed slower, per code."""
    e2e, ker = graph_points(df, c), graph_points(df, c, "kernel")
    dec = ker if c.get("time") == "kernel" else e2e
    row = V.evaluate(c, df, ordering=dec)
    txt = lambda pts: "; ".join(f"{p[0]}: {interval(*p[1:])}" for p in pts) or "-"
    row.update(per_size=txt(dec), ours_end_to_end=txt(e2e), ours_kernel=txt(ker), ours_text=txt(dec),
               matched_n=", ".join(str(R.seed_n(g)) for g in (c["slower_graph"], c["faster_graph"])))
    return row, [] if dec else [c["slower_graph"], c["faster_graph"]]


def evaluate(rep, c):
    """One claim's verdict row (verdicts.COLUMNS)."""
    why = why_not(rep, c)
    if why:
        return V.evaluate(dict(c, testable_here=False, not_testable_reason=why), rep.df)
    df = rep.df
    fn = _across_graphs if c.get("slower_graph") else {"ordering": _ordering, "exists": _ordering, "range": _range,
                                                         "value": _range, "trend": _trend, "occurrence": _occurrence}[c["kind"]]
    row, missing = fn(df, c)
    stand = [g for g in c["graphs"] if R.origin(df, g) == "stand-in"]
    extra = ([f"not measured on {', '.join(missing)}"] if missing else []) + \
            ([f"on stand-ins for {', '.join(stand)} (the real files were not in $APSP_DATA_DIR)"] if stand else [])
    if extra:
        row["reason"] = row["reason"] + "; " + "; ".join(extra)
    on = df[(df["stage"] == c["stage"]) & df["graph"].isin(c["graphs"])]
    return V.with_leases([row], on.groupby("graph")["lease"].nunique().min() if len(on) else 0)[0]   # the fewest a graph has


def evaluate_all(rep, C=None):
    """The rows of the claims of the seed's shape (a ``stage`` and its ``graphs``); any other claim of the
    study is a *not testable* row (the contract's ``Study.verdict_rows``)."""
    return [evaluate(rep, c) for c in claims_here(C) if c.get("stage") and c.get("graphs")]


def publish(rep, rows, reports_dir=None):
    """The verdict table where the index and notebook 07 find it (``<reports>/verdicts/10_iitkgp.csv``);
    returns the styled table to display."""
    p = rep.prov()
    t = records.publish(R.NB, V.table(rows), device=records.device_of(p) if rep.measured else "not measured",
                        results=str(records.rel(rep.run_dir)) if rep.measured else "-", profile=p.get("profile", ""),
                        reports_dir=reports_dir)
    return style(t[V.SHOWN])
