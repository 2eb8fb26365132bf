"""Claims against measurements: one row per claim, decided by the rules in :mod:`rules`
at the paper's sizes, with the other time (kernel-only or end-to-end) and the best CPU code
beside it.  Notebooks call :func:`evaluate` and :func:`publish`; nothing here is written
per notebook."""
from __future__ import annotations


import numpy as np
import pandas as pd
from scipy.optimize import isotonic_regression

from .. import claims as claims_mod
from ..algorithms import registry
from . import measurements as M
from . import basis, rules, stats, tables
from .tables import fmt, interval
from .text import crossing_text

COLUMNS = ["claim", "source", "quote", "where", "kind", "quantity", "paper_n", "matched_n", "claimed", "decided_by",
           "ours", "ci_lo", "ci_hi", "ours_text", "per_size", "ours_end_to_end", "ours_kernel", "best_cpu",
           "baseline_timed", "claimed_lo", "claimed_hi", "tolerance", "kemp", "kemp_vs_ours", "verdict", "basis", "analogue", "reason",
           "hardware", "notebook"]
SHOWN = ["claim", "verdict", "basis", "where", "quote", "claimed", "decided_by", "matched_n", "ours_text", "ours_end_to_end",
         "ours_kernel", "best_cpu", "baseline_timed", "kemp", "kemp_vs_ours", "reason"]


def _time_cols(c):
    """(algorithm's time column, baseline's) for the deciding time: kernel-only compares GPU
    kernel time with a CPU code's whole solve (a CPU has no transfers), and two GPU codes
    kernel against kernel."""
    a = registry.get(c["algorithm"]) if c.get("algorithm") in registry.ALGORITHMS else None
    b = registry.get(c["baseline"]) if c.get("baseline") in registry.ALGORITHMS else None
    def cols(kind):
        ta = "kernel_ms" if kind == "kernel" and a is not None and a.device == "gpu" else "wall_ms"
        tb = "kernel_ms" if kind == "kernel" and b is not None and b.device == "gpu" else "wall_ms"
        return ta, tb
    return cols


def matched_sizes(paper_n, measured):
    """Our sizes that are the paper's; where none is, the nearest of ours within 12.5% of a
    paper size (said in the table)."""
    measured = sorted(set(int(n) for n in measured))
    if not paper_n:
        return measured, "the paper names no sizes: every measured size"
    exact = [n for n in measured if n in set(paper_n)]
    if exact:
        return exact, ""
    near = sorted({min(measured, key=lambda m: abs(m - p)) for p in paper_n if measured
                   and abs(min(measured, key=lambda m: abs(m - p)) - p) <= p / 8})
    return near, ("nearest measured sizes to the paper's" if near else
                  "no measured size near the paper's: " + (f"both codes timed together at n = {measured[0]}..{measured[-1]}"
                                                             if measured else "never timed together"))


def _fmt_points(sp):
    return "; ".join(f"n={int(r.n)}: {interval(r.speedup, r.ci_lo, r.ci_hi)}" for r in sp.itertuples())


def _geo(sp):
    if sp.empty:
        return np.nan, np.nan, np.nan
    # interval of the geometric mean: from the per-size intervals, as independent log-normal
    logs = np.log(sp["speedup"].to_numpy())
    half = (np.log(sp["ci_hi"].to_numpy()) - np.log(sp["ci_lo"].to_numpy())) / 2
    g = np.exp(logs.mean())
    se = np.sqrt(np.sum(half ** 2)) / len(logs)
    return float(g), float(g * np.exp(-se)), float(g * np.exp(se))


def _kemp_vs_ours(c, sp):
    """Kemp's own numbers at his sizes beside ours at the same n, where he gives per-size values."""
    pts = c.get("kemp_points") or {}
    out = []
    for n, k in sorted(pts.items()):
        r = sp[sp["n"] == int(n)]
        out.append(f"n={n}: Kemp {k:g}x, ours " + (interval(r['speedup'].iloc[0], r['ci_lo'].iloc[0], r['ci_hi'].iloc[0])
                                                     if len(r) else "not measured"))
    return "; ".join(out) or "-"


def compact_sizes(ns):
    """'1024..17408 (every 1024)' for a grid of sizes, else the list."""
    ns = sorted(int(n) for n in ns or [])
    if len(ns) > 3 and len({b - a for a, b in zip(ns, ns[1:])}) == 1:
        return f"{ns[0]}..{ns[-1]} (every {ns[1] - ns[0]})"
    return ", ".join(map(str, ns)) or "-"


def _fmt_claim(c, r):
    """A claimed or Kemp's range in the claim's unit: '48-52x', '>= 2.3x', 'n = 6144-7168'."""
    if c.get("unit") == "slope" and r:
        return f"log-log slope {r[0]:g}" + (f" to {r[-1]:g}" if r[-1] != r[0] else "")
    if c.get("unit") != "vertices" or not r:
        return claims_mod.fmt_range(r)
    return f"n = {r[0]:g}" + (f"-{r[-1]:g}" if r[-1] != r[0] else "")


def _base_row(c):
    cl = c.get("claimed") or [np.nan, np.nan]
    return dict(claim=c["id"], source=c.get("source", ""), quote=c.get("quote", ""), where=c.get("where", ""),
                kind=c.get("kind", ""), quantity=c.get("quantity", ""),
                paper_n=compact_sizes(c.get("paper_n")), claimed_lo=cl[0], claimed_hi=cl[-1],
                claimed=_fmt_claim(c, c.get("claimed")),
                tolerance=c.get("tolerance", np.nan), hardware=c.get("hardware", ""), notebook=c.get("notebook", ""),
                kemp=_fmt_claim(c, c.get("kemp")), decided_by=c.get("time", "end_to_end"),
                matched_n="-", ours=np.nan, ci_lo=np.nan, ci_hi=np.nan, ours_text="-", per_size="", ours_end_to_end="-",
                ours_kernel="-", best_cpu="-", baseline_timed="-", kemp_vs_ours="-", analogue=bool(c.get("analogue")))


def speedup_pair(df, c, sizes=None):
    """(end-to-end, kernel-only) per-size speed-ups for a claim's algorithm over its baseline."""
    cols = _time_cols(c)
    kw = dict(variant=c.get("variant"), baseline_variant=c.get("baseline_variant"), sizes=sizes,
              invert=bool(c.get("invert")))
    e2e = M.speedups(df, c["algorithm"], c["baseline"], time_col=cols("end_to_end")[0],
                     base_time_col=cols("end_to_end")[1], **kw)
    ker = M.speedups(df, c["algorithm"], c["baseline"], time_col=cols("kernel")[0], base_time_col=cols("kernel")[1], **kw)
    return e2e, ker


def speedup_columns(df, c, ns, pair=None):
    """The columns beside a speed-up claim at sizes ``ns``: geometric means over them of the
    end-to-end and the kernel-only speed-up, of the speed-up over the best CPU code at each size
    (for a GPU code), and how the baseline was timed (measured or sampled).  ``pair``: the
    claim's :func:`speedup_pair` where the caller has it already."""
    e2e, ker = pair if pair is not None else speedup_pair(df, c)
    e2e, ker = e2e[e2e["n"].isin(ns)], ker[ker["n"].isin(ns)]
    out = dict(ours_end_to_end=interval(*_geo(e2e)) if len(e2e) else "-",
               ours_kernel=interval(*_geo(ker)) if len(ker) else "-",
               baseline_timed=", ".join(sorted(set(e2e["baseline_timed"]))) if len(e2e) else "-")
    if registry.get(c["algorithm"]).device == "gpu" and not c.get("invert"):
        b = M.best_cpu_speedups(df, c["algorithm"], c.get("variant"), sizes=ns)
        if len(b):
            out["best_cpu"] = f"{interval(*_geo(b))} over " + "/".join(sorted(set(b["best_cpu"])))
    return out


def evaluate(c, df, *, points=None, aggregate=None, crossover=None, ordering=None, decided=None, note=""):
    """One verdict row.  The default measurement follows the claim's ``kind``; a notebook may
    pass what it measured for claims of its own shape (``points``: [(n, v, lo, hi)], ``aggregate``:
    (v, lo, hi, text), ``crossover``: (n or None or 0, ci, measured range), ``ordering``: points (also of an
    ``exists`` claim),
    ``decided``: (verdict, reason) from a rule the notebook applied, for trends)."""
    row = _base_row(c)
    kind = c.get("kind")
    claimed = c.get("claimed")
    tol = float(c.get("tolerance") or 1.25)
    at1 = None          # the same rule at tolerance 1, where it can be re-applied here (basis.basis_of)
    if not c.get("testable_here", True):
        row.update(verdict="not testable", basis="-", reason=c.get("not_testable_reason") or "not testable here")
        return row
    if aggregate is not None or kind in ("average", "limit"):
        if aggregate is None:
            row.update(verdict="not testable", reason="no measurement passed for this claim")
            return row
        val, lo, hi, text, *value_text = aggregate     # an average may give its value as a bracket
        v, why = rules.aggregate_rule(val, lo, hi, claimed, tol, what=kind, value_text=(value_text or [None])[0])
        at1 = lambda: rules.aggregate_rule(val, lo, hi, claimed, 1.0, what=kind)[0]
        row.update(ours=val, ci_lo=lo, ci_hi=hi, ours_text=text)
    elif kind in ("range", "value") and points is None:
        e2e, ker = speedup_pair(df, c)
        dec = ker if c.get("time") == "kernel" else e2e
        ns, why = matched_sizes(c.get("paper_n"), dec["n"])
        d = dec[dec["n"].isin(ns)]
        points = list(d[["n", "speedup", "ci_lo", "ci_hi"]].itertuples(index=False, name=None))
        g = _geo(d)
        row.update(matched_n=", ".join(map(str, ns)) + (f" ({why})" if why else ""), ours=g[0], ci_lo=g[1], ci_hi=g[2],
                   ours_text=f"{interval(*g)} (geometric mean over {len(d)} sizes)" if len(d) else "-",
                   per_size=_fmt_points(d), kemp_vs_ours=_kemp_vs_ours(c, dec), **speedup_columns(df, c, ns, (e2e, ker)))
        # a claim over a grid of the paper's sizes (paper_n_step) is judged over that grid, not over ours
        v, why = rules.range_rule(points, claimed, tol, grid=c.get("paper_n") if c.get("paper_n_step") else None)
        at1 = lambda: rules.range_rule(points, claimed, 1.0, grid=c.get("paper_n") if c.get("paper_n_step") else None)[0]
    elif kind in ("range", "value"):
        # points of 5: each against its own claimed value (the seed's per-setting numbers: rules.points_rule)
        own = bool(points) and len(points[0]) == 5
        rule = (lambda t: rules.points_rule(points, t)) if own else (lambda t: rules.range_rule(points, claimed, t))
        v, why = rule(tol)
        at1 = lambda: rule(1.0)[0]
        points = [p[:4] for p in points]
        g = _geo(pd.DataFrame(points, columns=["n", "speedup", "ci_lo", "ci_hi"])) if points else (np.nan,) * 3
        row.update(ours=g[0], ci_lo=g[1], ci_hi=g[2], ours_text=interval(*g) if points else "-",
                   per_size="; ".join(f"n={n}: {interval(x, lo, hi, '')}" for n, x, lo, hi in points))
    elif kind in ("crossover", "break_even"):
        x, ci, rng = crossover if crossover is not None else (None, None, None)
        v, why = rules.crossover_rule(x, claimed, tol, rng, ci, advantage=c.get("advantage", "above"),
                                      up_to=claims_mod.crossing_up_to(c),
                                      tolerance_set=(claims_mod.tolerance_set(c["id"]) or {}).get("short", ""))
        at1 = lambda: rules.crossover_rule(x, claimed, 1.0, rng, ci, advantage=c.get("advantage", "above"),
                                           up_to=claims_mod.crossing_up_to(c))[0]
        row.update(ours=x if x is not None else np.nan, ci_lo=ci[0] if ci else np.nan, ci_hi=ci[1] if ci else np.nan,
                   ours_text=crossing_text(x, ci, rng))
    elif kind == "ordering":
        pts = ordering or []
        v, why = rules.ordering_rule(pts)
        row.update(per_size="; ".join(f"n={n}: {interval(x, lo, hi)}" for n, x, lo, hi in pts),
                   ours_text=(f"range {fmt(min(p[1] for p in pts))}x .. {fmt(max(p[1] for p in pts))}x over {len(pts)} sizes "
                              "(not a CI; the 'per size' column gives each one's)") if pts else "-")
    elif kind == "exists":
        pts = ordering or []
        v, why = rules.exists_rule(pts)
        row.update(per_size="; ".join(f"n={n}: {interval(x, lo, hi)}" for n, x, lo, hi in pts))
    elif kind in ("trend", "occurrence"):
        v, why = decided or ("not testable", f"no {kind} measured")
    else:
        v, why = "not testable", f"unknown claim kind {kind!r}"
    n_read = len(c.get("readings") or [])
    read = (f"; {n_read} passages of the seed bear on this claim (quoted under the verdicts of report "
            f"{c.get('notebook', '')[:2]}); tested: {_first_clause(c['tested_reading'])}") if n_read and c.get("tested_reading") else ""
    if c.get("analogue"):       # the seed's comparison is not the one made here: said first
        why = "analogue (not the seed's own comparison; claims.yaml analogue_note): " + why
    row.update(verdict=v, reason=why + (f"; {note}" if note else "") + read, analogue=bool(c.get("analogue")),
               basis=basis.basis_of(c, v, at1() if at1 is not None and v == "reproduced" else None,
                                    ci=(row["ci_lo"], row["ci_hi"]), claimed=(row["claimed_lo"], row["claimed_hi"])))
    return row


def trend(df, c, sizes=None):
    """A growth claim: slope of log speed-up against log n with its 95% interval over
    every size both codes were timed at within the paper's range (``sizes`` restricts further),
    plus the per-size points."""
    cols = _time_cols(c)(c.get("time", "end_to_end"))
    if c.get("paper_n") and sizes is None:
        lo, hi = min(c["paper_n"]), max(c["paper_n"])
        sizes = [n for n in M.sizes_of(df, c["algorithm"], c.get("variant")) if lo <= n <= hi]
    ps = M.pairs(df, c["algorithm"], c["baseline"], c.get("variant"), c.get("baseline_variant"), cols[0], cols[1], sizes)
    sp = M.speedup_table(ps)
    slope = stats.loglog_slope_ci(sp["n"], [(b, a) for _, a, b, _, _ in ps])
    return sp, slope


def crossover_of(df, a, b, variant_a=None, variant_b=None, time_col="wall_ms", n_boot=400, memory_a=None,
                 graph=M.KEMP):
    """The n at which ``a`` becomes faster than ``b``: the zero of the medians' log time ratio fitted
    non-increasing in n (log-log interpolation), 0 if ``a`` is faster from the smallest size, None if
    not even at the largest; with a 95% interval from the runs' medians, and the range of sizes where both were timed (on ``graph``: Kemp's graphs unless a study names its own)."""
    ns = sorted(set(M.sizes_of(df, a, variant_a, graph)) & set(M.sizes_of(df, b, variant_b, graph)))
    if not ns:
        return None, None, None
    if memory_a is not None:
        ns = sorted(set(df.loc[(df["algorithm"] == a) & df["params"].str.contains(f'"memory": "{memory_a}"', regex=False), "n"])
                    & set(M.sizes_of(df, b, variant_b, graph)))
    ta = [M.times(df, a, variant_a, n, time_col, graph=graph, memory=memory_a)[0] for n in ns]
    tb = [M.times(df, b, variant_b, n, time_col, graph=graph)[0] for n in ns]
    keep = [i for i in range(len(ns)) if ta[i].size and tb[i].size]
    ns = [ns[i] for i in keep]
    ta, tb = [ta[i] for i in keep], [tb[i] for i in keep]
    if not ns:
        return None, None, None

    def cross(ma, mb):
        # A crossover claim's premise is that a's advantage grows with n: the log time ratio is
        # fitted non-increasing in n (pool adjacent violators) before its zero is read off, so that
        # medians that cross back and forth by noise at single sizes, or a tie at the smallest
        # size, do not decide where a becomes faster.
        r = isotonic_regression(np.log(np.asarray(ma) / np.asarray(mb)), increasing=False).x
        if r[-1] >= 0:
            return None
        if r[0] < 0:
            return 0.0
        i = int(np.argmax(r < 0))
        x0, x1 = np.log(ns[i - 1]), np.log(ns[i])
        return float(np.exp(x0 + (x1 - x0) * r[i - 1] / (r[i - 1] - r[i])))

    point = cross([np.median(x) for x in ta], [np.median(x) for x in tb])
    rng = np.random.default_rng(stats._RNG_SEED)
    da = np.array([stats.centre_draws(x, rng, n_boot) for x in ta])       # sizes x draws
    db = np.array([stats.centre_draws(x, rng, n_boot) for x in tb])
    boots = [cross(da[:, i], db[:, i]) if np.isfinite(da[:, i]).all() and np.isfinite(db[:, i]).all() else None
             for i in range(n_boot)]
    return point, censored_interval(boots, ns[0], ns[-1]) if point is not None else None, (ns[0], ns[-1])


def censored_interval(draws, n_lo, n_hi):
    """The 95% interval of bootstrap crossovers, censored draws kept: a draw where ``a`` is faster
    from the smallest size (0) lies at or below ``n_lo``, one where it never crosses (None) beyond
    ``n_hi``; dropping either would narrow the interval towards the point (Hochberg's break-even
    had 35 of 400 draws at 0).  An end that falls among censored draws is 0 (at or below ``n_lo``)
    or inf (beyond ``n_hi``), never a number the data do not hold."""
    if not draws:
        return None
    beyond = n_hi * 1e6            # any value above n_hi sorts the never-crossing draws last
    x = np.array([beyond if d is None else d for d in draws], dtype=float)
    lo, hi = (float(q) for q in np.quantile(x, [0.025, 0.975]))
    return (0.0 if lo < n_lo else lo), (np.inf if hi > n_hi else hi)


def defaults():
    """Each algorithm's default (faithful) variant as text, or None: what a claim about 'the'
    algorithm measures."""
    return {a.name: (None if a.default_variant is None else str(a.default_variant)) for a in registry.ALGORITHMS.values()}


# Why a verdict row has no value in a column of the times beside it (a reader should not have to guess
# whether '-' means 'not measured' or 'does not apply'), by the claim's kind.
_NOT_A_TIME = {"limit": "a size limit, not a time", "crossover": "a crossing size; the times per size are in the report",
               "break_even": "a break-even size; the times per size are in the report",
               "trend": "a trend over sizes; the values per size are in the report",
               "ordering": "an ordering; the ratios per size are in the report",
               "exists": "an ordering; the ratios per graph are in the report", "occurrence": "a count of events, not a time",
               "value": "one ratio, in 'ours'", "average": "no average could be formed", "range": "no speed-up could be formed"}
_TIME_COLUMNS = ("ours_end_to_end", "ours_kernel", "best_cpu", "baseline_timed")


def _device(name):
    return registry.get(name).device if name in registry.ALGORITHMS else None


def _why_empty(row, col, claims=None):
    """What to show in an empty time column of a verdict row: why it does not apply (``claims``:
    the claims by id, for the devices of the claim's code and baseline)."""
    c = (claims or {}).get(row.get("claim"), {})
    a, b = _device(c.get("algorithm")), _device(c.get("baseline"))
    shown = {k: isinstance(row.get(k), str) and row[k] not in ("", tables.MISSING) for k in ("ours_end_to_end", "ours_kernel")}
    if row.get("verdict") == "not testable" and not any(shown.values()):
        return "n/a: not testable (the reason says why)"
    other = {"ours_end_to_end": "ours_kernel", "ours_kernel": "ours_end_to_end"}.get(col)
    if other and shown[other]:
        return ("n/a: the claim's quantity is kernel time; not timed end to end" if col == "ours_end_to_end"
                else "n/a: the quantity includes the host's work; no kernel-only time")
    if col == "best_cpu" and any(shown.values()):
        if a == "gpu" and b == "gpu":
            return "n/a: two GPU codes compared"
        if a == "cpu":
            return "n/a: a CPU code's own ratio"
        if b == "cpu":
            return "not formed: the divisor is the seed's own CPU code (in 'ours')"
        return "n/a: no baseline code"
    if col == "baseline_timed" and b != "cpu":
        return "n/a: the baseline is a GPU code" if b == "gpu" else "n/a: no baseline code"
    return "n/a: " + _NOT_A_TIME.get(row.get("kind"), "does not apply")


def table(rows, claims=None):
    """The verdict rows as a table, every empty time column saying why (``claims``: the claims by id,
    where the caller has them loaded already; otherwise read here)."""
    t = pd.DataFrame(rows).reindex(columns=COLUMNS)
    before = t.to_dict("records")                  # each fill is decided on the row as evaluated
    C = claims if claims is not None else claims_mod.load() if any(isinstance(r.get("claim"), str) for r in before) else {}
    for col in _TIME_COLUMNS:
        empty = (t[col].isna() | t[col].astype(str).isin(["", tables.MISSING])).to_numpy()
        t[col] = t[col].astype(object)
        t.loc[empty, col] = [_why_empty(r, col, C) for r, e in zip(before, empty) if e]
    return t


def _first_clause(s, cap=140):
    cut = min([i for i in (s.find(";"), s.find(": "), s.find(".  ")) if i > 0] or [len(s)])
    return s[:cut] if cut <= cap else s[:cap].rsplit(" ", 1)[0] + " ..."


def readings_table(notebook, claims=None):
    """The passages of the seed that bear on each of the notebook's claims where there are several
    (claims.readings: quoted with their place) and the reading its verdict tests; None if no claim has them."""
    C = claims or claims_mod.load()
    rows = [r for c in C.values() if c.get("notebook") == notebook for r in claims_mod.readings(c)]
    return tables.show(pd.DataFrame(rows)) if rows else None


def publish(notebook, rows, meas, reports_dir=None):
    """Write the notebook's verdict table where the index and notebook 07 find it
    (``<reports>/verdicts/<notebook>.csv``) and, for a run measured now, beside its records;
    returns the styled table to display (verdict words coloured)."""
    from ..paths import REPORTS
    t = table(rows).assign(device=device_of(meas.prov), results=str(M.rel(meas.run_dir)),
                           profile=meas.prov.get("profile", ""))
    d = (reports_dir or REPORTS) / "verdicts"
    d.mkdir(parents=True, exist_ok=True)
    t.to_csv(d / f"{notebook}.csv", index=False)
    if meas.measured_now:
        t.assign(notebook=notebook).to_csv(meas.run_dir / f"verdicts-{notebook}.csv", index=False)
    return style(t[SHOWN])


COLOURS = tables.VERDICT_COLOURS


def style(t):
    """A verdict table as the reports show it (tables.show: units in the headers, verdicts coloured)."""
    return tables.show(t)


def device_of(prov):
    return prov.get("gpu") or f"CPU only ({prov.get('cpu')})"
