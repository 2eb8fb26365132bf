"""A user's run beside the reference: the study's findings are the recorded reference verdicts, whatever was just
rendered; what a render measured on the user's machine is a comparison with them, claim by claim.

Pure functions over two verdict tables (the reference's and the notebooks' ``reports/verdicts/<nb>.csv``, each row
naming its ``device``, ``results`` and ``profile``) and the records' provenance:

* :func:`measured_here` -- the rows whose numbers are not the reference's (their ``results`` is another run);
* :func:`outcome` -- per claim *same verdict*, *different verdict* (which way) or *not decidable at this profile*
  (what would decide it: the paper's sizes, three machine leases, memory the GPU lacks; a smoke run decides nothing);
* :func:`compare` -- the comparison table; :func:`sentence` -- it in one sentence;
* :func:`refused_sizes`, :func:`versions` -- what the user's machine lacks: sizes its memory refused, other
  CUDA / CuPy versions than the reference's."""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from ... import paths
from ..show import signed
from .findings_text import fmt, num, ours_of

# The reference batch the findings are read from; its verdicts.csv covers every claim of every study (the other
# studies' rows name their own batches in ``results``).
REFERENCE_BATCH = "20261124-235000-paper-campaign"
SAME, DIFFERENT, UNDECIDABLE = "same verdict", "different verdict", "not decidable at this profile"
OUTCOMES = (SAME, DIFFERENT, UNDECIDABLE)
LEASES = 3          # independent machine leases (boots) below which an interval decides nothing here
PIPELINE = "smoke"  # the profile that checks the pipeline: its sizes are far below any paper's
DECIDE_HINT = "./run_all.sh --profile decide (docs/your-gpu.md)"
YOURS = ("yours", "your number")    # how an outcome's why names the other run and its number


def reference_table(root=None):
    """The reference verdict table (a path); ``root``: where the recorded runs lie."""
    return Path(root or paths.RECORDED) / REFERENCE_BATCH / "verdicts.csv"


def reference_rows(root=None):
    f = reference_table(root)
    return pd.read_csv(f) if f.exists() else None


RUN = re.compile(r"\d{8}-\d{6}-[\w.-]+?(?=\s|$|,|\))|[\w.-]+\.csv")


def runs_named(results):
    """The run folders (and record files) a ``results`` cell names, however it is worded ('data/results/A',
    'data/results/A .. B (6 runs)', 'x.csv, y.csv'); {the cell} where it names none ('-')."""
    found = set(RUN.findall(str(results)))
    return found or {str(results).strip()}


def _same_run(a, b):
    return runs_named(a) == runs_named(b)


def measured_here(user, ref):
    """The user's rows whose ``results`` is not the run the reference row of the claim rests on: numbers measured
    on this machine (or another run), never the recorded reference re-rendered."""
    if user is None or ref is None or not len(user) or "results" not in user:
        return user.iloc[0:0] if user is not None else pd.DataFrame()
    theirs = ref.set_index("claim")["results"].to_dict() if "results" in ref else {}
    keep = [not _same_run(r, theirs.get(c, "")) for c, r in zip(user["claim"], user["results"].astype(str))]
    return user[keep]


def sizes(text):
    """The vertex counts of a ``matched_n`` cell ('1024, 2048 (the paper names none: ...)' -> {1024, 2048})."""
    head = str(text or "").split("(")[0]
    return {int(x) for x in re.findall(r"\d+", head)}


def _interval(row, unit=""):
    v, lo, hi = ours_of(row), num(row.get("ci_lo")), num(row.get("ci_hi"))
    if v is None:
        return str(row.get("ours_text") or "-")
    x = "x" if unit == "x" else ""
    return (f"{fmt(v, 3)}{x} [{fmt(lo, 3)}, {fmt(hi, 3)}]" if lo is not None and hi is not None
            else f"{fmt(v, 3)}{x} (no interval)")


def _refused_for(claim, row, refused, claims):
    """The refused (algorithm, n) pairs that a claim's comparison needs: its codes at the sizes it is judged on."""
    if refused is None or not len(refused):
        return []
    c = claims.get(claim) or {}
    codes = {c.get("algorithm"), c.get("baseline")} - {None}
    want = sizes(row.get("matched_n"))
    return [(a, n, e) for a, n, e in refused[["algorithm", "n", "error"]].itertuples(index=False)
            if (not codes or a in codes) and (not want or int(n) in want)]


def _short_profile(mine, theirs, profile_sizes=None):
    """Why profile ``mine`` cannot stand for the reference's ``theirs`` (a campaign profile whose GPU sizes do not
    reach the reference's), or ''.  Other studies' batches name no campaign profile: nothing to say."""
    if profile_sizes is None:
        from ..seeds.kemp.profiles import PROFILES
        profile_sizes = {k: set(P["gpu_sizes"]) for k, P in PROFILES.items()}
    if mine == theirs or mine not in profile_sizes or theirs not in profile_sizes:
        return ""
    lack = sorted(profile_sizes[theirs] - profile_sizes[mine])
    return (f"profile {mine} does not measure n = {', '.join(map(str, lack))}, which the reference's {theirs} did"
            if lack else "")


def outcome(u, r, refused=None, claims=None, profile_sizes=None, side=YOURS):
    """(outcome, why) of one claim: ``u`` the user's row, ``r`` the reference's (dicts or Series); ``refused``:
    :func:`refused_sizes`; ``profile_sizes``: {profile: its GPU sizes} (the campaign's profiles by default);
    ``side``: how the why names ``u``'s run and its number (:data:`YOURS`)."""
    claims = claims or {}
    prof = str(u.get("profile") or "")
    if prof == PIPELINE:
        return UNDECIDABLE, ("a smoke run checks the pipeline (n up to 256, two processes on one machine) and decides "
                             f"nothing; the paper's sizes on three machine leases decide it: {DECIDE_HINT}")
    miss = _refused_for(u.get("claim"), r, refused, claims)
    if miss:
        a, n, e = miss[0]
        return UNDECIDABLE, (f"n = {int(n)} does not fit this GPU's memory ({a}: {str(e).split(': ', 1)[-1]}); "
                             "a GPU with more memory decides it")
    short = _short_profile(prof, str(r.get("profile") or ""), profile_sizes)
    if short:
        return UNDECIDABLE, f"{short}; the paper's sizes decide it: {DECIDE_HINT}"
    want, got = sizes(r.get("matched_n")), sizes(u.get("matched_n"))
    if want and got is not None and not want <= got:
        lack = sorted(want - got)
        return UNDECIDABLE, (f"the reference is judged at n = {', '.join(map(str, lack))}, which this profile "
                             f"did not measure; the paper's sizes decide it: {DECIDE_HINT}")
    theirs_leases = num(r.get("leases"))       # a reference resting on fewer (a computed claim: 0) asks no more
    need = LEASES if theirs_leases is None else min(LEASES, int(theirs_leases))
    have = num(u.get("leases"))
    if have is not None and have < need:
        return UNDECIDABLE, (f"its interval rests on {int(have)} machine lease{'s' if have != 1 else ''}; "
                             f">= {need} independent leases decide it: ./run_all.sh --profile decide --lease 1..3, "
                             "one boot each, one --batch (docs/your-gpu.md)")
    yours, theirs = signed.verdict_text(u), signed.verdict_text(r)
    if yours == theirs:
        return SAME, f"both {theirs}"
    way = ""
    a, b = ours_of(u), ours_of(r)
    if a is not None and b is not None and a * b > 0 and a != b:       # a ratio of magnitudes of one sign
        r = a / b if abs(a) > abs(b) else b / a
        way = (f"; {side[1]} is {fmt(r)}x {'larger' if abs(a) > abs(b) else 'smaller'}" if r >= 1.05 else
               f"; {side[1]} is within 5% of the reference's")      # '1.0x smaller' says nothing
    return DIFFERENT, f"reference {theirs}, {side[0]} {yours}{way}"


def compare(user, ref, refused=None, claims=None, profile_sizes=None, side=YOURS):
    """One row per claim the user's render measured: theirs beside the reference's, and the outcome."""
    mine = measured_here(user, ref)
    by_claim = ref.set_index("claim") if ref is not None else pd.DataFrame()
    out = []
    for u in mine.to_dict("records"):
        if u["claim"] not in by_claim.index:
            continue
        r = dict(by_claim.loc[u["claim"]], claim=u["claim"])
        kind, why = outcome(u, r, refused, claims, profile_sizes, side)
        unit = ((claims or {}).get(u["claim"]) or {}).get("unit", "")
        out.append(dict(claim=u["claim"], notebook=u.get("notebook") or r.get("notebook"), claimed=r.get("claimed"),
                        yours=_interval(u, unit), yours_verdict=signed.verdict_text(u), reference=_interval(r, unit),
                        reference_verdict=signed.verdict_text(r), outcome=kind, why=why,
                        device=u.get("device"), profile=u.get("profile")))
    return pd.DataFrame(out, columns=["claim", "notebook", "claimed", "yours", "yours_verdict", "reference",
                                      "reference_verdict", "outcome", "why", "device", "profile"])


def sentence(table, prov=None):
    """The comparison in one sentence: which machine and profile, how many claims each outcome."""
    if table is None or not len(table):
        return "Nothing was measured on this machine: every number here is the recorded reference run's."
    p = prov or {}
    dev = ", ".join(dict.fromkeys(table["device"].dropna().astype(str))) or "this machine"
    prof = ", ".join(dict.fromkeys(table["profile"].dropna().astype(str))) or "-"
    when = f" on {p['date']}" if p.get("date") else ""
    if set(table["profile"].astype(str)) == {PIPELINE}:
        return (f"Your run ({dev}, profile smoke{when}) checks the pipeline and decides nothing: its {len(table)} "
                "verdicts come from sizes far below the papers' and are not findings; the findings on this page are the "
                "reference's.")
    n = table["outcome"].value_counts()
    parts = [f"{int(n[k])} {k}" for k in OUTCOMES if n.get(k)]
    return (f"Your run ({dev}, profile {prof}{when}) measured {len(table)} claims: " + ", ".join(parts)
            + ". The findings on this page stay the reference's; a different verdict at a deciding profile is a "
              "finding about your hardware.")


def refused_sizes(records):
    """The (algorithm, n, error) of the campaign records the GPU's memory refused (the launchers raise
    GPUMemoryError before allocating what does not fit, and the campaign records it as an error)."""
    cols = ["algorithm", "n", "error"]
    if records is None or not len(records) or "error" not in records:
        return pd.DataFrame(columns=cols)
    bad = records[records["error"].astype(str).str.contains("GPUMemoryError|out of memory", regex=True)]
    return bad[cols].drop_duplicates(["algorithm", "n"]).reset_index(drop=True)


VERSION_KEYS = (("gpu", "GPU"), ("cuda_runtime_version", "CUDA runtime"), ("driver_version", "CUDA driver"),
                ("cupy", "CuPy"), ("gpu_memory_bytes", "GPU memory"))


def _version(key, value):
    if value in (None, ""):
        return "not recorded"
    if key in ("cuda_runtime_version", "driver_version"):
        v = int(value)
        return f"{v // 1000}.{v % 1000 // 10}"
    if key == "gpu_memory_bytes":
        return f"{int(value) / 2**30:.0f} GiB"
    return str(value)


def versions(user_prov, ref_prov):
    """[(what, yours, reference's)] for each of GPU, CUDA, CuPy and memory that differs from the reference's."""
    u, r = user_prov or {}, ref_prov or {}
    if not u:                       # nothing recorded of the user's machine: nothing to set beside the reference's
        return []
    return [(label, _version(k, u.get(k)), _version(k, r.get(k))) for k, label in VERSION_KEYS
            if _version(k, u.get(k)) != _version(k, r.get(k))]
