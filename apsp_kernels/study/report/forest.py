"""The findings paper's forest plot of every claim with a number (the index opens with glance_plot's view,
which prints the numbers beside each row): our value over the paper's (log axis), our 95%
interval and the paper's value or band drawn as ratios of the same reference (the band's geometric
middle), grouped by seed, coloured by verdict, a filled marker where the verdict is decided on
end-to-end times and an open one where on kernel-only times; on the right, the same code against the
best CPU code.  Each row is labelled with the claim in words (claims.yaml's ``in_words``, its citation
left to the seed's heading above it), wrapped to the label column so that it reads at page width.
Claims without a numeric value are returned by :func:`split` so that a page can list them beside the
plot instead of dropping them."""
from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

from ..show.signed import num, ours_of
from .findings_text import best_cpu_of, claim_words, seed_of
from ..show.tables import VERDICT_COLOURS

SEED_NAMES = {"000": "Kemp 2012", "001": "IIT Kharagpur", "002": "Hochberg", "003": "TU Wien", "004": "NTHU"}
LABEL_CHARS = 58         # characters per label line: the label column (42% of 9 in at 8.5 pt) holds about 60
LINE_IN = 0.15           # inches per label line; a row is its lines plus ROW_PAD
ROW_PAD = 0.07
HEAD_IN = 0.26           # a seed's heading row


def _point(row):
    """(ratio, ci_lo, ci_hi, band_lo, band_hi) relative to the claimed band's geometric middle, or None."""
    ours, lo, hi = ours_of(row), num(row.get("claimed_lo")), row.get("claimed_hi")
    c_lo, c_hi = num(row.get("ci_lo")), num(row.get("ci_hi"))
    hi_f = num(hi)
    unbounded = hi_f is None and str(hi).strip().lower() in ("inf", "infinity")
    if ours is None or lo is None or ours <= 0 or lo <= 0 or (hi_f is None and not unbounded):
        return None
    ref = lo if unbounded else math.sqrt(lo * hi_f)
    r = lambda x: x / ref if x is not None and x > 0 else None
    return r(ours), r(c_lo), r(c_hi), lo / ref, (math.inf if unbounded else hi_f / ref)


def _unbounded_raw(row):
    """Whether the row's interval has an end at infinity (``inf``) or at or below 0 (off a log axis): unbounded,
    as opposed to not computed (blank)."""
    def off(x):
        try:
            f = float(x)
        except (TypeError, ValueError):
            return False
        return math.isinf(f) or f <= 0
    return off(row.get("ci_lo")) or off(row.get("ci_hi"))


def reach(lo, hi, x0, x1):
    """What to draw of an interval (lo, hi; None where an end is missing or unbounded) on an axis running
    from x0 to x1: (a, b, open_left, open_right), the segment clipped to the axis and which of its ends run
    past the axis (drawn as an arrowhead at the edge); None where neither end is known (nothing to draw,
    the row says so in words)."""
    if lo is None and hi is None:
        return None
    a, b = (x0 if lo is None else max(lo, x0)), (x1 if hi is None else min(hi, x1))
    return a, b, lo is None or lo < x0, hi is None or hi > x1


def split(v):
    """(rows that can be drawn, with their point, seed-ordered; claims without a numeric value)."""
    drawn, listed = [], []
    for _, row in v.iterrows():
        p = _point(row)
        (drawn if p else listed).append((row, p))
    drawn.sort(key=lambda rp: (seed_of(rp[0].get("where")), rp[0].get("notebook", ""), ))
    return drawn, [row for row, _ in listed]


def alt_text(v):
    drawn, listed = split(v)
    seeds = sorted({seed_of(r.get("where")) for r, _ in drawn})
    return (f"Forest plot of {len(drawn)} claims with a number, one row per claim in words, grouped by seed "
            f"({', '.join(seeds)}): for each, our value "
            "divided by the paper's on a log axis with our 95% interval, the paper's band shaded, coloured by "
            f"verdict; right panel: the same GPU code against the best CPU code. {len(listed)} claims without "
            "a numeric value are listed beside the plot.")


def label(cid, claims):
    """The row's label: the claim in words without its closing citation (the seed's heading names the
    paper), wrapped to LABEL_CHARS; the identifier where claims.yaml has no words for it."""
    words = re.sub(r"\s*\([^()]*\)\.?$", "", claim_words(cid, claims)).rstrip(".")
    return textwrap.fill(words, LABEL_CHARS)


def _layout(drawn, labels):
    """[(y of each row's centre)], [(y, seed) of each heading], total height; y in inches from the top."""
    rows, heads, y, last = [], [], 0.0, None
    for (row, _), text in zip(drawn, labels):
        seed = seed_of(row.get("where"))
        if seed != last:
            heads.append((y + HEAD_IN / 2, seed))
            y, last = y + HEAD_IN, seed
        h = LINE_IN * (text.count("\n") + 1) + ROW_PAD
        rows.append(y + h / 2)
        y += h
    return rows, heads, y


def plot(v, out_png, claims=None):
    """Draw the forest plot of the verdict rows ``v`` to ``out_png``; returns the rows drawn."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    if claims is None:
        from ..method import claims as claims_mod
        claims = claims_mod.load()
    drawn, _ = split(v)
    if not drawn:                           # no claim with a number (a render of some notebooks only): no plot
        Path(out_png).unlink(missing_ok=True)
        return drawn
    labels = [label(str(row["claim"]), claims) for row, _ in drawn]
    centres, heads, height = _layout(drawn, labels)
    top_in, bottom_in = 0.75, 0.7
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9.0, height + top_in + bottom_in), dpi=100, sharey=True,
                                 gridspec_kw=dict(width_ratios=[3, 1.25], wspace=0.05))
    from matplotlib.transforms import blended_transform_factory
    at_left = blended_transform_factory(fig.transFigure, ax.transData)       # the label column, a row's height
    for i, (y, seed) in enumerate(heads):
        fig.text(0.01, -y, f"Seed {seed}: {SEED_NAMES.get(seed, '')}", transform=at_left,
                 ha="left", va="center", fontsize=9.5, fontweight="bold", color="#24292f")
        if i:
            for a in (ax, bx):
                a.axhline(-(y - HEAD_IN / 2), color="#8c959f", lw=0.6)
    ticks, intervals = [], []
    for (row, (r, lo, hi, b_lo, b_hi)), y in zip(drawn, centres):
        y = -y
        colour = VERDICT_COLOURS.get(row["verdict"], "#57606a")
        ax.fill_betweenx([y - LINE_IN / 2, y + LINE_IN / 2], b_lo, min(b_hi, 3e3), color="#d0d7de", lw=0)
        intervals.append((y, r, lo, hi, colour, _unbounded_raw(row)))     # drawn once the axis' span is fixed
        kernel = str(row.get("decided_by")) == "kernel"
        ax.plot([r], [y], "o", ms=5, color=colour, mfc="white" if kernel else colour, mew=1.4,
                zorder=3)                          # over its interval, drawn later
        ticks.append(y)
        cpu = best_cpu_of(row.get("best_cpu"))
        if cpu:
            val = float(cpu[0].split("-")[-1].rstrip("x"))
            bx.plot([cpu[1], cpu[2]], [y, y], color="#24292f", lw=1.2)
            bx.plot([val], [y], "D", ms=3.5, color="#24292f")
    ax.axvline(1, color="#24292f", lw=0.8, ls="--")
    bx.axvline(1, color="#24292f", lw=0.8, ls="--")
    for a in (ax, bx):
        a.set_xscale("log")
        a.tick_params(labelsize=9)
        a.grid(axis="x", color="#eaeef2", lw=0.6)
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels, fontsize=8.5, linespacing=1.05)
    for t in ax.get_yticklabels():
        t.set_multialignment("left")           # a wrapped claim reads as a paragraph
    ax.set_ylim(-height, 0)
    # the span: every dot and every known end of an interval in view, up to 3e3 on the right
    known = [x for _, r, lo, hi, _, _ in intervals for x in (r, lo, hi) if x is not None]
    ax.set_xlim(left=min(ax.get_xlim()[0], min(known) / 1.3), right=3e3)
    x0, x1 = ax.get_xlim()
    # A dot without a line read as a certain value: an interval that runs past the axis (unbounded, or beyond
    # 3e3) ends in an arrowhead at the edge, and a row without any interval says so beside its dot.
    for y, r, lo, hi, colour, unbounded in intervals:
        seg = reach(lo, hi, x0, x1)
        if seg is None:
            ax.annotate("interval unbounded" if unbounded else "no interval", (r, y), xytext=(7, 0),
                        textcoords="offset points", va="center", fontsize=7.5, style="italic", color="#57606a")
            continue
        a, b, open_left, open_right = seg
        ax.plot([a, b], [y, y], color=colour, lw=1.6)
        for edge, is_open, mark in ((x0, open_left, "<"), (x1, open_right, ">")):
            if is_open:
                ax.plot([edge], [y], mark, ms=6, color=colour, clip_on=False)
    # the narrow panel: a few plain labels (1, 3, 10, ...) where matplotlib's log axis labelled every minor tick of a
    # span under two decades ("3 x 10^0 ... 3 x 10^2" ran into each other) or, told decades only, gave one label
    lo_x, hi_x = bx.get_xlim()
    lo_x, hi_x = min(lo_x, 0.5), max(hi_x, 2.0)         # the dashed line at 1 (as fast as the CPU) always in view
    bx.set_xlim(lo_x, hi_x)
    decades = range(math.floor(math.log10(lo_x)), math.ceil(math.log10(hi_x)) + 1)
    marks = [c * 10.0 ** k for k in decades for c in (1, 3) if lo_x <= c * 10.0 ** k <= hi_x]
    if len(marks) > 4:
        marks = [v for v in marks if math.log10(v).is_integer()]
    bx.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(marks))
    bx.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    bx.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("ours / paper's (band's middle = 1), log", fontsize=9)
    bx.set_xlabel("GPU's speed-up over the\nbest CPU code (x), log", fontsize=9)
    # the plot signs a difference by side (ours / paper's above or below 1); the legend says so
    shown = {"differs in magnitude": "differs (larger: right of 1, smaller: left)"}
    handles = [Line2D([], [], marker="o", ls="", color=c, label=shown.get(v_, v_)) for v_, c in VERDICT_COLOURS.items()]
    handles += [Line2D([], [], marker="o", ls="", color="#24292f", label="end-to-end"),
                Line2D([], [], marker="o", ls="", color="#24292f", mfc="white", label="kernel-only"),
                matplotlib.patches.Patch(color="#d0d7de", label="paper's band"),
                Line2D([], [], marker=">", color="#57606a", label="interval runs past the axis")]
    fig.legend(handles=handles, loc="upper center", ncol=4, fontsize=9, frameon=False, bbox_to_anchor=(0.55, 1.0))
    total = height + top_in + bottom_in
    fig.subplots_adjust(left=0.44, right=0.98, top=1 - top_in / total, bottom=bottom_in / total)
    fig.savefig(out_png, dpi=100)
    plt.close(fig)
    return drawn
