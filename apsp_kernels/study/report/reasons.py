"""Why ours differs from the paper (or why it agrees), one sentence per claim, as a reader would write it:
not the rule's tally of sizes inside and outside the band (that stays in the verdict row's ``reason``), but the
circumstances the study records that make our number and the paper's differ.  Each circumstance is computed from
data the study already has and names what it rests on:

* the published kernel fails verification (the runs' ``verified`` cells, :mod:`.correctness`);
* the verdict is computed, not run, or holds only within the tolerance (the row's ``basis``; the tolerance's
  commit from data/analysis-changes.csv);
* the divisor is a one-thread CPU code (the algorithm registry), with the same GPU code against the best CPU code
  here beside it (the row's ``best_cpu``);
* the divisor's time is extrapolated from a timed sample (the row's ``baseline_timed``);
* the paper's GPU against ours (the row's ``hardware`` and ``device``; vendor peaks of what bounds the kernel
  from :mod:`apsp_kernels.measure.hardware`);
* stand-in graphs, too few machine leases, an analogue of the claim (the row's own cells).

:func:`table` gives, per claim, the sentence and the list of what it rests on."""
from __future__ import annotations

import re
from typing import NamedTuple

import pandas as pd

from ...measure import hardware
from ..method import changes
from ..show import signed
from ..show.signed import num
from . import compare, correctness
from . import findings_text as FT

OURS_GPU = "H100 SXM5 80GB"         # measure.hardware's row of our card
# the words by which a seed's hardware text names a GPU of measure.hardware's table
GPU_WORDS = {"GTX 470": "GeForce GTX 470", "P100": "Tesla P100", "2070 SUPER": "GeForce RTX 2070 SUPER"}
OTHER_GPU = re.compile(r"Tesla[- ][A-Z]\d+\w*|GeForce G[TS]X? ?\d+\w*|GT \d+M")
STAND_INS = re.compile(r"on stand-ins for ([^(;]+?) \(")
BOUND_WORDS = {"bandwidth": "memory bandwidth", "minplus": "int32 throughput"}


class Reason(NamedTuple):
    text: str
    rests_on: str
    kind: str = ""           # the circumstance's function name, for counting (threats, the conclusion)


def _txt(x):
    s = "" if x is None or (isinstance(x, float) and x != x) else str(x).strip()
    return "" if s in ("-", "nan") else s


def _alg(name):
    from ...algorithms import registry
    try:
        return registry.get(name)
    except KeyError:
        return None


def _codes(c):
    """The (algorithm, variant) pairs a claim times, then those it divides by."""
    if c.get("algorithms"):
        own = [(a, (c.get("algorithm_variants") or {}).get(a)) for a in c["algorithms"]]
    else:
        own = [(c.get("algorithm"), c.get("variant"))] if c.get("algorithm") else []
    if c.get("baselines"):
        base = list(zip(c["baselines"], c.get("baseline_variants") or [None] * len(c["baselines"])))
    else:
        base = [(c.get("baseline"), c.get("baseline_variant"))] if c.get("baseline") else []
    return own, base


# ------------------------------------------------------------------ each circumstance: a Reason or None
def verification(c, fail):
    """A code the claim times or divides by whose published form returned wrong distances in the recorded runs.  Of a
    code that is not a paper's kernel (an exploration of one change each) only the variant itself counts: its other
    variants are other changes, not the failing kernel corrected."""
    own, base = _codes(c)
    for name, variant in own + base:
        a = _alg(name)
        for bad in (a.inexact_variants if a else ()):
            f = correctness.of(fail, name, bad)
            if f is None or (not a.faithful and str(variant) != bad):
                continue
            said = (f"{a.label} as published ('{bad}') returned wrong distances in {f['wrong']} of {f['runs']} "
                    f"recorded runs on {f['graphs']} graph{'s' if f['graphs'] != 1 else ''}")
            said += ("" if str(variant) == bad else f", so ours times the corrected kernel ('{variant}')"
                     if variant else "")
            return Reason(said, f"the runs' verified cells in {f['batches']}")
    return None


def computed(r, c):
    if _txt(r.get("basis")) != "computed":
        return None
    how = _txt(r.get("device")) if str(r.get("device", "")).startswith("none") else "arithmetic, no timed run"
    return Reason(f"the verdict is computed, not run ({how.removeprefix('none: ')})", "the row's basis: computed")


def tolerance(r, c):
    if _txt(r.get("basis")) != "within tolerance only":
        return None
    lo, hi, tol = num(r.get("ci_lo")), num(r.get("ci_hi")), num(r.get("tolerance"))
    tol_rows = [x for x in changes.load() if x["kind"] == "tolerance"]
    # a change naming the claim set its tolerance; else the newest that names none (it set every claim's)
    rows = [x for x in tol_rows if r["claim"] in x["claims"]] or [x for x in tol_rows if not x["claims"]]
    when = ""
    if rows:
        seen = f" after {_n_batches(rows[-1])} had been measured" if rows[-1]["batches_before"] else ""
        when = f", set in {rows[-1]['commit']} ({changes.when(rows[-1])}){seen}"
    ours = f"our interval [{FT.fmt(lo, 3)}, {FT.fmt(hi, 3)}]" if lo is not None and hi is not None else "our interval"
    return Reason(f"only through the tolerance{f' x{tol:g}' if tol is not None else ''}{when}: {ours} excludes the paper's "
                  f"{_txt(r.get('claimed')) or 'band'}", "the row's basis and data/analysis-changes.csv")


def _n_batches(change):
    n = len(change["batches_before"])
    return f"{n} batch{'es' if n != 1 else ''}"


def one_thread(r, c):
    """The divisor is a CPU code on one thread: a speed-up over it measures the CPU code as much as the GPU's."""
    _, base = _codes(c)
    algs = [_alg(b) for b, _ in base]
    if not algs or not all(a is not None and a.device == "cpu" and not a.multithreaded for a in algs):
        return None
    names = " and ".join(a.label for a in algs)
    best = FT.best_cpu_of(r.get("best_cpu"))
    code = f" ({_alg(best[3]).label})" if best and _alg(best[3]) else ""
    beside = (f"; against the best CPU code here{code} the same GPU code gives {best[0]} "
              f"[{FT.fmt(best[1])}, {FT.fmt(best[2])}]" if best else "")
    return Reason(f"the divisor, {names}, runs on one CPU thread{beside}",
                  "the algorithm registry" + (" and the row's best_cpu" if best else ""))


def sampled(r, c):
    timed = _txt(r.get("baseline_timed"))
    if "sampled" not in timed:
        return None
    _, base = _codes(c)
    units = [a.sample_unit for b, _ in base if (a := _alg(b)) is not None and a.sample_unit]
    unit = f" (timed per {units[0]}, scaled to the whole run)" if units else ""
    where = "at the sizes too slow to run in full" if "measured" in timed else "at every size"
    return Reason(f"the divisor's time is extrapolated from a sample {where}{unit}", "the row's baseline_timed")


def _paper_gpu(r, c):
    """The GPU the paper's number was measured on, as the seed (or Kemp, for the claims he measured) names it."""
    for text in (_txt(r.get("hardware")), _txt(c.get("kemp_hardware"))):
        for words, name in GPU_WORDS.items():
            if words in text:
                return name, name in hardware.GPUS
        m = OTHER_GPU.search(text)
        if m:
            return m.group(0).replace("Tesla-", "Tesla "), False
    return None, False


def hardware_gen(r, c):
    """The paper's GPU against ours and, where both are in the vendor table, how much more of what bounds the
    kernel ours has; for two GPU codes bound by different limits, that their order can change with the card."""
    gpu, known = _paper_gpu(r, c)
    ours = re.sub(r"^1 x ", "", _txt(r.get("device")))
    if not ours or ours.startswith("none"):
        return None
    if gpu is None:
        return Reason(f"the paper names no GPU for this number; ours is the {ours}", "the row's hardware")
    said = f"the paper ran on the {gpu}, ours on the {ours}"
    own, base = _codes(c)
    limits = {}
    for name, _ in own + base:
        a = _alg(name)
        if a is not None and a.device == "gpu" and a.limit_kind:
            limits.setdefault(a.limit_kind, a.label)
    if known and "H100" in ours and limits:
        parts = [f"{hardware.ratio(gpu, k):.0f}x the {BOUND_WORDS[k]} that bounds {who}" for k, who in limits.items()]
        said += " (" + "; ".join(parts) + ")"
        if len(limits) > 1:
            said += ", so the two codes' order can change with the card"
        return Reason(said, "the row's hardware and device; vendor peaks (measure/hardware.py)")
    return Reason(said, "the row's hardware and device")


def stand_ins(r, c):
    m = STAND_INS.search(_txt(r.get("reason")))
    return Reason(f"the graphs {m.group(1)} are generated stand-ins of the seed's size and density",
                  "the row's graphs") if m else None


def leases(r, c):
    n = num(r.get("leases"))
    if n is None or n <= 0 or n >= compare.LEASES:
        return None
    return Reason(f"its numbers rest on {n:g} machine lease{'s' if n != 1 else ''}, fewer than the {compare.LEASES} an "
                  "interval over independent leases needs", "the row's leases (provenance boot ids)")


def analogue(r, c):
    if str(r.get("analogue")).lower() != "true":
        return None
    return Reason("what is tested is this study's analogue of the paper's comparison", "claims.yaml's analogue_note")


def kemp(r, c):
    k = _txt(r.get("kemp"))
    if not k or not c.get("kemp") or k == _txt(r.get("claimed")):     # the claim is Kemp's own number: said already
        return None
    return Reason(f"Kemp measured {k} for the same quantity on his GTX 470", "seed 000's own numbers (claims.yaml kemp)")


CIRCUMSTANCES = (computed, tolerance, one_thread, sampled, hardware_gen, kemp, stand_ins, leases, analogue)


# ------------------------------------------------------------------ the sentence
def lead(r):
    """What the verdict says, in words, before the reasons."""
    verdict, basis = str(r.get("verdict")), _txt(r.get("basis"))
    if verdict == "differs in magnitude":
        f = FT._band_factor(r)
        if f and f != 1:
            way = f"{FT.fmt(f)}x above the paper's band" if f > 1 else f"{FT.fmt(f)}x of the low end of the paper's band"
            return f"Ours ({_txt(r.get('ours_text')).split(' (')[0]}) lies {way}"
        return signed.verdict_text(r).capitalize()
    return {"reproduced": "Agrees with the paper" + ("'s bound" if basis == "bound" else ""),
            "not reproduced": "The paper's finding does not hold here",
            "inconclusive": "Undecided: within our noise ours cannot be told from the paper's",
            "not testable": "Not testable here"}.get(verdict, verdict.capitalize())


def reasons(r, c, fail):
    """The circumstances that bear on one claim's row, most telling first."""
    found = [(verification, verification(c, fail))] + [(f, f(r, c)) for f in CIRCUMSTANCES]
    return [x._replace(kind=f.__name__) for f, x in found if x is not None]


def sentence(r, c, fail):
    """One sentence: the verdict in words, then each circumstance with what it rests on in brackets."""
    got = reasons(r, c, fail)
    if not got:
        return lead(r) + " (nothing recorded sets this claim apart: same quantity, measured, no stand-in)."
    said = "; ".join(f"{x.text} [{x.rests_on}]" for x in got)
    # a difference is explained by the circumstances; an agreement holds in spite of them
    joint = ", though" if str(r.get("verdict")) == "reproduced" else ":"
    return f"{lead(r)}{joint} {said}."


def table(v, claims=None, root=None):
    """Per claim of the verdict rows ``v``: ``claim``, ``why`` (the sentence), ``rests_on`` (its sources) and
    ``kinds`` (the names of the circumstances found, space-separated)."""
    from ..method import claims as claims_mod
    claims = claims if claims is not None else claims_mod.load()
    fail = correctness.failures(correctness.batch_dirs(v, root))
    out = []
    for r in v.to_dict("records"):
        c = claims.get(r["claim"]) or {}
        got = reasons(r, c, fail)
        out.append(dict(claim=r["claim"], why=sentence(r, c, fail), rests_on="; ".join(x.rests_on for x in got) or "-",
                        kinds=" ".join(x.kind for x in got)))
    return pd.DataFrame(out, columns=["claim", "why", "rests_on", "kinds"])
