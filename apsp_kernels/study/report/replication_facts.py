"""Every number of the replication report, computed from the recorded data only (no GPU): the reference verdict
rows, data/claims.yaml, the algorithm registry, data/analysis-changes.csv and the provenance and result rows of the
recorded batches the verdict rows name.  The report (replication.py) only arranges what this returns; a number
that the records do not hold is left out, never typed."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import yaml

from ... import paths
from ..method import changes
from ..show import signed
from . import compare, reasons
from . import findings_text as FT
from .forest import SEED_NAMES

CITATION = paths.ROOT / "CITATION.cff"


def claim_numbers(claims):
    """{claim id: 'C1'..} in data/claims.yaml's order (the report's scope numbers them so)."""
    return {cid: f"C{i}" for i, cid in enumerate(claims, 1)}


def results_table(v, claims):
    """One row per claim in claims.yaml's order: number, the claim in words, the paper's number, ours with its
    interval, the signed verdict and what it rests on."""
    num = claim_numbers(claims)
    rows = {r["claim"]: r for r in v.to_dict("records")}
    out = []
    for cid in claims:
        r = rows.get(cid)
        if r is None:
            continue
        out.append({"no": num[cid], "claim": cid, "words": FT.claim_words(cid, claims),
                    "seed": FT.seed_of((claims.get(cid) or {}).get("where", r.get("where"))),
                    "paper": reasons._txt(r.get("claimed")) or "-", "ours": reasons._txt(r.get("ours_text")) or "-",
                    "verdict": signed.verdict_text(r), "basis": reasons._txt(r.get("basis")) or "-"})
    return pd.DataFrame(out)


def _provenances(folders):
    found = []
    for d in folders:
        for f in sorted(Path(d).rglob("provenance*.json")):
            p = json.loads(f.read_text())
            p["batch"] = Path(d).name
            found.append(p)
    return found


def _cuda(v):
    """13020 -> '13.2' (the runtime's integer version)."""
    try:
        v = int(v)
    except (TypeError, ValueError):
        return "-"
    return f"{v // 1000}.{(v % 1000) // 10}"


def environment(folders):
    """The distinct software and hardware stacks of the batches' processes: GPU, driver, CUDA runtime, CuPy,
    Python, CPU, with how many processes and batches ran on each."""
    rows = [{"GPU": (f"{p['gpu_count']} x " if p.get("gpu_count") else "") + str(p.get("gpu", "-")),
             # a version reads as a number: its header says what it is (the reports' rule: a unit in every header)
             "driver (version)": str(p.get("nvidia_driver", "-")),
             "CUDA runtime (version)": _cuda(p.get("cuda_runtime_version")),
             "CuPy (version)": str(p.get("cupy", "-")), "Python (version)": str(p.get("python", "-")),
             "CPU": str(p.get("cpu", "-")),
             "batch": p["batch"]} for p in _provenances(folders)]
    if not rows:
        return pd.DataFrame()
    t = pd.DataFrame(rows)
    keys = ["GPU", "driver (version)", "CUDA runtime (version)", "CuPy (version)", "Python (version)", "CPU"]
    return (t.groupby(keys).agg(**{"processes (count)": ("batch", "size"), "batches (count)": ("batch", "nunique")})
            .reset_index().sort_values("processes (count)", ascending=False, kind="stable").reset_index(drop=True))


def cost(folders):
    """What the recorded batches cost: processes, machine leases (distinct boot ids) and the timed seconds summed
    over their result rows (a lower bound on device time: start-up, compilation and idle time are not in it)."""
    prov = _provenances(folders)
    timed = spared = 0.0
    for d in folders:
        for f in Path(d).rglob("*.csv"):
            head = pd.read_csv(f, nrows=0).columns
            if "wall_ms" not in head or "algorithm" not in head:
                continue
            t = pd.read_csv(f, usecols=lambda c: c in ("wall_ms", "estimate", "sample_work_ms"), low_memory=False)
            est = t["estimate"].astype(str).eq("sampled") if "estimate" in t else pd.Series(False, index=t.index)
            # a sampled row's wall_ms is the extrapolated whole run; what ran is its sample's time
            timed += float(t.loc[~est, "wall_ms"].fillna(0).sum())
            timed += float(t.loc[est, "sample_work_ms"].fillna(0).sum()) if "sample_work_ms" in t else 0.0
            spared += float(t.loc[est, "wall_ms"].fillna(0).sum())
    return {"batches": len(folders), "processes": len(prov),
            "leases": len({p.get("boot_id") for p in prov if p.get("boot_id")}),
            "timed_hours": timed / 3.6e6, "extrapolated_hours": spared / 3.6e6,
            "measured_commits": sorted({str(p.get("git_commit", ""))[:7] for p in prov if p.get("git_commit")}),
            "first": min((p.get("timestamp", "") for p in prov), default=""),
            "last": max((p.get("timestamp", "") for p in prov), default="")}


def codes(v, claims):
    """The codes the verdicts time, split into faithful re-implementations of the papers' kernels and this study's
    own (the best CPU codes, explorations), and the tuned line that enters no verdict."""
    from ...algorithms import registry
    used = set()
    for cid in v["claim"]:
        own, base = reasons._codes(claims.get(cid) or {})
        used |= {n for n, _ in own + base if n in registry.ALGORITHMS}
    for cell in v.get("best_cpu", pd.Series(dtype=str)).dropna():
        got = FT.best_cpu_of(cell)
        if got and got[3] in registry.ALGORITHMS:
            used.add(got[3])
    algs = [registry.get(n) for n in sorted(used)]
    tuned = [a for a in registry.ALGORITHMS.values() if not a.faithful and a.name not in used and a.device == "gpu"]
    return {"faithful_gpu": [a.label for a in algs if a.faithful and a.device == "gpu"],
            "faithful_cpu": [a.label for a in algs if a.faithful and a.device != "gpu"],
            "ours": [a.label for a in algs if not a.faithful],
            "tuned": [a.label for a in tuned]}


def baselines(v):
    """How the divisors were timed: {'measured': n, 'sampled': n, 'measured, sampled': n} over the rows with one."""
    t = v.get("baseline_timed", pd.Series(dtype=str)).dropna().astype(str)
    t = t[~t.str.startswith("n/a")]
    return t.value_counts().to_dict()


def leases(v):
    """{machine leases a verdict rests on: number of claims} over the rows that were measured."""
    n = pd.to_numeric(v.get("leases"), errors="coerce").dropna()
    n = n[n > 0]
    return {int(k): int(c) for k, c in n.value_counts().sort_index().items()}


def tolerances(claims):
    """{tolerance: number of claims} over data/claims.yaml, and the dated changes of kind tolerance."""
    t = pd.Series([c.get("tolerance") for c in claims.values()]).dropna()
    counts = {float(k): int(n) for k, n in t.value_counts().sort_index().items()}
    rows = [r for r in changes.load() if r["kind"] == "tolerance"]
    return counts, rows


def method_changes():
    """The analysis changes made after some batch had been measured, and the last change a verdict can follow."""
    rows = changes.load()
    after = [r for r in rows if r["batches_before"] and r["kind"] in changes.METHOD_KINDS]
    return {"all": len(rows), "after_measuring": len(after), "last": changes.last_change(rows)}


def correctness_rows(fail):
    """The codes that returned wrong distances, labelled, with whether the failing variant is the published form
    (the registry's variants allowed to give wrong distances) of a paper's kernel."""
    from ...algorithms import registry
    out = []
    for r in fail.to_dict("records"):
        a = registry.ALGORITHMS.get(r["algorithm"])
        out.append(dict(r, label=a.label if a else r["algorithm"], paper=a.paper if a else "-",
                        published=bool(a and a.faithful and r["variant"] in a.inexact_variants)))
    return pd.DataFrame(out)


def threats(v, table, claims):
    """Counts of the circumstances that limit what a verdict says, from the rows and their reasons."""
    kinds = table["kinds"].str.split()
    n = lambda kind: int(kinds.apply(lambda k: kind in k).sum())
    named = pd.Series([reasons._paper_gpu(r, claims.get(r["claim"]) or {})[0] is not None for r in v.to_dict("records")])
    lease = pd.to_numeric(v.get("leases"), errors="coerce")
    return {"stand_in": n("stand_ins"), "one_thread": n("one_thread"), "sampled": n("sampled"),
            "no_gpu_named": int((~named).sum()), "analogue": n("analogue"),
            "tolerance_only": int((v.get("basis") == "within tolerance only").sum()),
            "computed": int((v.get("basis") == "computed").sum()),
            "few_leases": int(((lease > 0) & (lease < compare.LEASES)).sum()),
            "not_testable": int((v["verdict"] == "not testable").sum())}


def references():
    """The seeds as CITATION.cff lists them: one line each."""
    refs = yaml.safe_load(CITATION.read_text()).get("references", [])
    out = []
    for r in refs:
        who = ", ".join(a.get("name") or f"{a.get('given-names', '')} {a.get('family-names', '')}".strip()
                        for a in r.get("authors", []))
        where = (r.get("institution") or {}).get("name", "")
        out.append(", ".join(x for x in (who, f"“{r.get('title', '')}”", r.get("thesis-type", ""), where,
                                         str(r.get("year", "")), r.get("url", ""), r.get("notes", "")) if x))
    return out


def seeds(v, claims):
    """The seeds in order, each with its name and verdict counts."""
    seen = sorted({FT.seed_of((claims.get(c) or {}).get("where", w)) for c, w in zip(v["claim"], v["where"])})
    return [(s, SEED_NAMES.get(s, f"seed {s}")) for s in seen]


def commit():
    """The commit of the code that writes the report (git), or None outside a git checkout."""
    import subprocess
    try:
        return subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=paths.ROOT, capture_output=True,
                              text=True, check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def best_cpu_range(v):
    """The lowest and highest speed-up of a GPU code over the best CPU code here among the rows, or None."""
    got = [g for g in (FT.best_cpu_of(x) for x in v.get("best_cpu", pd.Series(dtype=str)).dropna()) if g]
    vals = [float(re.match(r"[\d.]+", g[0]).group(0)) for g in got if re.match(r"[\d.]+", g[0])]
    return (min(vals), max(vals)) if vals else None
