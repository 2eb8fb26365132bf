"""Claims against measurements: one row per claim, decided by the rules in :mod:`rules`
at the paper's sizes, with the other time (kernel-only or end-to-end) and the best CPU code
beside it.  Notebooks call :func:`evaluate` (and publish.publish, above this floor, to write and
show the table); nothing here is written per notebook."""
from __future__ import annotations


import numpy as np
import pandas as pd

from . import claims as claims_mod
from ...algorithms import registry
from .speedups import fmt_points, geo_interval, kemp_vs_ours, matched_sizes, speedup_columns, speedup_pair
from ..words import KINDS, NOT_TESTABLE
from . import basis, estimate, order_rules, rules
from .text import MISSING, crossing_text, fmt, interval

COLUMNS = ["claim", "source", "quote", "where", "kind", "quantity", "paper_n", "matched_n", "claimed", "decided_by",
           "ours", "ci_lo", "ci_hi", "leases", "ours_text", "per_size", "ours_end_to_end", "ours_kernel", "best_cpu",
           "baseline_timed", "claimed_lo", "claimed_hi", "tolerance", "kemp", "kemp_vs_ours", "verdict", "basis", "analogue", "reason",
           "hardware", "notebook"]
SHOWN = ["claim", "verdict", "basis", "where", "quote", "claimed", "decided_by", "matched_n", "leases", "ours_text", "ours_end_to_end",
         "ours_kernel", "best_cpu", "baseline_timed", "kemp", "kemp_vs_ours", "reason"]


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


def _decide_aggregate(row, c, df, claimed, tol, m):
    if m["aggregate"] is None:
        return None
    val, lo, hi, text, *value_text = m["aggregate"]     # an average may give its value as a bracket
    row.update(ours=val, ci_lo=lo, ci_hi=hi, ours_text=text)
    m["at1"] = lambda: rules.aggregate_rule(val, lo, hi, claimed, 1.0, what=c.get("kind"))[0]
    return rules.aggregate_rule(val, lo, hi, claimed, tol, what=c.get("kind"), value_text=(value_text or [None])[0])


def _decide_range(row, c, df, claimed, tol, m):
    points = m["points"]
    if points is not None:
        # points of 5: each against its own claimed value (the seed's per-setting numbers: rules.points_rule)
        own = bool(points) and len(points[0]) == 5
        rule = (lambda t: rules.points_rule(points, t)) if own else (lambda t: rules.range_rule(points, claimed, t))
        m["at1"] = lambda: rule(1.0)[0]
        shown = [tuple(p[:4]) for p in points]
        g = tuple(_points_mean(points)) if shown else (np.nan,) * 3
        row.update(ours=g[0], ci_lo=g[1], ci_hi=g[2], ours_text=interval(*g) if shown else "-",
                   per_size="; ".join(f"n={n}: {interval(x, lo, hi, '')}" for n, x, lo, hi in shown))
        return rule(tol)
    e2e, ker = speedup_pair(df, c)
    dec = ker if c.get("time") == "kernel" else e2e
    ns, why = matched_sizes(c.get("paper_n"), dec["n"])
    d = dec[dec["n"].isin(ns)]
    if len(d) and "leases" in d:
        row["leases"] = int(d["leases"].min())
    points = list(d[["n", "speedup", "ci_lo", "ci_hi"]].itertuples(index=False, name=None))
    g = geo_interval(d)
    row.update(matched_n=", ".join(map(str, ns)) + (f" ({why})" if why else ""), ours=g[0], ci_lo=g[1], ci_hi=g[2],
               ours_text=f"{interval(*g)} (geometric mean over {len(d)} sizes{_span(d)})" if len(d) else "-",
               per_size=fmt_points(d), kemp_vs_ours=kemp_vs_ours(c, dec), **speedup_columns(df, c, ns, (e2e, ker)))
    # a claim over a grid of the paper's sizes (paper_n_step) is judged over that grid, not over ours
    grid = c.get("paper_n") if c.get("paper_n_step") else None
    m["at1"] = lambda: rules.range_rule(points, claimed, 1.0, grid=grid)[0]
    return rules.range_rule(points, claimed, tol, grid=grid)


def _points_mean(points):
    """The geometric mean of a rule's points, each an estimate.Point (a point without its estimate is an error:
    a mean's interval is read off the points' draws)."""
    missing = [p[0] for p in points if not hasattr(p, "est")]
    if missing:
        raise ValueError(f"points at {missing} carry no estimate: build them with estimate.Point")
    return estimate.geometric_mean([p.est for p in points])


def _span(d):
    """'; 3.6x at n = 1024, 14.8x at n = 12288': the smallest and largest size's values beside a mean, where they
    differ by more than 1.5x (a mean hides that; a new reader saw a mean inside the band and an 'inconclusive')."""
    d = d.sort_values("n")
    if len(d) < 2:
        return ""
    a, b = d.iloc[0], d.iloc[-1]
    if not (a["speedup"] > 0 and b["speedup"] > 0) or max(a["speedup"], b["speedup"]) < 1.5 * min(a["speedup"], b["speedup"]):
        return ""
    return f"; {fmt(a['speedup'])}x at n = {int(a['n'])}, {fmt(b['speedup'])}x at n = {int(b['n'])}"


def _decide_crossover(row, c, df, claimed, tol, m):
    x, ci, rng = m["crossover"] if m["crossover"] is not None else (None, None, None)
    row.update(ours=x if x is not None else np.nan, ci_lo=ci[0] if ci else np.nan, ci_hi=ci[1] if ci else np.nan,
               ours_text=crossing_text(x, ci, rng))
    up_to = claims_mod.crossing_up_to(c)
    m["at1"] = lambda: rules.crossover_rule(x, claimed, 1.0, rng, ci, advantage=c.get("advantage", "above"), up_to=up_to)[0]
    return rules.crossover_rule(x, claimed, tol, rng, ci, advantage=c.get("advantage", "above"), up_to=up_to,
                                tolerance_set=(claims_mod.tolerance_set(c["id"]) or {}).get("short", ""))


def _decide_ordering(row, c, df, claimed, tol, m):
    pts = m["ordering"] or []
    row.update(per_size="; ".join(f"n={n}: {interval(x, lo, hi)}" for n, x, lo, hi in pts),
               ours_text=(f"range {fmt(min(p[1] for p in pts))}x .. {fmt(max(p[1] for p in pts))}x over {len(pts)} sizes "
                          "(not a CI; the 'per size' column gives each one's)") if pts else "-")
    return order_rules.ordering_rule(pts)


def _decide_exists(row, c, df, claimed, tol, m):
    pts = m["ordering"] or []
    row.update(per_size="; ".join(f"n={n}: {interval(x, lo, hi)}" for n, x, lo, hi in pts))
    return order_rules.exists_rule(pts)


def _decided(row, c, df, claimed, tol, m):
    return m["decided"] or (NOT_TESTABLE, f"no {c.get('kind')} measured")


# each kind's rule, with what it measures by default: evaluate dispatches through this table
DECIDE = {"average": _decide_aggregate, "limit": _decide_aggregate, "range": _decide_range, "value": _decide_range,
          "crossover": _decide_crossover, "break_even": _decide_crossover, "ordering": _decide_ordering,
          "exists": _decide_exists, "trend": _decided, "occurrence": _decided}
assert set(DECIDE) == set(KINDS)


def evaluate(c, df, *, points=None, aggregate=None, crossover=None, ordering=None, decided=None, note=""):
    """One verdict row.  The default measurement follows the claim's ``kind`` (:data:`DECIDE`); a notebook
    may pass what it measured for claims of its own shape (``points``: [(n, v, lo, hi)], ``aggregate``:
    (v, lo, hi, text), ``crossover``: (n or None or 0, ci, measured range), ``ordering``: points (also of an
    ``exists`` claim), ``decided``: (verdict, reason) from a rule the notebook applied, for trends)."""
    row = _base_row(c)
    kind = c.get("kind")
    if not c.get("testable_here", True):
        row.update(verdict=NOT_TESTABLE, basis="-", reason=c.get("not_testable_reason") or "not testable here")
        return row
    measured = dict(points=points, aggregate=aggregate, crossover=crossover, ordering=ordering, decided=decided,
                    at1=None)      # the same rule at tolerance 1, where a decide function can re-apply it (basis.basis_of)
    decide = _decide_aggregate if aggregate is not None else DECIDE.get(kind)
    if decide is None:
        v, why = NOT_TESTABLE, f"unknown claim kind {kind!r}"
    else:
        tol = c.get("tolerance")
        if tol is None and (kind in claims_mod.TOLERANCE_KINDS or aggregate is not None):
            raise ValueError(f"claim {c.get('id')!r} ({kind}) has no tolerance: its rule needs one")
        got = decide(row, c, df, c.get("claimed"), float(tol) if tol is not None else None, measured)
        if got is None:         # an average or a limit needs its aggregate passed
            row.update(verdict=NOT_TESTABLE, reason="no measurement passed for this claim")
            return row
        v, why = got
    n_read = len(c.get("readings") or [])
    read = (f"; {n_read} passages of the seed bear on this claim (quoted under the verdicts of report "
            f"{c.get('notebook', '')[:2]}); tested: {_first_clause(c['tested_reading'])}") if n_read and c.get("tested_reading") else ""
    if c.get("analogue"):       # the seed's comparison is not the one made here: said first
        why = "analogue (not the seed's own comparison; claims.yaml analogue_note): " + why
    at1 = measured["at1"]
    row.update(verdict=v, reason=why + (f"; {note}" if note else "") + read, analogue=bool(c.get("analogue")),
               basis=basis.basis_of(c, v, at1() if at1 is not None and v == "reproduced" else None,
                                    ci=(row["ci_lo"], row["ci_hi"]), claimed=(row["claimed_lo"], row["claimed_hi"])))
    return row


def with_leases(rows, leases):
    """``rows`` with ``leases`` (the independent machine leases the batch's numbers rest on) where a row's
    rule did not set a smaller number of its own; a not-testable row rests on none."""
    for r in rows:
        if r.get("verdict") == NOT_TESTABLE:
            r["leases"] = 0
            continue
        if r.get("leases") is None or r.get("leases") != r.get("leases"):
            r["leases"] = int(leases)
        if r["leases"] < 2 and "one lease" not in str(r.get("reason")):
            r["reason"] = f"{r.get('reason')}; its numbers rest on one machine lease: no interval over independent leases"
    return rows


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
    shown = {k: isinstance(row.get(k), str) and row[k] not in ("", MISSING) for k in ("ours_end_to_end", "ours_kernel")}
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
        empty = (t[col].isna() | t[col].astype(str).isin(["", MISSING])).to_numpy()
        t[col] = t[col].astype(object)
        t.loc[empty, col] = [_why_empty(r, col, C) for r, e in zip(before, empty) if e]
    return t


def _first_clause(s, cap=140):
    cut = min([i for i in (s.find(";"), s.find(": "), s.find(".  ")) if i > 0] or [len(s)])
    return s[:cut] if cut <= cap else s[:cap].rsplit(" ", 1)[0] + " ..."
