"""The findings in words, computed from the verdict rows (reports/verdicts.csv, one row per claim):
the sentences the index and the findings paper open with.  Each sentence is a function of the rows
that returns None where a number it needs is missing (the page then leaves the sentence out rather
than say something the rows do not hold); no sentence is written that would read the same whatever
the numbers were.  :func:`sentences` gives those that can be said, in reading order."""
from __future__ import annotations

import math
import re

import pandas as pd

from ..show.signed import num, ours_of

VERDICT_ORDER = ("reproduced", "differs in magnitude", "not reproduced", "inconclusive", "not testable")
BASIS_ORDER = ("measured", "within tolerance only", "computed", "bound")
SPEEDUP_KINDS = ("range", "value", "average")


def fmt(x, sig=2):
    """Two significant figures, no exponent: 0.98, 3.8, 17, 850, 1300."""
    if x is None:
        return "-"
    if x == 0:
        return "0"
    digits = max(sig - 1 - int(math.floor(math.log10(abs(x)))), 0)
    return f"{round(x, digits):.{digits}f}"


PLURAL = {"differs in magnitude": "differ in magnitude", "differs: larger than claimed": "differ: larger than claimed",
          "differs: smaller than claimed": "differ: smaller than claimed"}


def _count_list(counts, order):
    word = lambda k, n: f"{n} {PLURAL.get(k, k) if n != 1 else k}"
    parts = [word(k, counts[k]) for k in order if counts.get(k)]
    parts += [word(k, n) for k, n in counts.items() if k not in order and n]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def seed_of(where):
    m = re.search(r"seed (\d{3})", str(where))
    return m.group(1) if m else "?"


def claim_words(cid, claims):
    """The claim in one plain sentence (claims.yaml's in_words), else its identifier."""
    return (claims.get(cid) or {}).get("in_words") or cid


def verdict_counts(v):
    """Sentence 1: how many claims got each verdict, 'differs in magnitude' split by which way ours lies."""
    if v is None or v.empty or "verdict" not in v:
        return None
    from ..show import signed
    text = _count_list(signed.counts(v), signed.ORDER)
    return text and f"Of the {len(v)} claims, {text}."


def basis_counts(v):
    """Sentence 2: what the 'reproduced' verdicts rest on (the rows' ``basis`` column; none: no sentence)."""
    if v is None or "basis" not in v or "verdict" not in v:
        return None
    rep = v[v["verdict"] == "reproduced"]
    b = rep["basis"].fillna("-").astype(str)
    b = b[~b.isin(["-", ""])]
    if rep.empty or b.empty:
        return None
    text = _count_list(b.value_counts().to_dict(), BASIS_ORDER)
    return f"Of the {len(rep)} reproduced, {text} (what each verdict rests on)."


def _band_factor(row):
    """How far our value lies outside the claimed band: ours/high (>1) above it, ours/low (<1) below it,
    1 inside; None where a number is missing."""
    ours, lo, hi = ours_of(row), num(row.get("claimed_lo")), num(row.get("claimed_hi"))
    if ours is None or lo is None or ours <= 0 or lo <= 0:
        return None
    if hi is not None and ours > hi:
        return ours / hi
    return ours / lo if ours < lo else 1.0


def kemp_speedups(v, claims):
    """Kemp's own measured speed-ups and averages (seed 000, claims.yaml's ``kemp`` given, unit x)."""
    if v is None or v.empty:
        return v
    keep = [cid for cid in v["claim"] if (c := claims.get(cid)) and c.get("kemp") and c.get("unit") == "x"
            and c.get("kind") in SPEEDUP_KINDS and seed_of(c.get("where")) == "000"]
    return v[v["claim"].isin(keep)]


def _on(v):
    """'on the NVIDIA H100 80GB HBM3' from the rows' device column, or 'here'."""
    d = v["device"].dropna().astype(str) if "device" in v else pd.Series(dtype=str)
    d = d[~d.isin(["", "-"])]
    return f"on the {d.mode().iloc[0]}" if len(d) else "here"


def kemp_factors(v, claims):
    """Sentence 3: of Kemp's speed-ups, how many are reproduced, how many differ, by what factors."""
    k = kemp_speedups(v, claims)
    if k is None or k.empty:
        return None
    rep = int((k["verdict"] == "reproduced").sum())
    diff = k[k["verdict"] == "differs in magnitude"]
    f = {cid: _band_factor(r) for cid, r in diff.set_index("claim").iterrows()}
    f = {cid: x for cid, x in f.items() if x is not None}
    if not f:
        return None
    larger = {cid: x for cid, x in f.items() if x > 1}
    smaller = {cid: x for cid, x in f.items() if x < 1}
    text = (f"Of Kemp's {len(k)} speed-ups and averages, {rep or 'none'} {'is' if rep == 1 else 'are'} reproduced "
            f"and {len(diff)} differ from the paper's band")
    if larger:
        top = max(larger, key=larger.get)
        # the factor is our geometric mean over sizes against the band's end; a table's reason says size by size
        # "up to Fx larger than claimed" (a larger number, of one size): both named, so neither reads as the other
        by_size = [float(m.group(1)) for r in diff[diff["claim"].isin(list(larger))].itertuples()
                   if (m := UP_TO.search(str(getattr(r, "reason", ""))))]
        text += (f"; {len(larger)} of these {'is' if len(larger) == 1 else 'are'} larger than claimed {_on(k)} by {fmt(min(larger.values()))}-"
                 f"{fmt(max(larger.values()))}x beyond the paper's band (our mean over sizes against the band's end; most: "
                 f"{_pair(claims.get(top))}, {fmt(larger[top])}x"
                 + (f"; at a single size up to {fmt(max(by_size))}x" if by_size else "") + ")")
    if smaller:
        text += f"; {len(smaller)} smaller than claimed, down to {fmt(min(smaller.values()))}x of the band's low end"
    return text + "."


UP_TO = re.compile(r"up to ([\d.e+-]+)x larger than claimed")
BEST_CPU = re.compile(r"^(?:between ([\d.e+-]+) and )?([\d.e+-]+)x \[([\d.e+-]+), ([\d.e+-]+)\](?:.*?over (\w+))?")


def best_cpu_of(text):
    """'0.98x [0.811, 1.18] over <code>' -> ('0.98x', 0.811, 1.18, '<code>');
    'between 0.271 and 0.336x [0.235, 0.422] over X' -> ('0.27-0.34x', ...); None if it is no such text."""
    m = BEST_CPU.match(str(text))
    if not m:
        return None
    low, val, lo, hi = (num(x) for x in m.groups()[:4])
    if None in (val, lo, hi):
        return None
    return (f"{fmt(low)}-{fmt(val)}x" if low is not None else f"{fmt(val)}x"), lo, hi, m.group(5)


def _pair(c):
    """'Katz & Kider blocked FW over Sequential FW (CPU, 1 thread)': what a claim divides, in words."""
    c = c or {}
    return f"{_label(c.get('algorithm'))} over {_label(c.get('baseline'))}" if c.get("baseline") else _label(c.get("algorithm"))


def _label(name):
    from ...algorithms import registry
    try:
        return registry.get(name).label
    except Exception:
        return name


def best_cpu_comparison(v, claims):
    """Sentence 4: each GPU code against the best CPU code, once per code (its first claim's row)."""
    if v is None or v.empty or "best_cpu" not in v:
        return None
    by_cpu = {}
    for _, r in v.iterrows():
        alg = (claims.get(r["claim"]) or {}).get("algorithm")
        got = best_cpu_of(r["best_cpu"])
        if not alg or got is None or not got[3]:
            continue
        by_cpu.setdefault(got[3], {}).setdefault(alg, got)
    if not by_cpu:
        return None
    cpu = max(by_cpu, key=lambda k: len(by_cpu[k]))         # the CPU code most GPU codes were set against
    parts = [f"{_label(alg)} {g[0]} [{fmt(g[1])}, {fmt(g[2])}]" for alg, g in by_cpu[cpu].items()]
    return (f"Against the best CPU code here, {_label(cpu)}, the GPU codes' speed-ups are "
            + "; ".join(parts) + " (95% intervals; below 1 the CPU is faster).")


def time_bases(v):
    """Sentence 5: on which times the speed-up verdicts were decided."""
    if v is None or v.empty or "decided_by" not in v:
        return None
    d = v["decided_by"].astype(str).value_counts().to_dict()
    e2e, ker = d.get("end_to_end", 0), d.get("kernel", 0)
    if not e2e and not ker:
        return None
    return (f"{e2e} verdicts are decided on end-to-end times (transfers included) and {ker} on kernel-only times, "
            "as each paper timed; the other time is shown beside every speed-up.")


def hardware_hypothesis(v, claims):
    """Sentence 6: notebook 07's hardware hypothesis (summary.implied_cpu_gain), its own computed sentence."""
    from . import summary
    try:
        _, text = summary.implied_cpu_gain(claims, v)
    except Exception:
        return None
    return text.replace("`", "") or None


def undecided(v):
    """Sentence 7: how many claims are open and which reason is most common among the inconclusive."""
    if v is None or v.empty or "verdict" not in v:
        return None
    inc, nt = int((v["verdict"] == "inconclusive").sum()), int((v["verdict"] == "not testable").sum())
    if not inc and not nt:
        return None
    # short enough for two lines of the index's first column: the first screen must hold every sentence
    return (f"{inc + nt} of {len(v)} claims are not decided: {inc} inconclusive (interval across the band's "
            f"edge), {nt} not testable.")


SENTENCES = (verdict_counts, basis_counts, kemp_factors, best_cpu_comparison, time_bases, hardware_hypothesis, undecided)


def sentences(v, claims):
    """Every sentence the rows can support, in reading order."""
    out = []
    for f in SENTENCES:
        args = (v, claims) if f.__code__.co_argcount == 2 else (v,)
        s = f(*args)
        if s:
            out.append(s)
    return out


def load_rows(reports):
    """The verdict rows of a rendered batch (reports/verdicts.csv written by notebook 07), or None."""
    f = reports / "verdicts.csv"
    return pd.read_csv(f) if f.exists() else None
