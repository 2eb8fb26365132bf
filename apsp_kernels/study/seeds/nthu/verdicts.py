"""One verdict row per ``nthu_*`` claim (seed 004), from notebook 09's records (:mod:`nthu_report`),
through :func:`verdicts.evaluate` and the rules of :mod:`rules` (orderings, values, a trend): no rule
of its own.  Each row says what its numbers rest on (processes and repeats, computed from the
records); the multi-GPU claims are 'not testable' with the reason while no two-GPU run is recorded."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....algorithms.gpu.fw_nthu import padded_size
from ....algorithms.gpu.multi import schedule
from ... import records
from ...method import estimate, order_rules, rules, verdicts as V
from .load import BLOCKS, MULTI, PENDING, source_of, SEED_PHASES, SEED_STAGES, SINGLE, span_of, basis, points, ratio, samples
from .scaling import weak_points
from ...method.text import fmt

UPDATES = ("branch", "select")
SHOWN = ["claim", "verdict", "where", "quote", "claimed", "decided_by", "matched_n", "ours_text", "ours_end_to_end",
         "ours_kernel", "per_size", "reason"]      # Kemp's and the CPU columns say nothing here: GPU codes against each other
# the brackets are 95% intervals over processes only where two or more ran (the reason says which): headed so
HEADERS = {"ours_text": "ours [interval]", "ours_end_to_end": "ours end-to-end, over the settings", "ours_kernel":
           "ours kernel-only, over the settings", "per_size": "per setting [interval]"}
LAUNCHES = ("dim3", "int")
MULTI_KERNEL = "b32-dim3-branch"     # the seed's final kernel: bs 32, one cell per thread
STAGE_KERNEL = "b64-dim3-branch"     # its stage table: "blocking factor 64, 6000 vertices"


def _k(n, bs, launch, update):
    return dict(n=n, bs=bs, launch=launch, update=update)


def _paper_n(c, df):
    ns = sorted(set(int(n) for n in df["n"])) if len(df) else []
    return [n for n in ns if n in set(c.get("paper_n") or [])] or ns


def _row(c, df, pts, e2e=None, note="", kind=None, extra=""):
    """evaluate() for an ordering (``kind`` 'ordering') or a value (points against the claimed band)."""
    kind = kind or c["kind"]
    row = V.evaluate(c, df, **({"ordering": pts} if kind == "ordering" else {"points": pts}), note=note)
    row.update(matched_n=", ".join(map(str, sorted({int(p[0].split(",")[0]) for p in pts}))) or "-",
               ours_kernel=span_of(pts), ours_end_to_end=span_of(e2e) if e2e else "-")
    for k in ("reason", "ours_text"):          # a point is a setting (n, bs, form), not only a size
        row[k] = row[k].replace(" sizes", " settings").replace(" size ", " setting ")
    if extra:
        row["reason"] += f"; {extra}"
    return row


def single_rows(C, df):
    """The six single-GPU claims."""
    if df is None or df.empty:
        return [V.evaluate({**C[c], "testable_here": False, "not_testable_reason": "no *-nthu-single run recorded"}, df)
                for c in SINGLE]
    why = basis(df)
    rows = []

    def both(c, pairs, col="kernel_ms"):
        return points(df, pairs, col), (points(df, pairs, "wall_ms") if col == "kernel_ms" else None)

    c = C["nthu_bigger_blocks_faster"]
    pairs = [(f"{n}, bs {a} vs {b}, dim3 {u}", _k(n, a, "dim3", u), _k(n, b, "dim3", u))
             for n in _paper_n(c, df) for u in UPDATES for a, b in zip(BLOCKS, BLOCKS[1:])]
    beside = [(f"{n}, bs {a} vs {b}, {u}", _k(n, a, "dim3", u), _k(n, b, "dim3", u))
              for n in sorted(set(df["n"]) - set(_paper_n(c, df))) for u in UPDATES for a, b in zip(BLOCKS, BLOCKS[1:])]
    more = points(df, beside, "kernel_ms")
    rows.append(_row(c, df, *both(c, pairs), note=why,
                     extra=f"beside, at n = {', '.join(map(str, sorted(set(df['n']) - set(_paper_n(c, df)))))}: the larger block "
                           f"faster at {sum(p[2] > 1 for p in more)} of {len(more)}" if more else ""))

    c = C["nthu_16_beats_32_dim3"]
    pairs = [(f"{n}, bs 32 / bs 16, dim3 {u}", _k(n, 32, "dim3", u), _k(n, 16, "dim3", u)) for n in _paper_n(c, df) for u in UPDATES]
    seed = sum(SEED_PHASES[32][1:]) / sum(SEED_PHASES[16][1:])
    rows.append(_row(c, df, *both(c, pairs), note=why, extra=f"the seed's own phase table: {fmt(seed)}x"))

    c = C["nthu_int_launch_32_best"]
    pairs = [(f"{n}, bs {a} / bs 32, int {u}", _k(n, a, "int", u), _k(n, 32, "int", u))
             for n in _paper_n(c, df) for u in UPDATES for a in (8, 16)]
    b64 = points(df, [(f"{n}, bs 32 / bs 64, int {u}", _k(n, 32, "int", u), _k(n, 64, "int", u))
                      for n in _paper_n(c, df) for u in UPDATES], "kernel_ms")
    rows.append(_row(c, df, *both(c, pairs), note=why,
                     extra=f"beside: bs 64 (2 x 2 cells per thread) is faster than 32 by {span_of(b64)}" if b64 else ""))

    c = C["nthu_branch_vs_select"]
    pairs = [(f"{n}, bs {bs}, {lo}", _k(n, bs, lo, "branch"), _k(n, bs, lo, "select"))
             for n in sorted(set(df["n"])) for bs in BLOCKS for lo in LAUNCHES]
    p3 = points(df, pairs, "phase3_ms")
    rows.append(_row(c, df, *both(c, pairs), note=why, extra=f"phase 3 alone: {span_of(p3)} settings"))

    c = C["nthu_phase1_launch_overhead"]
    pairs = [(f"{n}, phase 1 bs {a} / bs {b}, dim3 {u}", _k(n, a, "dim3", u), _k(n, b, "dim3", u))
             for n in _paper_n(c, df) for u in UPDATES for a, b in ((8, 16), (16, 32))]
    rows.append(_row(c, df, points(df, pairs, "phase1_ms"), note=why))

    c = C["nthu_phase3_vs_sequential_ratio"]
    pts = []
    seed_at = {int(bs): v for bs, v in c.get("seed_points", {}).items()}
    for n in _paper_n(c, df):
        for bs in (8, 16, 32):
            K = padded_size(n, bs) // bs
            sel = _k(n, bs, "dim3", "branch")
            v = ratio(samples(df, "phase1_ms", **sel), samples(df, "phase3_ms", **sel), K * K)
            if v[0] == v[0]:       # the tested reading: each blocking factor against the seed's own value at it
                pts.append(estimate.Point(f"{n}, bs {bs} (K = {K})", v, seed_at[bs]))
    seed = ", ".join(f"bs {bs}: {fmt(v)}x" for bs, v in seed_at.items())
    whole = rules.range_rule([p[:4] for p in pts], c["claimed"], float(c["tolerance"]))[0]
    rows.append(_row(c, df, pts, note=why, extra=f"the seed's own table: {seed} (bs 2 and 4 not timed here); the other "
                     f"reading, 'roughly 1000x' at each bs against [500, 2000]: {whole}"))
    return rows


def _m(n=None, P=None, sync=None, kernel=MULTI_KERNEL, label=None):
    sel = dict(kernel=kernel)
    sel.update({k: v for k, v in (("n", n), ("n_gpus", P), ("variant", sync), ("label", label)) if v is not None})
    return sel


def multi_rows(C, multi):
    """The five multi-GPU claims; the bytes per round are the schedule's (no GPU needed)."""
    rows = []
    for cid in MULTI:
        c = C[cid]
        if cid == "nthu_stage_bytes_per_round":
            rows.append(_stage_bytes(c, multi))
        elif multi is None or multi.empty:
            rows.append(V.evaluate({**c, "testable_here": False, "not_testable_reason": f"{PENDING}: no *-nthu-multi run "
                                    "recorded (commands in the README, NTHU section)"}, multi))
        else:
            rows.append(_multi(c, multi))
    return rows


def _used(df, sels):
    """The verified rows matching any of ``sels`` (a claim's settings): what its basis is computed over."""
    mask = pd.Series(False, index=df.index)
    for sel in sels:
        m = pd.Series(True, index=df.index)
        for k, v in sel.items():
            m &= df[k] == v
        mask |= m
    return df[mask & (df["status"] == "ok")] if "status" in df else df[mask]


def _basis(df, pairs):
    """:func:`basis` over the rows of ``pairs`` (both sides) only: a claim decided by one process's runs says so,
    however many other processes the notebook loaded."""
    return basis(_used(df, [p[1] for p in pairs] + [p[2] for p in pairs]))


def _slope_groups(multi, T, n, num, den):
    """One size's (numerator, denominator) per-process values for the slope (estimate.slope)."""
    return samples(multi, T, **num), samples(multi, T, **den)


def _weak_beside(multi):
    """The weak-scaling efficiencies (:func:`nthu_scaling.weak_points`), as a clause."""
    w = weak_points(multi, MULTI_KERNEL)
    w = w[w["variant"] == "row"]
    if w.empty:
        return ""
    return ("beside, weak scaling (n^2 per GPU fixed, efficiency T(1, n0) sqrt(P) / T(P, n0 sqrt P)): "
            + ", ".join(f"{fmt(100 * r.efficiency)}% from n0 = {int(r.n0)} (n = {r.n})" for r in w.itertuples()))


def _missing(c, multi, what):
    return V.evaluate({**c, "testable_here": False, "not_testable_reason": f"{PENDING}: the recorded two-GPU runs have no {what}"}, multi)


def _stage_bytes(c, multi):
    N = padded_size(6000, 64)
    pts = [estimate.Point(f"6000, {d}", estimate.exact(schedule.payload_bytes(d, 64, N) / 1e6 / mb))
           for d, mb in c["seed_points"].items()]
    row = _row(c, multi, pts, note="from the schedule the GPU ranks execute (bytes are arithmetic: no interval)")
    row["ours_text"] = "; ".join(f"{d}: {fmt(schedule.payload_bytes(d, 64, N) / 1e6)} MB" for d in c["seed_points"])
    row["ours_kernel"] = "-"
    return row


def _multi(c, multi):
    cid = c["id"]
    T = "kernel_ms_max"
    if cid == "nthu_multi_2gpu_speedup":
        ns = sorted(n for n in set(multi.loc[(multi["n_gpus"] == 2) & (multi["kernel"] == MULTI_KERNEL), "n"]) if n >= 16384)
        pairs = [(f"{n}, row", _m(n, 1, "row"), _m(n, 2, "row")) for n in ns]
        pts = points(multi, pairs, T)
        return _row(c, multi, pts, note=_basis(multi, pairs), extra=_weak_beside(multi)) if pts else \
            _missing(c, multi, "one- and two-GPU pair at n >= 16384 (row, bs 32)")
    if cid == "nthu_multi_poor_at_small_n":
        ns = sorted(set(multi.loc[(multi["n_gpus"] == 2) & (multi["variant"] == "row") & (multi["kernel"] == MULTI_KERNEL), "n"]))
        groups = {n: _slope_groups(multi, T, n, _m(n, 1, "row"), _m(n, 2, "row")) for n in ns}
        keep = [n for n in ns if len(groups[n][0]) and len(groups[n][1])]
        # a size whose ratio rests on one lease has no spread of its own: the slope is fitted over the others
        # (named in the reason) rather than given no interval at all
        single = [n for n in keep if estimate.ratio(*groups[n]).leases < 2]
        fit = [n for n in keep if n not in single]
        if len(fit) < 4:
            return _missing(c, multi, f"one- and two-GPU pairs at 4 or more sizes on two or more leases each "
                                      f"(row, bs 32; {len(fit)} found)")
        slope = estimate.slope(fit, [groups[n] for n in fit])
        pairs = [(f"{n}, row", _m(n, 1, "row"), _m(n, 2, "row")) for n in keep]
        pts = points(multi, pairs, T)
        row = V.evaluate(c, multi, decided=rules.trend_rule(*slope, len(fit), +1), note=_basis(multi, pairs))
        if single:
            row["reason"] += f"; n = {', '.join(map(str, single))} (one lease, no spread) shown, not in the slope"
        share = [np.median(estimate.lease_values(samples(multi, "comm_share", **_m(n, 2, "row")))) for n in (keep[0], keep[-1])]
        row.update(per_size="; ".join(f"n={p[0].split(',')[0]}: {fmt(p[1])}x" for p in pts), ours_kernel=span_of(pts),
                   matched_n=", ".join(map(str, keep)),
                   reason=row["reason"] + f"; broadcast share on two GPUs {fmt(100 * share[0])}% at n = {keep[0]}, "
                                          f"{fmt(100 * share[1])}% at n = {keep[-1]}")
        return row
    if cid == "nthu_stage_comm_share":
        order = ("whole", "rowcol", "row")
        pairs = [(f"6000, {a} / {b}", _m(6000, 2, a, STAGE_KERNEL), _m(6000, 2, b, STAGE_KERNEL)) for a, b in zip(order, order[1:])]
        pts = points(multi, pairs, "comm_share")
        seed = {d: 100 * (h + o) / (u + h + o) for d, (_, _, u, h, o) in SEED_STAGES.items()}
        return _row(c, multi, pts, note=_basis(multi, pairs), extra="the seed's Memcpy shares: " + ", ".join(f"{d} {fmt(v)}%" for d, v in seed.items())) \
            if len(pts) == 2 else _missing(c, multi, "two-GPU run of all three designs at n = 6000, bs 64")
    if cid == "nthu_multi_bandwidth_grows_with_bs":
        pairs = [(f"6000, bs {b} / bs {a}", _m(6000, 2, "row", f"b{b}-dim3-branch"), _m(6000, 2, "row", f"b{a}-dim3-branch"))
                 for a, b in zip(BLOCKS, BLOCKS[1:])]
        pts = points(multi, pairs, "bandwidth_GBps")
        return _row(c, multi, pts, note=_basis(multi, pairs)) if pts else _missing(c, multi, "two-GPU row-design runs at n = 6000 for bs 8 .. 64")
    raise KeyError(cid)


# ------------------------------------------------------------------ the statements of seed 004 tested last
ADDED = ("nthu_phase2_expected_ratio", "nthu_unrolled_32_vs_64", "nthu_multi_always_superior")


def added_rows(C, single, multi):
    """The rows of :data:`ADDED`: phase 2's expected ratio (one GPU), the unrolled bs 32 against bs 64 and 'always
    superior' (two GPUs)."""
    rows = []
    c = C["nthu_phase2_expected_ratio"]
    if single is None or single.empty:
        rows.append(V.evaluate({**c, "testable_here": False, "not_testable_reason": "no *-nthu-single run recorded"}, single))
    else:
        pts = []
        for n in _paper_n(c, single):
            for bs in (8, 16, 32):
                K = padded_size(n, bs) // bs
                sel = _k(n, bs, "dim3", "branch")
                v = ratio(samples(single, "phase2_ms", **sel), samples(single, "phase1_ms", **sel))
                if v[0] == v[0]:
                    pts.append(estimate.Point(f"{n}, bs {bs} (K = {K})", v, 2 * K))
        seed = ", ".join(f"bs {bs}: {fmt(SEED_PHASES[bs][2] / SEED_PHASES[bs][1])} against {2 * SEED_PHASES[bs][0]}"
                         for bs in SEED_PHASES)
        rows.append(_row(c, single, pts, note=basis(single), extra=f"the seed's own phase table (time ratio against 2K): {seed}"))
    c = C["nthu_unrolled_32_vs_64"]
    if multi is None or multi.empty:
        rows.append(V.evaluate({**c, "testable_here": False, "not_testable_reason": f"{PENDING}: no *-nthu-multi run "
                               "recorded"}, multi))
    else:
        pairs = [("6000, row, bs 64 / bs 32", _m(6000, 2, "row", "b64-dim3-branch"), _m(6000, 2, "row", MULTI_KERNEL))]
        pts = points(multi, pairs, "compute_ms_max" if "compute_ms_max" in multi else "compute_ms")   # the slowest rank's
        one = points(single, [("6000, one GPU, bs 64 / bs 32", _k(6000, 64, "dim3", "branch"), _k(6000, 32, "dim3", "branch"))],
                     "kernel_ms") if single is not None and not single.empty else []
        rows.append(_row(c, multi, pts, note=_basis(multi, pairs),
                         extra=f"beside, one GPU's kernel time: {span_of(one)}" if one else "") if pts
                    else _missing(c, multi, "two-GPU row-design runs at n = 6000 with bs 32 and bs 64"))
    c = C["nthu_multi_always_superior"]
    if multi is None or multi.empty:
        rows.append(V.evaluate({**c, "testable_here": False, "not_testable_reason": f"{PENDING}: no *-nthu-multi run "
                               "recorded"}, multi))
    else:
        ns = sorted(set(multi.loc[(multi["n_gpus"] == 2) & (multi["variant"] == "row") & (multi["kernel"] == MULTI_KERNEL), "n"]))
        pairs = [(f"{n}, row", _m(n, 1, "row"), _m(n, 2, "row")) for n in ns]
        pts = points(multi, pairs, "kernel_ms_max")
        if not pts:
            rows.append(_missing(c, multi, "one- and two-GPU pair (row, bs 32)"))
        else:
            row = _row(c, multi, pts, note=_basis(multi, pairs))
            v, why = order_rules.always_rule(pts)
            row.update(verdict=v, reason=why + "; " + _basis(multi, pairs),
                       per_size="; ".join(f"n={p[0].split(',')[0]}: {fmt(p[1])}x [{fmt(p[2])}, {fmt(p[3])}]" for p in pts))
            rows.append(row)
    return rows


def rows(C, single, multi):
    def leases(df):
        return df["lease"].nunique() if df is not None and len(df) and "lease" in df else 0
    both = pd.concat([d for d in (single, multi) if d is not None and len(d)]) if any(
        d is not None and len(d) for d in (single, multi)) else None
    return (V.with_leases(single_rows(C, single), leases(single)) + V.with_leases(multi_rows(C, multi), leases(multi))
            + V.with_leases(added_rows(C, single, multi), leases(both)))


def publish(notebook, rows, single_runs, multi_runs, reports_dir=None):
    """The notebook's verdict table where the index and notebook 07 find it, each row naming the cards, runs and
    profile its own number came from (:func:`load.source_of`): the one- and two-GPU claims rest on different runs
    on different cards.  Returns the table as written."""
    t = V.table(rows)
    src = [source_of(cid, single_runs, multi_runs) for cid in t["claim"]]
    return records.publish(notebook, t, device=[s[0] for s in src], results=[s[1] for s in src],
                           profile=[s[2] for s in src], reports_dir=reports_dir)
