"""The held-out checks of ``method="auto"``'s rules: each plan (``data/results/solver/*-plan.yaml``, committed before
its data: the graphs, the picks the rule makes on them, the criterion) paired with the rows measured under it (the
files beside it whose names start with the plan's, ``-plan.yaml`` dropped), and its criterion evaluated, one row per
graph, mode and subject.

Two kinds of rows: the structure suite's (a ``kind`` column: every code's warm call a mode, auto's own calls and its
first call) and ``scripts/e2e_scatter_probe.py``'s (``code``, ``mode``, ``round``: interleaved rounds, each code's
median taken). The bound is the suite's (:func:`~apsp_kernels.structure_suite.within_bound`: 1.25x + 2 ms)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .... import paths
from ....algorithms import registry
from ....structure_suite import PAST_BUDGET, within_bound
from ...method.text import fmt
from .plans import plans
from .suite import (KIND, MEDIAN, MODES, RESULT, against_fastest, probe_verdicts, recorded_pick, rounds_said,
                    verified)

WARM = {k: v for k, v in MODES.items() if k != "e2e_first_ms"}        # the modes a named code's rows hold
CALL, PICK = "auto's call", "the pick's row"
# Where a check was planned to tell a rule from its previous form: the previous form's pick there (a registry role)
# and the modes where they differ (its named rows are reported beside the verdicts, as those plans say; not part of
# the criterion).
PREVIOUS = {"device-frontier": ("auto_deep_graphs", ("e2e_device_ms",)),
            "second-frontier": ("auto_deep_graphs", ("e2e_device_ms",)),
            "host-depth": ("auto_frontier", ("e2e_ms", "e2e_int32_ms")),
            "device-depth": ("auto_frontier", ("e2e_device_ms",)),
            "shallow": ("auto_small_separators", ("e2e_device_ms",)),
            "host-touched": ("auto_frontier", ("e2e_ms",)),
            "lollipop-density": ("auto_deep_graphs", ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")),
            "narrow": ("auto_frontier", ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")),
            "host-62k": ("auto_small_separators", ("e2e_ms",))}


@dataclass
class Check:
    """One plan and the rows measured under it."""
    plan_file: Path
    plan: dict
    suite: pd.DataFrame          # structure-suite rows (empty where none)
    probe: pd.DataFrame          # e2e_scatter_probe rows (empty where none)
    row_files: list

    @property
    def tag(self):
        """The plan's name between its date and ``-plan.yaml`` (``few-vertices``, ``rules-check``)."""
        from ....cost_rows import FILE
        return FILE.match(self.plan_file.name.replace("-plan.yaml", ".csv")).group("tag")

    def runs(self):
        """Every invocation recorded in the rows' provenance files."""
        from ....measure import provenance
        return [i for f in self.row_files for i in provenance.invocations(f)]


def checks(where=None):
    """Every recorded plan with rows measured under it, in the order they were written (the plan's ``written``): the
    CSV files beside the plan whose names start with its own (and not with a longer plan's: ``...-denser-int32-check``
    is the ``denser-int32`` plan's, not the ``denser`` plan's), and the files its ``rows`` names (paths under the
    recorded results: a structure-suite run kept where the suite's readers look)."""
    d = paths.RECORDED / "solver" if where is None else Path(where)
    out = []
    found = plans(d)
    stems = [f.name.removesuffix("-plan.yaml") for f, _ in found]
    for (plan_file, plan), stem in zip(found, stems):
        longer = [o for o in stems if o != stem and o.startswith(stem)]
        files = sorted(f for f in d.glob(f"{stem}*.csv") if not any(f.name.startswith(o) for o in longer))
        files += [f for f in (paths.RECORDED / r for r in plan.get("rows") or ()) if f.exists()]
        if not files:
            continue
        frames = [pd.read_csv(f) for f in files]
        suite = [t for t in frames if "kind" in t]
        probe = [t for t in frames if {"code", "mode", "round"} <= set(t)]
        out.append(Check(plan_file, plan,
                         pd.concat(suite, ignore_index=True) if suite else pd.DataFrame(),
                         pd.concat(probe, ignore_index=True) if probe else pd.DataFrame(), files))
    return sorted(out, key=lambda c: str(c.plan.get("written", "")))


def verdicts(check):
    """One row per graph, mode and subject (auto's own call, the pick's own row, auto's median call): its time, the
    fastest verified GPU code's in that mode (auto's first call against the fastest warm float64 call, as the suite's
    summary), and whether it is within the bound."""
    return pd.DataFrame(_suite_verdicts(check.suite) + probe_verdicts(check.probe),
                        columns=["graph", "n", "subject", "mode", "code", "ms", "fastest", "fastest_ms", "within"])


def _suite_verdicts(rows):
    out = []
    if not len(rows):
        return out
    for (g, n), t in rows.groupby(["graph", "n"], sort=False):
        gpu = verified(t, "gpu")
        a = t[t.kind == "auto"].iloc[0]
        own = gpu.set_index("algorithm")
        for mode, ms, fastest, fastest_ms, within in against_fastest(a, gpu):      # auto's call, as the suite's table
            base = dict(graph=g, n=int(n), code=_pick(a, mode))
            out.append(dict(base, subject=CALL, mode=mode, ms=ms, fastest=fastest, fastest_ms=fastest_ms, within=within))
            if mode in WARM:                                                          # the picked code, named
                pick = float(own[mode].get(base["code"], float("nan")))
                out.append(dict(base, subject=PICK, mode=mode, ms=pick, fastest=fastest, fastest_ms=fastest_ms,
                                within=bool(within_bound(pick, fastest_ms))))
    return out


def _pick(a, mode):
    """auto's pick for ``mode``'s result (:func:`~.suite.recorded_pick`), its host pick where the row records none
    for the device."""
    return recorded_pick(a, KIND[mode]) or a.picked


RESULT_WORDS = {"host": "to the host", "int32": "int32 to the host", "device": "on the device"}


def picks(check):
    """Per planned graph and result (host, device, and int32 where the plan predicts it apart): the pick the plan
    predicted and the one recorded (:func:`~.suite.recorded_pick`: a suite auto row names its host pick, its device
    pick where it has ``picked_device``, its int32 pick where it has ``picked_int32``, else the host pick, which then
    served both; the probe's rows name the pick of each mode)."""
    out = []
    for p in check.plan["graphs"]:
        g, n = p["graph"], p["n"]
        s = check.suite
        if len(s):
            a = s[(s.graph == g) & (s.n == n) & (s.kind == "auto")]
            for result in p["predicted_pick"] if len(a) else ():
                got = recorded_pick(a.iloc[0], result)
                if got:
                    out.append(dict(graph=g, n=n, result=result, planned=p["predicted_pick"][result], recorded=got))
        q = check.probe
        if len(q):
            a = q[(q.graph == g) & (q.n == n) & (q.code == "auto")]
            result_of = a["mode"].map(KIND if "int32" in p["predicted_pick"] else RESULT)   # int32 apart if planned
            for result in p["predicted_pick"]:
                got = set(a[result_of == result].picked)
                if got:
                    out.append(dict(graph=g, n=n, result=result, planned=p["predicted_pick"][result],
                                    recorded=", ".join(sorted(got))))
    return pd.DataFrame(out, columns=["graph", "n", "result", "planned", "recorded"])


def unmeasured(check):
    """The (graph, n) pairs of the plan its run did not reach (its ``not_measured``, written after the data with a
    ``deviation`` saying why)."""
    return {(g["graph"], int(g["n"])) for g in check.plan.get("not_measured") or ()}


def measured_graphs(check):
    """The (graph, n) pairs the rows hold."""
    pairs = set()
    for t in (check.suite, check.probe):
        if len(t):
            pairs |= {(g, int(n)) for g, n in t[["graph", "n"]].drop_duplicates().itertuples(index=False)}
    return pairs


def finding(check, after=None):
    """The check's sentences, computed: picks as planned, the pick's rows and auto's own calls against the bound, each
    miss with its numbers; with ``after`` (interleaved rounds measured after the check: ``suite.load_scatter``), the
    verdict on each missed graph those rounds hold, by their medians (post hoc)."""
    v, pk = verdicts(check), picks(check)
    same = int((pk.planned == pk.recorded).sum())
    kinds = [f"{t.groupby(['graph', 'n']).ngroups} {w}" for t, w in
             ((check.suite, _in_suite(check.suite)), (check.probe, "in interleaved rounds")) if len(t)]
    said = str(check.plan.get("what", "")).strip().rstrip(".")
    label = "Held-out check" if said.startswith("Held-out") else "Check"      # a plan that says it is not held out
    what = re.sub(r"^(Held-out check|Check),?\s*", "", said)                 # "of <the rules>..."
    out = [f"**{label} `{check.tag}`** {what}; planned "
           f"{str(check.plan.get('written', '?'))[:16].replace('T', ' ')} UTC (`{check.plan_file.name}`, the rules at "
           f"{str(check.plan.get('rule_commit', '?'))[:7]}). {_graphs(v.groupby(['graph', 'n']).ngroups)} (a graph: a "
           f"class at one n; {' and '.join(kinds)}); auto's pick was the planned one in {same} of {len(pk)} (graph, "
           "result) pairs (each graph's pick in each result the plan predicts and its rows record)."
           + (" Rows: " + ", ".join(f"`{Path(f).name}`" for f in check.row_files) + "." if check.row_files else "")]
    if check.plan.get("deviation"):                     # a change of the plan after its data: said first
        out.append(f"*Deviation from the plan:* {str(check.plan['deviation']).strip()}")
    if check.plan.get("budget"):                        # codes the plan left out by their bound, and why
        out.append(f"*Budget (the plan's):* {str(check.plan['budget']).strip()}" + _left_out(check.suite))
    for subject, what in ((PICK, "The picked code's own row"), (CALL, "`auto`'s own call"),
                          (MEDIAN, "`auto`'s median call")):
        s = v[v.subject == subject]
        if not len(s):
            continue
        per = s.groupby(["graph", "n"], sort=False).within.all()
        words = [MODES[m] for m in dict.fromkeys(s["mode"])]
        modes = ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
        miss = s[~s.within]
        timed = "every mode" if s.groupby(["graph", "n"]).size().nunique() == 1 else "every mode it was timed in"
        said = (f"{what} was within 1.25x + 2 ms of the fastest verified GPU code in {timed} ({modes}) on "
                f"{int(per.sum())} of {'the ' if subject == MEDIAN else ''}{len(per)} graphs"
                f"{(' in rounds ' + _where(s)).rstrip() if subject == MEDIAN else ''}")
        if len(miss):
            said += "; past it: " + "; ".join(f"{r.graph} {r.n:,} {MODES[r.mode]} ({_who(r)}: {r.ms:.1f} ms; the "
                                              f"fastest, {r.fastest} named: {r.fastest_ms:.1f})" for r in miss.itertuples())
        out.append(said + ".")
    if len(check.suite):
        gpu = verified(check.suite, "gpu")
        best = gpu.loc[gpu.groupby(["graph", "n"]).e2e_device_ms.idxmin()].algorithm.value_counts()
        out.append("The fastest verified code with the result on the device: "
                   + ", ".join(f"`{code}` on {k}" for code, k in best.items()) + f" of {int(best.sum())}.")
    if check.tag in PREVIOUS:
        out.append(_previous(check))
    if after is not None and len(after):
        again = _again(v[(v.subject != MEDIAN) & ~v.within], after)
        if again:
            out.append("Measured again after the check (post hoc; interleaved rounds, the scatter table above): "
                       + "; ".join(again) + ".")
    return " ".join(out)


def _left_out(rows):
    """' Not run by it: `tuned_fw` on knn 65,536, grid 65,536; ...' from the suite rows ``rows`` whose code the
    budget left out (``structure_suite --skip-past-s``: an error 'not run: at least ...'), or ''."""
    if not len(rows) or "error" not in rows:
        return ""
    out = rows[rows.error.astype(str).str.startswith(PAST_BUDGET)]
    if not len(out):
        return ""
    said = [f"`{code}` on {', '.join(f'{r.graph} {r.n:,}' for r in t.itertuples())}"
            for code, t in out.groupby("algorithm", sort=False)]
    return " Not run by it: " + "; ".join(said) + "."


def _in_suite(rows):
    """'in the structure suite', with how its warm calls were timed where some were timed in rounds
    (``structure_suite --rounds``: ``e2e_rounds``)."""
    each = rounds_said(rows)
    if not each:
        return "in the structure suite"
    return (f"in the structure suite, each warm call the median of {each} interleaved rounds (auto's first call one "
            "call)")


def _graphs(k):
    return f"{k} graph" + ("" if k == 1 else "s")


def previous(check):
    """Per graph and mode of :data:`PREVIOUS`: the previous form's pick, named (its warm row; where it was not timed
    end to end, its kernels alone, a bound from below), against the fastest verified GPU code, and whether it is
    past 1.25x + 2 ms."""
    role, modes = PREVIOUS[check.tag]
    code = registry.by_role(role).name
    out = []
    for (g, n), t in _named(check):
        for mode in modes:
            fastest = t[mode].min()
            ms = t.at[code, mode] if code in t.index else float("nan")
            timed = ms == ms or code not in t.index
            if not timed:                                   # not timed end to end: its kernels alone
                ms = t.at[code, "kernel_ms"]
            out.append(dict(graph=g, n=int(n), mode=mode, code=code, ms=float(ms), end_to_end=timed,
                            fastest=t[mode].idxmin(), fastest_ms=float(fastest), past=not within_bound(ms, fastest)))
    return pd.DataFrame(out)


def _named(check):
    """Per (graph, n) the named GPU codes' times, one row a code (index) and a column a mode: the suite's verified
    rows (with ``kernel_ms``), or the interleaved rounds' medians."""
    if len(check.suite):
        named = verified(check.suite, "gpu").groupby(["graph", "n"], sort=False)
        return [(k, t.set_index("algorithm")) for k, t in named]
    q = check.probe[check.probe.code != "auto"]
    return [(k, t.groupby(["code", "mode"]).ms.median().unstack()) for k, t in q.groupby(["graph", "n"], sort=False)]


def _previous(check):
    p = previous(check)
    code = p.code.iloc[0]
    pk = picks(check)
    result = {RESULT[m] for m in p["mode"]}
    differ = {(g, int(n)) for g, n, r, got in pk[["graph", "n", "result", "recorded"]].itertuples(index=False)
              if r in result and got != code}
    per = p.groupby(["graph", "n"], sort=False)
    parts = []
    for (g, n), t in per:
        miss = t[t.past]
        if not len(miss):
            continue
        r = miss.iloc[0]
        what = (f"{r.ms:,.1f} ms" if r.end_to_end else f"its kernels alone {r.ms:,.1f} ms (a bound from below)")
        against = " and ".join(f"{x.fastest}'s {x.fastest_ms:,.1f} {MODES[x.mode]}" for x in miss.itertuples())
        times = miss.ms / (1.25 * miss.fastest_ms + 2)
        over = (f"{times.iloc[0]:.2f}x the bound" if len(miss) == 1 else f"at least {times.min():.2f}x the bound in each")
        parts.append(f"{g} {n:,}: {what} against {against}, {over}"
                     + ("" if (g, n) in differ else " (the rule picked it there too)"))
    modes = ", ".join(MODES[m] for m in dict.fromkeys(p["mode"]))
    said = (f"The previous form's pick here, `{code}`, named ({modes}; reported beside the criterion, not part of "
            f"it): the two forms picked different codes on {len(differ)} of {per.ngroups} graphs; `{code}` was past "
            f"the bound on {sum(t.past.any() for _, t in per)}")
    said += (": " + "; ".join(parts) if parts else "") + "."
    won = _faster_where_they_differ(check, pk, code, differ, list(dict.fromkeys(p["mode"])))
    if won is not None:
        said += (f" Where the forms differ, the present form's pick, named, was the faster of the two in {won[0]} of "
                 f"{won[1]} (graph, mode) pairs.")
    return said


def _faster_where_they_differ(check, pk, code, differ, modes):
    """(pairs where the present form's pick, named, beat the previous form's ``code``, pairs compared) over the
    graphs of ``differ`` and ``modes`` where both were timed end to end; None where none were.  ``pk``:
    :func:`picks` of the check."""
    recorded = pk.set_index(["graph", "n", "result"]).recorded
    won = compared = 0
    for (g, n), t in _named(check):
        if (g, int(n)) not in differ:
            continue
        for mode in modes:
            now = recorded.get((g, n, RESULT[mode]))
            if now == code or now not in t.index or code not in t.index:
                continue
            ms, before = t.at[now, mode], t.at[code, mode]
            if pd.notna(ms) and pd.notna(before):
                compared += 1
                won += bool(ms < before)
    return (won, compared) if compared else None


def _who(r):
    """A verdict row's subject in words: auto's call names the code it ran, a pick's row the code itself."""
    return f"{r.code}'s own row" if r.subject == PICK else f"auto, running {r.code}"


def _where(s):
    """The graphs of median calls, by name (they sit in a table of their own): all of them, or, where some were
    past the bound, those within."""
    ok = s.groupby(["graph", "n"], sort=False).within.all()
    names = [f"{g} {n:,}" for (g, n), within in ok.items() if within]
    return "(" + ("" if ok.all() else "within: ") + ", ".join(names) + ")" if names else ""


def _again(missed, after):
    """Per missed graph that ``after`` (e2e_scatter_probe rows) holds with auto: auto's median call against the
    fastest median in each mode, past or within."""
    out = []
    for (g, n), _ in missed.groupby(["graph", "n"], sort=False):
        rows = after[(after.graph == g) & (after.n == n)]
        if "auto" not in set(rows.code):
            continue
        v = pd.DataFrame(probe_verdicts(rows))
        past = v[~v.within]
        rounds = int(rows["round"].nunique())
        out.append(f"{g} {n:,} ({rounds} rounds) " + (
            "within in every mode" if not len(past) else
            "past in " + ", ".join(f"{MODES[r.mode]} (auto's median {r.ms:.1f} ms against {r.fastest}'s {r.fastest_ms:.1f})"
                                    for r in past.itertuples())
            + (", within " + ", ".join(MODES[m] for m in v[v.within]["mode"]) if v.within.any() else "")))
    return out


TABLE_CAPTION = ("Each cell: the subject's time against the fastest verified GPU code's in that mode (ms; that code "
                 "named), 'past' "
                 "where it is beyond 1.25x + 2 ms. auto's call: `method=\"auto\"` itself, its choice included, one "
                 "warm call (first call: on a new graph object, against the fastest warm float64 call); the pick's "
                 "row: the code auto picked, named. Median call: the median over interleaved rounds of each code "
                 "(scripts/e2e_scatter_probe.py).")


def tables(check):
    """The check's tables, one per kind of rows (structure suite, interleaved rounds): one row per graph, the planned
    and recorded picks (one name where it is the same in every result the plan predicts, else each result's), and
    each subject's time against the fastest in each mode."""
    v, pk = verdicts(check), picks(check)
    out = []
    for part in (v[v.subject != MEDIAN], v[v.subject == MEDIAN]):
        rows = []
        for (g, n), t in part.groupby(["graph", "n"], sort=False):
            p = pk[(pk.graph == g) & (pk.n == n)]
            planned = next((len(q["predicted_pick"]) for q in check.plan["graphs"] if (q["graph"], q["n"]) == (g, n)), 0)
            one = len(p) == planned                 # every result the plan predicts was timed: one name if one pick
            by = lambda col: (" / ".join(dict.fromkeys(p[col])) if one and p[col].nunique() == 1 else
                              "; ".join(f"{RESULT_WORDS[r]}: {x}" for r, x in zip(p.result, p[col])))
            r = {"graph": g, "n (vertices)": n, "planned pick, by result": by("planned"), "auto ran": by("recorded")}
            for x in t.itertuples():
                r[f"{x.subject}, {MODES[x.mode]} (ms)"] = (f"{fmt(x.ms, 4)} vs {fmt(x.fastest_ms, 4)} {x.fastest}"
                                                          + ("" if x.within else ", past"))
            rows.append(r)
        if rows:
            out.append(pd.DataFrame(rows))
    return out
