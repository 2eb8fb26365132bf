"""Notebook 11 ("the same H100 with code written today"): the benchmark files of the tuned line,
the hardware limits measured in the same runs, and its numeric targets evaluated from the rows.

Files: ``python -m apsp_kernels bench --tag tuned`` writes ``<device>-<date>-tuned.csv`` (and its
``.provenance.json``) into ``data/results/benchmarks/``; an untagged ``<device>-<date>.csv`` is a benchmark of
the faithful kernels.  The tuned run is every file tagged ``tuned*`` of the newest date (one device); the
reference is the newest untagged file, whose faithful kernels are drawn beside the tuned line.

Which codes are "tuned" is the registry's word (GPU APSP codes with ``faithful=False``); a name in a file
that the registry does not know (a code of another branch) is shown as such, never dropped.  A row with
``verified`` false gave wrong distances or raised: it is shown as failed and never used as a time.  A target
is *met*, *not met*, *failed* (its code's row at that size is unverified) or *not measured*, always with
the reason, computed from the rows; where nothing was measured, no number is shown."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .... import costs
from ....algorithms import registry
from ....measure import provenance
from ... import records
from ...method.text import fmt

NB = "11_tuned"
TAG = "tuned"
NAME = costs.FILE                 # <device>-<date>[-<tag>].csv
COLUMNS = ["algorithm", "variant", "n", "m", "kernel_ms", "updates_per_s", "limit_kind", "limit", "fraction_of_limit",
           "verified", "device"]
NOT_RUN = "no tuned benchmark (data/results/benchmarks/*-tuned.csv) has been recorded yet"
DEVICE_COMMAND = "scripts/tuned_bench.sh"      # on one H100, the wheel bundle .whl carried (README: the tuned line)
STATUSES = ("met", "not met", "failed", "not measured")
STATUS_COLOURS = {"met": "#1a7f37", "not met": "#cf222e", "failed": "#cf222e", "not measured": "#57606a"}
# what each limit kind is (bench.py measures the first two; a kind this table does not know is shown by its name)
LIMIT_WHAT = {"minplus": "int32 add-min, min(a, b + c): register-only microkernel",
              "bandwidth": "device copy bandwidth (read + write) / 8 bytes per update",
              "pcie": "pinned host-device copies (PCIe)"}


def limit_label(kind):
    return {"minplus": "int32 add-min limit", "bandwidth": "copy-bandwidth limit",
            "pcie": "PCIe limit"}.get(kind, f"{kind} limit")


def rate(v):
    """'14.1 T updates/s', '365 G updates/s', '95.4 M updates/s'."""
    for scale, unit in ((1e12, "T"), (1e9, "G"), (1e6, "M")):
        if abs(v) >= scale:
            return f"{fmt(v / scale)} {unit} updates/s"
    return f"{fmt(v)} updates/s"


# ------------------------------------------------------------------ the registry's view
def tuned_codes():
    """The tuned line as the registry lists it: GPU APSP codes that do not follow a paper (explorations aside)."""
    return [a.name for a in registry.by_device("gpu") if not a.faithful and not a.exploration]


def line_of(algorithm):
    """'tuned', 'faithful', 'CPU' or 'not in this registry' (a code another branch adds)."""
    a = registry.ALGORITHMS.get(algorithm)
    if a is None:
        return "not in this registry"
    return "CPU" if a.device == "cpu" else "faithful" if a.faithful else "tuned"


# ------------------------------------------------------------------ files
@dataclass
class Bench:
    df: pd.DataFrame                               # every row (``source``: its file), COLUMNS first
    files: list = field(default_factory=list)      # the CSV files read
    provs: list = field(default_factory=list)      # one provenance per invocation

    @property
    def measured(self):
        return not self.df.empty

    @property
    def device(self):
        return ", ".join(sorted(set(self.df["device"].dropna().astype(str)))) if self.measured else None

    @property
    def date(self):
        m = NAME.match(self.files[0].name) if self.files else None
        return m.group("date") if m else ""

    @property
    def commits(self):
        return sorted({str(p.get("git_commit"))[:12] for p in self.provs if p.get("git_commit")})


def _dirs(where=None):
    return [Path(where)] if where else list(costs.benchmark_folders())


def benchmark_files(where=None):
    """{file name: path} of every benchmark CSV under ``where`` (this machine's results, then the recorded ones)."""
    out = {}
    for d in _dirs(where):
        if d.is_dir():
            for f in sorted(d.glob("*.csv")):
                if NAME.match(f.name):
                    out.setdefault(f.name, f)
    return out


def _tuned_files(where):
    tuned = [(NAME.match(k), f) for k, f in benchmark_files(where).items()]
    return [(m, f) for m, f in tuned if (m.group("tag") or "").startswith(TAG)]


def tuned_dates(where=None):
    """The dates of the recorded tuned runs (each one batch: the study registry's), oldest first."""
    return sorted({m.group("date") for m, _ in _tuned_files(where)})


def find_tuned(where=None, date=None):
    """The tuned run: every ``*-tuned*.csv`` of the newest date (or ``date``), of that date's first device by
    name (an H100 before others); [] where none exists.  ``where``: a folder, or one CSV file (then just that file)."""
    if where and Path(where).suffix == ".csv":
        return [Path(where)] if Path(where).exists() else []
    tuned = _tuned_files(where)
    if not tuned:
        return []
    date = date or max(m.group("date") for m, _ in tuned)
    devices = sorted({m.group("device") for m, _ in tuned if m.group("date") == date}, key=lambda d: ("H100" not in d, d))
    return sorted(f for m, f in tuned if m.group("date") == date and m.group("device") == devices[0])


def find_reference(where=None):
    """The newest untagged benchmark file (the faithful kernels), or None."""
    plain = [(NAME.match(k).group("date"), k, f) for k, f in benchmark_files(where).items() if not NAME.match(k).group("tag")]
    return max(plain)[2] if plain else None


def read(files):
    """The rows of ``files`` as one table: variant as text ('' for none), verified a bool (a missing or
    unreadable flag is False), ``source`` the file, ``line`` tuned / faithful / CPU (the registry's word)."""
    frames = []
    for f in files:
        t = pd.read_csv(f, dtype={"variant": str, "limit_kind": str, "device": str})
        t["source"] = Path(f).name
        frames.append(t)
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS + ["source"])
    for c in COLUMNS + ["error"]:
        if c not in df:
            df[c] = np.nan
    df["variant"] = df["variant"].fillna("").astype(str).str.replace(r"\.0$", "", regex=True)
    df["limit_kind"] = df["limit_kind"].fillna("").astype(str)
    df["error"] = df["error"].astype(object).where(df["error"].notna(), "")
    df["verified"] = df["verified"].map(lambda v: str(v).strip().lower() == "true")
    for c in ("n", "m", "kernel_ms", "updates_per_s", "limit", "fraction_of_limit"):
        df[c] = pd.to_numeric(df[c], errors="coerce")
    df["line"] = df["algorithm"].map(line_of)
    df["code"] = df["algorithm"] + np.where(df["variant"] != "", "/" + df["variant"], "")
    return df


def load(files):
    files = [Path(f) for f in files if f]
    return Bench(read(files), files, [p for f in files for p in provenance.invocations(f)])


def load_tuned(where=None):
    return load(find_tuned(where))


def load_reference(where=None):
    f = find_reference(where)
    return load([f] if f else [])


# ------------------------------------------------------------------ where the numbers come from
def note(bench, ref):
    """Where the report's numbers come from, in one paragraph."""
    src = f"`{ref.files[0].name}` ({ref.device}, {ref.date})" if ref.measured else ""
    if not bench.measured:
        refs = (f" The figure shows the faithful kernels and the limits of the benchmark {src} alone." if ref.measured
                else " No untagged benchmark of the faithful kernels is recorded either.")
        return (f"**Not measured yet**: {NOT_RUN}. Every target below is *not measured*; no tuned number is shown. "
                f"On one H100: `{DEVICE_COMMAND}` (the wheel bundle carried), then copy the `*-tuned.csv` and its "
                "`.provenance.json` from its output into `data/results/benchmarks/` and commit them." + refs)
    refs = (f" The faithful kernels that run did not time are drawn beside it, fainter, from {src}: another run, so "
            "compare fractions of the limit, not rows." if ref.measured else
            " No untagged benchmark of the faithful kernels is recorded.")
    commit = ", ".join(bench.commits) or "not recorded"
    return (f"**Recorded benchmark** of the tuned line: {bench.device}, {bench.date}, "
            f"{', '.join(f'`{records.rel(f)}`' for f in bench.files)} ({len(bench.provs)} invocation{'s' if len(bench.provs) != 1 else ''}, commit {commit}). "
            "Each row's limit was measured by its own invocation; kernel time (CUDA events; a CPU row's wall time). "
            + verification(bench.df) + refs)


def verification(df):
    bad = df[~df["verified"]]
    if df.empty:
        return ""
    if bad.empty:
        return f"All {len(df)} rows verified against the CPU reference (Fletcher-64 of the exact distances)."
    return (f"**{len(bad)} of {len(df)} rows FAILED verification or raised** ({', '.join(sorted(set(bad['code'])))}): "
            "shown as failed, never used as a time.")


def record_source(bench):
    """The index's 'numbers from' cell (reports/sources/11_tuned.json)."""
    records.record_source(NB, list(bench.files), device=bench.device, date=bench.date, commit=", ".join(bench.commits),
                          missing=None if bench.measured else f"no device measurement yet: {NOT_RUN}")


# ------------------------------------------------------------------ limits and rows
def limits(df):
    """{kind: median limit (updates/s)} of a run's rows (each invocation measured its own)."""
    d = df[(df["limit_kind"] != "") & df["limit"].notna()]
    return {k: float(g.median()) for k, g in d.groupby("limit_kind")["limit"]}


def limits_table(bench, ref=None):
    """One row per limit kind the run measured, and per kind a registered tuned code is judged against but
    no run measured (then 'not measured')."""
    rows = []
    for name, b in (("tuned run", bench), ("faithful reference run", ref)):
        if b is None or not b.measured:
            continue
        d = b.df[(b.df["limit_kind"] != "") & b.df["limit"].notna()]
        for k, g in d.groupby("limit_kind")["limit"]:
            what = LIMIT_WHAT.get(k, f"{k} (as the benchmark measured it)")
            if k == "bandwidth":
                what += f": {fmt(g.median() * 8 / 1e12)} TB/s"
            rows.append({"run": f"{name} ({b.date})", "limit": limit_label(k), "what": what,
                         "median (G updates/s)": g.median() / 1e9, "lowest (G updates/s)": g.min() / 1e9,
                         "highest (G updates/s)": g.max() / 1e9, "invocations (count)": int(g.nunique())})
    seen = {r["limit"] for r in rows}
    for name in tuned_codes():
        k = registry.get(name).limit_kind
        if k and limit_label(k) not in seen:
            rows.append({"run": "-", "limit": limit_label(k), "what": f"{LIMIT_WHAT.get(k, k)}: not measured "
                         f"(the limit {name} is judged against)", "median (G updates/s)": np.nan,
                         "lowest (G updates/s)": np.nan, "highest (G updates/s)": np.nan, "invocations (count)": 0})
            seen.add(limit_label(k))
    return pd.DataFrame(rows, columns=["run", "limit", "what", "median (G updates/s)", "lowest (G updates/s)",
                                       "highest (G updates/s)", "invocations (count)"])


def rows_table(df):
    """Every row of a run as a reader sees it (failed rows with their error, no time)."""
    t = df.sort_values(["line", "algorithm", "variant", "n"], key=lambda s: s.map(_line_order) if s.name == "line" else s)
    ok = t["verified"]
    return pd.DataFrame({
        "line": t["line"], "algorithm": t["algorithm"], "variant": t["variant"].replace("", "-"), "n": t["n"].astype("Int64"),
        "m (count)": t["m"].astype("Int64"), "kernel time (ms)": t["kernel_ms"].where(ok),
        "throughput (G updates/s)": (t["updates_per_s"] / 1e9).where(ok & (t["limit_kind"] != "")),
        "limit kind": t["limit_kind"].replace("", "-"), "of the limit (%)": (100 * t["fraction_of_limit"]).where(ok),
        "verified": t["verified"].map({True: "yes", False: "FAILED"}), "error": t["error"]})


def _line_order(v):
    return {"tuned": 0, "not in this registry": 1, "faithful": 2, "CPU": 3}.get(v, 4)


def per_n(df, code):
    """Median updates/s, fraction and kernel time per n of one code's verified rows."""
    d = df[(df["code"] == code) & df["verified"] & df["kernel_ms"].notna()]
    return d.groupby("n")[["updates_per_s", "fraction_of_limit", "kernel_ms"]].median().reset_index()


def closing(df):
    """One sentence per tuned code (and variant) of the run: its throughput at its largest verified size, the
    fraction of the limit measured in the same run, its size range, and its failed rows."""
    out = []
    for code in sorted(set(df.loc[df["line"].isin(["tuned", "not in this registry"]), "code"])):
        d = df[df["code"] == code]
        s = per_n(df, code)
        bad = sorted(set(d.loc[~d["verified"], "n"].astype(int)))
        if s.empty:
            out.append(f"`{code}`: no verified row (failed at n = {', '.join(map(str, bad))}).")
            continue
        top = s.iloc[-1]
        kind = d["limit_kind"].iloc[0]
        frac = (f", {fmt(100 * top['fraction_of_limit'])}% of the {limit_label(kind)} measured in the same run"
                if kind and top["fraction_of_limit"] == top["fraction_of_limit"] else "")
        if frac and top["fraction_of_limit"] > 1:      # say what a fraction above 100% means, never hide it
            frac += (" (above 100%: the limit is what the benchmark's micro-kernel reaches in the same run, "
                     "a measured rate rather than the hardware's peak, and this code beats it)")
        lo, hi = int(s["n"].min()), int(s["n"].max())
        out.append(f"`{code}`: {rate(top['updates_per_s'])} at n = {int(top['n'])}{frac}; verified at "
                   f"n = {lo if lo == hi else f'{lo}-{hi}'} ({len(s)} size{'s' if len(s) > 1 else ''})"
                   + (f"; FAILED at n = {', '.join(map(str, bad))}" if bad else "") + ".")
    return out
