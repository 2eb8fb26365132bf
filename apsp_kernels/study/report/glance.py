"""Every claim at a glance: one row per claim that carries a paper's number, with the paper's number and
ours printed beside it, and the ratio of the two drawn on one log axis whose labels stand at the top (a
reader meets them before the rows).  Right of 1 always means 'we measured more than the paper claims'
(a negative slope is compared by its magnitude, as the verdicts compare it); the paper's band and its
tolerance are drawn behind every row; the marker's shape says what the verdict rests on (the rows'
``basis``) and a glyph and a word beside it say the verdict, so that neither needs colour (the colours
are Okabe and Ito's, which stay apart under the common colour-vision deficiencies).

Claims are named C1, C2, ... in the order of data/claims.yaml (stable while the file only grows at its
end) with a title from their words, which the figure wraps onto two lines: an identifier means nothing to a
reader.

Where a verdict row holds no single number of ours (a trend tested at the paper's sizes, a crossing
that never happened, a speed-up read per graph), the number is read from what the row already says:
the per-size comparisons in its reason ('n=1024: 202x [158, 259] vs 104x (above)'), the per-graph pairs
in its text ('3.27x [-, -] (the seed: 94.4x)'), or the bound its reason states ('no crossing up to
n = 17408').  Nothing here decides or changes a verdict: it shows the rows."""
from __future__ import annotations

import html
import math
import re
import textwrap

import pandas as pd

from ..show import signed
from ..show.signed import num, ours_of
from .findings_text import fmt, seed_of

SEED_NAMES = {"000": "Kemp 2012", "001": "IIT Kharagpur", "002": "Hochberg", "003": "TU Wien", "004": "NTHU"}
GLANCE_PNG = "glance.png"

# Okabe & Ito's palette; the glyph carries the verdict where colour cannot (print, colour-vision deficiency)
LARGER, SMALLER = signed.SIGNED[signed.LARGER], signed.SIGNED[signed.SMALLER]
LOOK = {"reproduced": ("#009E73", "\u2713"), LARGER: ("#D55E00", "\u25b6"), SMALLER: ("#0072B2", "\u25c0"),
        "differs in magnitude": ("#D55E00", "\u25c6"), "not reproduced": ("#CC79A7", "\u2717"),
        "inconclusive": ("#E69F00", "?"), "not testable": ("#999999", "\u2013")}
# what a verdict rests on, as the marker's shape: measured (filled circle), only the tolerance admits it
# (diamond), computed without a run (square), a bound (triangle); '-': nothing measured, no marker
BASIS_MARK = {"measured": "o", "within tolerance only": "D", "computed": "s", "bound": "^"}
BASIS_WORDS = {"measured": "measured", "within tolerance only": "within tolerance only",
               "computed": "computed, not run", "bound": "a bound (at least)", "-": "not measured"}

TITLE_CHARS = 90         # a row's title; the figure wraps it to two lines of its label column
SHORTER = (("Averaged over all of Kemp's CUDA algorithms, the GPU is", "Kemp's CUDA codes average"),
           ("Floyd-Warshall", "FW"), ("Katz & Kider's", "KK's"), ("Katz & Kider", "KK"), ("algorithm", "alg."),
           ("sequential", "seq."))


def names(claims):
    """{claim id: 'C7'}: the claim's place in data/claims.yaml."""
    return {cid: f"C{i}" for i, cid in enumerate(claims, start=1)}


def title(cid, claims, chars=TITLE_CHARS):
    """The claim's words without their citation, common long names shortened, cut at a word to ``chars``."""
    words = (claims.get(cid) or {}).get("in_words") or ""
    words = re.sub(r"\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\.?$", "", words).rstrip(".")
    for long, short in SHORTER:
        words = words.replace(long, short)
    return words if len(words) <= chars else words[:chars - 1].rsplit(" ", 1)[0].rstrip(",;:") + "\u2026"


def has_number(row):
    """Whether the paper states a number for the claim (its band's low end)."""
    return num(row.get("claimed_lo")) is not None


def _end(x):
    """An interval's end: a float, inf where the row says so (a one-sided interval), else None."""
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return None if f != f else f


def _txt(x):
    s = "" if x is None or (isinstance(x, float) and x != x) else str(x).strip()
    return "" if s in ("-", "nan") else s


PER_SIZE = re.compile(r"(?:n=(\d+)|([\w.-]+)): ([\d.e+-]+)x \[([\d.e+-]+), ([\d.e+-]+)\] vs ([\d.e+-]+)x")
PER_GRAPH = re.compile(r"([^;:]+?): ([\d.e+-]+)x \[-, -\] \(the seed: ([\d.e+-]+)x\)")
NO_CROSSING = re.compile(r"no crossing up to n = ([\d.e+]+)")
CROSSED_BELOW = re.compile(r"already crossed at the smallest (?:measured )?size \(?n = ([\d.e+]+)")


def points(row):
    """Our numbers of a row against the paper's: [{v, lo, hi, p_lo, p_hi, at, bound}], ``bound`` 'above' where
    ours lies beyond ``v`` (a crossing not reached by the largest size), 'below' where before it; [] where the
    row holds none (not testable)."""
    p_lo, p_hi = num(row.get("claimed_lo")), num(row.get("claimed_hi"))
    if p_hi is None and str(row.get("claimed_hi")).strip().lower() in ("inf", "infinity"):
        p_hi = math.inf
    reason, text = _txt(row.get("reason")), _txt(row.get("ours_text"))
    ours = ours_of(row)
    one = dict(p_lo=p_lo, p_hi=p_hi, at="", bound=None)
    if ours is not None and ours != 0:
        return [dict(one, v=ours, lo=_end(row.get("ci_lo")), hi=_end(row.get("ci_hi")))]
    # a trend tested at the paper's sizes: the rule's own comparisons, size by size
    got = [dict(v=float(m[2]), lo=float(m[3]), hi=float(m[4]), p_lo=float(m[5]), p_hi=float(m[5]),
                at=f"n = {m[0]}" if m[0] else m[1], bound=None) for m in PER_SIZE.findall(reason)]
    if got:
        return got
    # a speed-up read per graph, beside the seed's number for that graph (no interval: one lease)
    got = [dict(v=float(m[1]), lo=None, hi=None, p_lo=float(m[2]), p_hi=float(m[2]), at=m[0].strip(" ;"), bound=None)
           for m in PER_GRAPH.findall(text)]
    if got:
        return got
    if m := NO_CROSSING.search(reason):
        return [dict(one, v=float(m[1]), lo=None, hi=None, bound="above")]
    if m := CROSSED_BELOW.search(reason) or CROSSED_BELOW.search(text):
        return [dict(one, v=float(m[1]), lo=None, hi=None, bound="below")]
    return []


def _unit(row, claims):
    """The claim's unit: a share ('fraction') is shown in percent, as the paper wrote it (1%, not 0.01x); a vertex
    count as 'n = ...'; any other number the paper writes with an 'x' with one."""
    unit = (claims.get(str(row.get("claim"))) or {}).get("unit") or "x"
    if unit in ("vertices", "slope", "fraction"):
        return unit
    return "x" if _txt(row.get("claimed")).endswith("x") else unit


def paper_text(row, unit):
    """The paper's number as the verdict table prints it, a share in percent ('>= 90%', not '>= 0.9x')."""
    text = _txt(row.get("claimed")) or "-"
    if unit != "fraction":
        return text
    return re.sub(r"(\d+(?:\.\d+)?)x?", lambda m: f"{float(m[1]) * 100:g}%", text)


def _sig(x, digits):
    return ("-" if x < 0 else "") + fmt(abs(x), digits)


def number_text(v, unit, lo=None, hi=None, paper=False):
    """'166x [149, 184]', 'n = 12288', 'slope -0.615 [-0.677, -0.553]': ours in the paper's own style; ``paper``:
    a number of the paper's, as it printed it (104x, not 104.0x)."""
    digits = 3
    interval = lo is not None and hi is not None and not lo == hi == v        # a computed number has none
    # an interval printed at three digits may collapse onto its point ('1.44x [1.44, 1.44]'): add a digit (the
    # reports print at most four significant digits), and where four still collapse it, say its width instead
    finite = [x for x in (lo, v, hi) if x is not None and math.isfinite(x)]
    collapsed = lambda d: len({_sig(x, d) for x in finite}) < len(finite)
    if interval and not paper and collapsed(3):
        if not collapsed(4):
            digits = 4
        elif v and unit in ("x", "fraction", None, ""):
            width = max(abs(hi - v), abs(v - lo)) / abs(v) * 100
            core = f"{_sig(v * 100, 3)}%" if unit == "fraction" else f"{_sig(v, 3)}{'x' if unit == 'x' else ''}"
            return f"{core} (95% interval within \u00b1{fmt(width, 1)}%)"
    sign = lambda x: ("\u221e" if math.isinf(x) else f"{x:g}" if paper else _sig(x, digits))
    if unit == "fraction":             # a share, in percent; its interval's ends too
        pct = lambda x: "\u221e" if math.isinf(x) else (f"{x * 100:g}" if paper else _sig(x * 100, digits))
        core = f"{pct(v)}%"
        return core + (f" [{pct(lo)}%, {pct(hi)}%]" if interval else "")
    core = {"x": f"{sign(v)}x", "vertices": f"n = {v:.0f}", "slope": f"slope {sign(v)}"}.get(unit, sign(v))
    if interval:
        core += f" [{sign(lo)}, {sign(hi)}]"
    return core


def no_interval(row):
    """Why a number of ours carries no interval, in a few words: one machine lease gives no interval over leases."""
    leases = num(row.get("leases"))
    if leases == 1 or "one machine lease" in _txt(row.get("reason")):
        return "(one machine lease: no interval)"
    return "(the verdict table gives no interval)"


BOUND_IN_TEXT = re.compile(r"\[[^\]]*(?:<=|>=)")


def ours_text(row, pts, unit):
    """What the row says of ours, in numbers: one value with its interval, or a bound; for a row compared at
    several sizes or graphs, 'at the paper's sizes' (:func:`lines` gives each).  A bound is printed in the verdict
    table's own words: its stored number (0 for 'already crossed', an interval end of 0 for '<= 10') is a
    placeholder the table's text explains, not a value to print."""
    if not pts:
        return "not measured"
    if len(pts) > 1 or pts[0]["at"]:
        return "at the paper's sizes:" if all(p["at"].startswith("n = ") for p in pts) else "per graph:"
    p, said = pts[0], _txt(row.get("ours_text"))
    if p["bound"]:
        return said or ("beyond " if p["bound"] == "above" else "before ") + number_text(p["v"], unit)
    if BOUND_IN_TEXT.search(said):
        return said
    text = number_text(p["v"], unit, p["lo"], p["hi"])
    return text if p["lo"] is not None and p["hi"] is not None else text + " " + no_interval(row)


def lines(r, unit="x"):
    """The row's numbers as lines of text: 'paper 2500x · ours 758x [647, 892]', and for a row compared at several
    sizes or graphs one line more for each: 'n = 1024: paper 104x · ours 202x [158, 259]'."""
    first = f"paper {r['paper']} \u00b7 ours {r['ours']}"
    pts = [p for p, _ in r["points"]]
    if len(pts) < 2 and not (pts and pts[0]["at"]):
        return [first]
    out = [first]
    for p in pts:
        at = re.sub(r"\s*\(.*", "", p["at"])           # 'geometric (generated as in the seed)': its name
        ours = number_text(p["v"], unit, p["lo"], p["hi"]) + ("" if p["lo"] is not None else " " + r["no_ci"])
        out.append(f"{at}: paper {number_text(p['p_lo'], unit, paper=True)} \u00b7 ours {ours}")
    return out


def _ratio(p):
    """(x, lo, hi, band lo, band hi, tolerance lo, tolerance hi) of one point relative to the middle of the paper's
    band; magnitudes where the band is negative (a slope of -1), so right is always 'more than claimed'."""
    v, lo, hi, b_lo, b_hi = p["v"], p["lo"], p["hi"], p["p_lo"], p["p_hi"]
    if b_hi is not None and b_hi < 0:
        v, b_lo, b_hi = abs(v), abs(b_hi), abs(b_lo)
        lo, hi = (abs(hi) if hi is not None else None), (abs(lo) if lo is not None else None)
    if b_lo is None or b_lo <= 0 or v is None or v <= 0:
        return None
    ref = b_lo if math.isinf(b_hi) else math.sqrt(b_lo * b_hi)
    r = lambda x: x / ref if x is not None and x > 0 and math.isfinite(x) else None
    return r(v), r(lo), r(hi), b_lo / ref, b_hi / ref


def rows(v, claims):
    """One row per claim with a paper's number, in the order of data/claims.yaml: its name, title, seed, the
    paper's number and ours as text, the verdict as shown, the basis and the points to draw."""
    name = names(claims)
    order = {cid: i for i, cid in enumerate(claims)}
    out = []
    for _, r in v.iterrows():
        r = r.to_dict()
        if not has_number(r):
            continue
        cid = str(r["claim"])
        unit, pts = _unit(r, claims), points(r)
        tol = num(r.get("tolerance")) or 1.0
        out.append(dict(
            claim=cid, name=name.get(cid, "C?"), title=title(cid, claims), seed=seed_of(r.get("where")),
            paper=paper_text(r, unit), ours=ours_text(r, pts, unit), unit=unit, verdict=signed.verdict_text(r),
            no_ci=no_interval(r),
            basis=_txt(r.get("basis")) or "-", tolerance=tol, notebook=_txt(r.get("notebook")),
            points=[(p, _ratio(p)) for p in pts], order=order.get(cid, len(order))))
    df = pd.DataFrame(out)
    return df.sort_values(["seed", "order"]).reset_index(drop=True) if len(df) else df


RANGE = re.compile(r"\b(range|ratio) ([\d.e+-]+x) \.\. ([\d.e+-]+x) over (\d+) ([\w ]+)")


def tidy_range(text):
    """'range 2.29x .. 2.29x over 1 sizes' -> 'range 2.29x at 1 size': one end where the two print alike, and a
    singular noun for one."""
    def one(m):
        what, a, b, k, noun = m[1], m[2], m[3], int(m[4]), m[5]
        if k == 1:
            noun = re.sub(r"^(\w+?)s\b", r"\1", noun)        # 'sizes' -> 'size', 'steps of degree' -> 'step of ...'
        return f"{what} {a} at {k} {noun}" if a == b else f"{what} {a} .. {b} over {k} {noun}"
    return RANGE.sub(one, text)


def ratio_words(quantity):
    """Which way an ordering's ratio is taken and what > 1 means, from the verdict table's quantity: 'ratio = time of
    A / time of B (> 1 means the claim holds: B is faster)'.  Every ordering's quantity states its test as '> 1'."""
    q = re.sub(r"\s*\([^()]*(?:\([^()]*\)[^()]*)*\)", "", _txt(quantity))
    m = re.search(r"[,;:]?\s*> 1\b:?\s*([^.]*)", q)
    if not m or not q[:m.start()].strip():
        return ""
    why = m[1].strip(" ;,")
    why = "" if not why or why.startswith(("at ", "for ", "on ", "each")) else f": {why}"
    return f"ratio = {q[:m.start()].strip(' ,;:')}; > 1 means the claim holds{why}"


def others(v, claims):
    """The claims without a paper's number (orderings, trends, events), in the order of data/claims.yaml: name,
    title, ours in numbers (the row's own text, its closing remark on intervals left to the report), verdict."""
    name, order = names(claims), {cid: i for i, cid in enumerate(claims)}
    out = []
    for _, r in v.iterrows():
        r = r.to_dict()
        if has_number(r):
            continue
        cid = str(r["claim"])
        said = re.sub(r"\s*\(not a CI;[^)]*\)", "", _txt(r.get("ours_text")))
        ours = tidy_range(said) or "-"
        out.append(dict(claim=cid, name=name.get(cid, "C?"), title=title(cid, claims, 90), kind=_txt(r.get("kind")),
                        ours=ours, ratio=ratio_words(r.get("quantity")) if RANGE.search(said) else "",
                        verdict=signed.verdict_text(r), basis=_txt(r.get("basis")) or "-",
                        notebook=_txt(r.get("notebook")), order=order.get(cid, len(order))))
    df = pd.DataFrame(out)
    return df.sort_values("order").reset_index(drop=True) if len(df) else df


def verdict_label(verdict):
    """'\u25b6 differs: larger than claimed': the verdict's glyph and its words."""
    glyph = LOOK.get(verdict, ("", "\u2022"))[1]
    return f"{glyph} {verdict}"
