"""Notebook 08's verdicts on the hochberg_* claims of data/claims.yaml, from a loaded Hochberg batch
(:mod:`.load`): each claim through the shared rules (method/rules) and verdict rows (method/verdicts.evaluate),
each reason ending in the sentence that says what its intervals rest on (:func:`.load.single_run`)."""
from __future__ import annotations

import numpy as np

from . import analysis as H
from ...method import estimate, order_rules, rules, verdicts as V
from .analysis import break_even, difference_points, exploration_sizes, faithful_runs, fixed_part, ordering_points, sanitizer, sm_slope
from .load import single_run
from .load import COLUMNS, GPU, GRAPHS, HIS_GRAPH, NEXT_HOP, NOSYNC, PITCH, TEXT, UNPADDED, lists_of, select_rows
from ...method.text import crossing_text, fmt, interval

def _geo_text(pts):
    return interval(*estimate.geometric_mean([p.est for p in pts]))


def verdict_rows(st, C):
    """One verdict row per hochberg_* claim of data/claims.yaml, each reason ending in the
    sentence on the processes its intervals rest on."""
    once, rows, df = single_run(st.raw if st.raw is not None else st.df), [], st.meas.df
    c = C["hochberg_difference_timing"]
    pts, dirp = difference_points(st, HIS_GRAPH), difference_points(st, "cycle_directed")
    dis = {g: select_rows(st.df, "cycles", GPU, graph=g, status="ok")["methods_disagree"].astype(str).str.lower().eq("true")
           for g in GRAPHS}
    r = V.evaluate(c, df, points=pts, note=(
        f"directed cycles: {_geo_text(dirp)}; his difference and the event time differ by more than two standard errors "
        f"at {int(dis[HIS_GRAPH].sum())} of {len(dis[HIS_GRAPH])} undirected and {int(dis['cycle_directed'].sum())} of "
        f"{len(dis['cycle_directed'])} directed sizes; {once}"))
    rows.append(dict(r, matched_n=V.compact_sizes([p[0] for p in pts]), ours_kernel=r["ours_text"]))
    c = C["hochberg_gpu_vs_cpu_break_even"]
    ker, dirx = break_even(st, HIS_GRAPH, "kernel_ms"), break_even(st, "cycle_directed")
    rows.append(V.evaluate(c, df, crossover=break_even(st, HIS_GRAPH), note=(
        f"kernel-only (events against the CPU's whole run): {crossing_text(*ker)}; directed cycles, end-to-end: "
        f"{crossing_text(*dirx)}; {once}")))
    c = C["hochberg_time_inverse_to_cores"]
    s, lo, hi, k = sm_slope(st)
    a, _ = fixed_part(st)
    r = V.evaluate(c, df, decided=rules.slope_rule(s, lo, hi, k, c["claimed"][0], float(c["tolerance"])), note=(
        f"his difference: slope {fmt(diff_slope(st))}; end-to-end: slope {fmt(sm_slope(st, 'with_ms_json')[0])}; "
        f"t = a + b/SMs fits a = {fmt(a)} ms that no SM count shortens; {once}"))
    rows.append(dict(r, ours=s, ci_lo=lo, ci_hi=hi, matched_n=f"n = {int(st.df.loc[st.df['stage'] == 'sm_scaling', 'n'].iloc[0])}",
                     ours_text=f"slope {fmt(s)} [{fmt(lo)}, {fmt(hi)}] over {k} SM counts"))
    san, log = sanitizer(st)
    c = C["hochberg_syncthreads_needed"]
    ns = select_rows(st.df, "race", NOSYNC)
    nosync = san.get("racecheck-nosync", (None, None, ""))
    r = V.evaluate(c, df, decided=order_rules.occurrence_rule(int(ns["wrong_runs"].sum()), int(ns["repeats"].sum()), True,
                                                         nosync[1]), note=(
        f"race detector: {nosync[2] or 'no log'} ({log.name if log else '-'}); with the barrier on the same inputs: "
        f"{int(select_rows(st.df, 'race', TEXT)['wrong_runs'].sum())} wrong of {int(select_rows(st.df, 'race', TEXT)['repeats'].sum())} runs; {once}"))
    rows.append(dict(r, ours_text=f"{int(ns['wrong_runs'].sum())} of {int(ns['repeats'].sum())} runs wrong"))
    c = C["hochberg_block_order_irrelevant"]
    wrong, runs = faithful_runs(st)
    rows.append(dict(V.evaluate(c, df, decided=order_rules.occurrence_rule(wrong, runs, False), note=once),
                     ours_text=f"{wrong} of {runs} runs wrong"))
    for cid, slower, sizes in (("hochberg_rows_faster_than_columns", COLUMNS, exploration_sizes(st)),
                               ("hochberg_padding_faster", UNPADDED, exploration_sizes(st, 32))):
        pts, e2e = (ordering_points(st, slower, TEXT, sizes, col) for col in ("event_ms_json", "with_ms_json"))
        r = V.evaluate(C[cid], df, ordering=pts, note=once + (f"; control: at n = {', '.join(map(str, controls(st)))} "
                       f"(every layout the same) the layouts' kernel medians lie {fmt(control_spread(st))}x apart"
                       if cid == "hochberg_padding_faster" and controls(st) else ""))
        rows.append(dict(r, matched_n=", ".join(map(str, sizes)), ours_kernel=_geo_text(pts), ours_end_to_end=_geo_text(e2e)))
    rows.append(V.evaluate(C["hochberg_works_to_20000"], df))
    raw = st.raw if st.raw is not None else st.df
    return V.with_leases(rows, raw["lease"].nunique() if "lease" in raw else 1)


def diff_slope(st):
    """Slope of log(his difference) on log(SMs) (one number per SM count: no interval)."""
    s = select_rows(st.df, "sm_scaling", GPU, status="ok")
    x = np.log(s["sm_granted"].to_numpy(float))
    return float(np.polyfit(x, np.log(s["difference_ms"].to_numpy(float)), 1)[0])


def controls(st):
    """Exploration sizes where padding to 32 or 64 changes nothing (n a multiple of 64)."""
    return [n for n in exploration_sizes(st) if n % 64 == 0]


def control_spread(st):
    """Largest / smallest kernel median of the identical layouts (Na % 64, % 32, = N) at the controls."""
    runs = (GPU, TEXT, UNPADDED)
    out = 1.0
    for n in controls(st):
        meds = [np.median(lists_of(select_rows(st.df, "explorations", r, n=n).iloc[0], "event_ms_json")) for r in runs]
        out = max(out, max(meds) / min(meds))
    return out


def findings(st):
    """The report's sentences, each computed from the recorded numbers: {'cycles', 'sm',
    'explorations', 'race'}."""
    pts = difference_points(st, HIS_GRAPH)
    r = np.array([p[1] for p in pts])
    t = select_rows(st.df, "cycles", GPU, graph=HIS_GRAPH, status="ok")
    dis = t["methods_disagree"].astype(str).str.lower().eq("true")
    lower = int((dis & (t["difference_ms"] < t["event_ms"])).sum())
    big = max(p[0] for p in pts)
    cpu_big = H.cycles(st, HIS_GRAPH).set_index("n").loc[big]
    out = {"cycles": (
        f"His difference of averages is {fmt(np.median(r))}x the event time (median over his {len(r)} undirected sizes, "
        f"{fmt(r.min())}x to {fmt(r.max())}x); at {int(dis.sum())} sizes the two differ by more than two standard errors, "
        f"his the lower at {lower} of them. His fw.c on the H100 is faster end-to-end than the 16-thread CPU blocked FW "
        f"from {crossing_text(*break_even(st, HIS_GRAPH))} on undirected cycles ({crossing_text(*break_even(st, 'cycle_directed'))} "
        f"on directed ones); counting the kernel alone, {crossing_text(*break_even(st, HIS_GRAPH, 'kernel_ms'))}. At n = {big} "
        f"the CPU takes {fmt(cpu_big['CPU (ms)'] / cpu_big['end-to-end (ms)'])}x the GPU's end-to-end time.")}
    sms, ts = H.sm_points(st)
    m = [np.median(x) for x in ts]
    s, lo, hi, _ = sm_slope(st)
    a, _ = fixed_part(st)
    n = int(st.df.loc[st.df["stage"] == "sm_scaling", "n"].iloc[0])
    out["sm"] = (f"From {sms[0]:.0f} to {sms[-1]:.0f} SMs the kernel time falls from {fmt(m[0])} ms to {fmt(m[-1])} ms: "
                 f"{fmt(m[0] / m[-1])}x for {fmt(sms[-1] / sms[0])}x the SMs, a log-log slope of {fmt(s)} [{fmt(lo)}, {fmt(hi)}] "
                 f"(-1 would be proportional). Fitting t = a + b/SMs leaves a = {fmt(a)} ms that no SM count shortens, "
                 f"{fmt(1000 * a / n)} us for each of the {n} pivot steps.")
    col = ordering_points(st, COLUMNS, TEXT, exploration_sizes(st))
    pad = ordering_points(st, UNPADDED, TEXT, exploration_sizes(st, 32))
    pitch = [p[1] for p in ordering_points(st, PITCH, GPU, exploration_sizes(st))]
    path = [ordering_points(st, NEXT_HOP, TEXT, exploration_sizes(st), c) for c in
            ("event_ms_json", "with_ms_json")]
    across = sum(p[2] <= 1 <= p[3] for p in pad)
    out["explorations"] = (
        f"Column blocks take {span_of(col)} the kernel time of his row blocks ({_ns(col)}). Without padding (Na = N) the "
        f"kernel takes {span_of(pad)} the padded one's ({_ns(pad)}), {across} of {len(pad)} intervals across 1"
        + (f"; at n = {', '.join(map(str, controls(st)))}, where every layout is the same, the layouts' medians lie "
           f"{fmt(control_spread(st))}x apart" if controls(st) else "")
        + f". cudaMallocPitch: {fmt(min(pitch))}x to {fmt(max(pitch))}x fw.c as shipped. The path matrix: kernel "
          f"{span_of(path[0])}, end-to-end {span_of(path[1])} the distances alone.")
    rc = H.race(st)
    ns = select_rows(st.df, "race", NOSYNC)
    out["race"] = (
        f"Without __syncthreads() {int(rc['wrong runs without the barrier (count)'].sum())} of {int(rc['runs (count)'].sum())} "
        f"runs were wrong, on {len(rc)} graph classes at n = {rc['sizes'].iloc[0]}; "
        f"{fmt(100 * ns['undershoots'].sum() / ns['wrong_entries'].sum())}% of the wrong entries lie below the true distance "
        f"(a path shorter than any there is). With the barrier: {int(rc['wrong runs with the barrier (count)'].sum())} "
        f"of {int(rc['control runs (count)'].sum())}.")
    return out


def span_of(pts):
    v = [p[1] for p in pts]
    return f"{fmt(min(v))}x to {fmt(max(v))}x"


def _ns(pts):
    return "n = " + ", ".join(f"{p[0]}: {interval(p[1], p[2], p[3])}" for p in pts)
