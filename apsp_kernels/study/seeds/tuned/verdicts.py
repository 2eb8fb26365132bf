"""The tuned line's numeric targets, evaluated from the rows of one tuned benchmark run (:func:`.load.read`).

Targets are set for one H100 and do not move; each criterion gives ``met``, ``not met``, ``failed`` (the tuned
code's row at that size is unverified: wrong distances or an error; its time is never used) or ``not measured``,
with the reason computed from the rows.  A code with several variants (tuned_sparse's batches) is judged by its
fastest verified variant, and fails if any of its variants failed at that size; a baseline whose rows failed has no
time (its criterion is not measured).  Several rows of one code, variant and size (several invocations) count by
their median."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....algorithms import registry
from ...method import codes
from ...method.text import fmt
from .load import STATUS_COLOURS, limit_label, rate

TARGET_N = 16384                  # "at n = 16384"
DEGREE = (3.5, 4.5)               # "degree 4": the benchmark's Kemp graph at 16384 has m / n = 4.03
HARDWARE = "H100"                 # "one H100"
_C = codes.load("tuned")        # data/codes.yaml: the codes each target names
FW, OOC, SPARSE = (_C[k].algorithm for k in ("fw", "ooc", "sparse"))
# the sparse target's baselines, variants as the rows carry them ('' for none: load.read)
CPU_BASE, HARISH = ((_C[k].algorithm, _C[k].variant or "") for k in ("sparse_over_cpu", "sparse_over_gpu"))
BUDGET_COLUMNS = ("budget_bytes", "device_budget_bytes")    # the device memory given to an out-of-core solve
TARGETS = {"1": f"{FW}: register-tiled blocked FW", "2": f"{OOC}: out-of-core with overlap",
           "3": f"{SPARSE}: batched multi-source"}
COLUMNS = ["target", "criterion", "required", "measured", "status", "reason", "value", "required_value", "score"]


def _row(target, criterion, required, status, reason, measured="-", value=np.nan, required_value=np.nan, score=np.nan):
    """``score``: measured against required, >= 1 where met (for the figure)."""
    return dict(target=f"{target}. {TARGETS[target]}", criterion=criterion, required=required, measured=measured,
                status=status, reason=reason, value=value, required_value=required_value, score=score)


NO_RUN = "no tuned benchmark has been recorded yet"


def _absent(name, df):
    why = NO_RUN if df.empty else f"no {name} row in the run"
    if name not in registry.ALGORITHMS:
        why += f"; {name} is not in this registry yet"
    return why


def pick(df, algorithm, n, variant=None):
    """(best, failed) at n: the fastest verified variant's median row (None if none) and the failed rows."""
    d = df[(df["algorithm"] == algorithm) & (df["n"] == n)]
    if variant is not None:
        d = d[d["variant"] == variant]
    bad = d[~d["verified"]]
    good = d[d["verified"] & d["kernel_ms"].notna()]
    if good.empty:
        return None, bad
    med = good.groupby("variant").agg(kernel_ms=("kernel_ms", "median"), updates_per_s=("updates_per_s", "median"),
                                      fraction_of_limit=("fraction_of_limit", "median"), m=("m", "first"),
                                      limit=("limit", "median"), limit_kind=("limit_kind", "first"),
                                      device=("device", "first")).reset_index()
    best = med.loc[med["kernel_ms"].idxmin()].copy()
    best["n"] = n
    return best, bad


def _failed(code, bad):
    errs = sorted({str(e) for e in bad["error"].dropna() if str(e)})
    v = sorted(set(bad["variant"].replace("", "-")))
    return (f"{code} FAILED at n = {', '.join(str(int(x)) for x in sorted(set(bad['n'])))} (variant {', '.join(v)}: "
            + ("; ".join(errs) if errs else "distances differ from the reference") + "); its time is not used")


def _sizes(df, algorithm):
    ns = sorted(set(df.loc[df["algorithm"] == algorithm, "n"].dropna().astype(int)))
    return f" (its rows: n = {', '.join(map(str, ns))})" if ns else ""


def _device(status, reason, *rows):
    """Targets are set for one H100: a number from another device is shown but not judged."""
    devs = sorted({str(r["device"]) for r in rows if r is not None})
    if any(HARDWARE not in d for d in devs):
        return "not measured", f"measured on {', '.join(devs)}, not an {HARDWARE}: the targets are set for one {HARDWARE}; " + reason
    return status, reason


def _variant(r):
    return f"/{r['variant']}" if r["variant"] else ""


def target_fw(df):
    out = []
    best, bad = pick(df, FW, TARGET_N)
    crit = (("throughput at n = 16384", "≥ 13.5 T updates/s", 13.5e12, "updates_per_s"),
            ("fraction of the int32 add-min limit measured in the same run", "≥ 80%", 0.8, "fraction_of_limit"))
    for c, req, need, col in crit:
        if len(bad):
            out.append(_row("1", c, req, "failed", _failed(FW, bad)))
        elif best is None:
            why = _absent(FW, df) if not (df["algorithm"] == FW).any() else f"no {FW} row at n = {TARGET_N}{_sizes(df, FW)}"
            out.append(_row("1", c, req, "not measured", why))
        elif best[col] != best[col]:
            out.append(_row("1", c, req, "not measured", f"{FW} at n = {TARGET_N} has no {col} (no limit in its row)"))
        else:
            v = float(best[col])
            shown = rate(v) if col == "updates_per_s" else f"{fmt(100 * v)}%"
            status = "met" if v >= need else "not met"
            why = (f"{FW}{_variant(best)} at n = {TARGET_N}: {fmt(best['kernel_ms'])} ms, {rate(best['updates_per_s'])} "
                   f"against the {limit_label(best['limit_kind'])} of {rate(best['limit'])} measured in the same run")
            status, why = _device(status, why, best)
            out.append(_row("1", c, req, status, why, shown, v, need, v / need))
    return out


def target_ooc(df):
    out = []
    c1, r1 = f"kernel time against {FW}'s at every n where both ran", "≤ 1.3x"
    ooc_rows, fw_rows = df[df["algorithm"] == OOC], df[df["algorithm"] == FW]
    bad = ooc_rows[~ooc_rows["verified"]]
    if ooc_rows.empty:
        out.append(_row("2", c1, r1, "not measured", _absent(OOC, df)))
    elif len(bad):
        out.append(_row("2", c1, r1, "failed", _failed(OOC, bad)))
    else:
        ratios, used = {}, []
        for n in sorted(set(ooc_rows["n"]) & set(fw_rows["n"])):
            o, _ = pick(df, OOC, n)
            f, fbad = pick(df, FW, n)
            if o is not None and f is not None and fbad.empty:
                ratios[int(n)] = o["kernel_ms"] / f["kernel_ms"]
                used += [o, f]
        if not ratios:
            out.append(_row("2", c1, r1, "not measured", f"no n where both {OOC} and {FW} have verified rows"
                            f"{_sizes(df, OOC)}; {FW}{_sizes(df, FW) or ': none'}"))
        else:
            n_worst = max(ratios, key=ratios.get)
            v = float(ratios[n_worst])
            why = (f"worst at n = {n_worst}; " + ", ".join(f"n = {n}: {fmt(r)}x" for n, r in ratios.items()))
            status, why = _device("met" if v <= 1.3 else "not met", why, *used)
            out.append(_row("2", c1, r1, status, why, f"{fmt(v)}x", v, 1.3, 1.3 / v))
    c2, r2 = "largest verified matrix (4 n^2 bytes) over the device memory budget given to it", "≥ 4x"
    col = next((c for c in BUDGET_COLUMNS if c in df and df.loc[df["algorithm"] == OOC, c].notna().any()), None)
    if ooc_rows.empty:
        out.append(_row("2", c2, r2, "not measured", _absent(OOC, df)))
    elif col is None:
        out.append(_row("2", c2, r2, "not measured", f"the {OOC} rows carry no device memory budget "
                        f"(a column {' or '.join(BUDGET_COLUMNS)})"))
    else:
        d = ooc_rows[ooc_rows[col].notna() & (pd.to_numeric(ooc_rows[col], errors="coerce") > 0)].copy()
        d["ratio"] = 4.0 * d["n"] ** 2 / pd.to_numeric(d[col])
        good = d[d["verified"]]
        if len(bad):
            out.append(_row("2", c2, r2, "failed", _failed(OOC, bad)))
        elif good.empty:
            out.append(_row("2", c2, r2, "not measured", f"no verified {OOC} row with a budget"))
        else:
            r = good.sort_values(["ratio", "n"]).iloc[-1]     # the largest ratio; of equal ones, the largest n
            v = float(r["ratio"])
            why = f"n = {int(r['n'])} ({fmt(4 * r['n'] ** 2 / 2 ** 30)} GiB) in a {fmt(r[col] / 2 ** 30)} GiB budget, verified"
            status, why = _device("met" if v >= 4 else "not met", why, r)
            out.append(_row("2", c2, r2, status, why, f"{fmt(v)}x", v, 4.0, v / 4))
    return out


def target_sparse(df):
    out = []
    best, bad = pick(df, SPARSE, TARGET_N)
    for (name, variant), need in ((CPU_BASE, 10.0), (HARISH, 30.0)):
        code = name + (f"/{variant}" if variant else "")
        c, req = f"speed-up over {code} at n = {TARGET_N}, degree 4", f"≥ {fmt(need)}x"
        if len(bad):
            out.append(_row("3", c, req, "failed", _failed(SPARSE, bad)))
            continue
        if best is None:
            why = (_absent(SPARSE, df) if not (df["algorithm"] == SPARSE).any()
                   else f"no verified {SPARSE} row at n = {TARGET_N}{_sizes(df, SPARSE)}")
            out.append(_row("3", c, req, "not measured", why))
            continue
        deg = best["m"] / TARGET_N
        if not DEGREE[0] <= deg <= DEGREE[1]:
            out.append(_row("3", c, req, "not measured", f"the graph at n = {TARGET_N} has degree {fmt(deg)}, not 4"))
            continue
        same = df[df["m"] == best["m"]]
        base, bbad = pick(same, name, TARGET_N, variant)
        if base is None:
            why = (f"the baseline {code} failed at n = {TARGET_N}: no time" if len(bbad) else
                   f"no {code} row on the same graph at n = {TARGET_N} (the benchmark's --cpu / --algorithms add it)")
            out.append(_row("3", c, req, "not measured", why))
            continue
        cpu = bool(registry.ALGORITHMS.get(name)) and registry.get(name).device == "cpu"
        v = float(base["kernel_ms"] / best["kernel_ms"])
        e2e = end_to_end(same, best, base, name, variant)
        why = (f"{SPARSE}{_variant(best)} {fmt(best['kernel_ms'])} ms (fastest verified batch), {code} {fmt(base['kernel_ms'])} ms"
               f" ({'wall' if cpu else 'kernel'} time), m = {int(best['m'])} (degree {fmt(deg)})")
        shown = (f"{fmt(v)}x kernel-only" + (" (GPU kernel / CPU wall time)" if cpu else "") + "; "
                 + (f"{fmt(e2e)}x end to end" if e2e == e2e else "end to end not measured"))
        if cpu and e2e != e2e:
            # a CPU's wall time over a GPU kernel time divides unlike times: no verdict on it alone
            status, why = _device("not measured", why + "; the rows carry no end-to-end time of the GPU code, and a CPU "
                                  "wall time over a GPU kernel time is no speed-up a user sees", best)
            out.append(_row("3", c, req, status, why, shown))
            continue
        v = e2e if cpu else v
        status, why = _device("met" if v >= need else "not met", why, best)
        out.append(_row("3", c, req, status, why, shown, v, need, v / need))
    return out


def end_to_end(df, best, base, name, variant):
    """The end-to-end speed-up (baseline's wall_ms / the tuned code's wall_ms, medians at the same size and
    graph) where the rows carry a wall time of both, else NaN (the benchmark rows record kernel time only)."""
    if "wall_ms" not in df:
        return np.nan
    def wall(algorithm, v):
        d = df[(df["algorithm"] == algorithm) & (df["n"] == TARGET_N) & df["verified"]]
        d = d[d["variant"] == v] if v is not None else d
        return float(pd.to_numeric(d["wall_ms"], errors="coerce").median()) if len(d) else np.nan
    return wall(name, variant) / wall(SPARSE, best["variant"])


def evaluate(df):
    """Every criterion of the tuned line's targets 1-3 from one run's rows (:func:`.load.read`): a DataFrame of
    :data:`COLUMNS`, one row per criterion."""
    return pd.DataFrame(target_fw(df) + target_ooc(df) + target_sparse(df), columns=COLUMNS)


def overall(rows):
    """Per target: failed if a criterion failed, else not met if one was not met, else not measured if one was
    not measured, else met."""
    order = ("failed", "not met", "not measured", "met")
    return rows.groupby("target", sort=False)["status"].agg(lambda s: next(o for o in order if o in set(s))).reset_index()


def style(rows):
    """The targets table as a report shows it, each status in its colour."""
    from ...show.tables import show
    return show(rows[["target", "criterion", "required", "measured", "status", "reason"]]).map(
        lambda v: f"color: {STATUS_COLOURS[v]}; font-weight: bold" if v in STATUS_COLOURS else "")
