"""The at-a-glance figure of :mod:`glance`'s rows: four columns on one line per claim, the name and short
title, the ratio plot, the paper's number and ours as text, the verdict's glyph and word.  The axis and its
direction ('measured exceeds the claim ->') are labelled at the top, where a reader starts; rows are
grouped under their paper.  Sized to be shown at its own size beside the findings' sentences (about
860 px wide), so that its 8 pt text stays legible."""
from __future__ import annotations

import math
import textwrap
from pathlib import Path

from . import glance as G

WIDTH_IN = 8.6
LINE_IN = 0.145          # one line of FONT-sized text; a row is its lines plus ROW_PAD
ROW_PAD = 0.05
HEAD_IN = 0.24           # a paper's heading
TOP_IN, BOTTOM_IN = 0.85, 0.45  # the bottom repeats the axis and its direction: the figure is taller than a screen
# the columns, as fractions of the width: name and title | plot | numbers | verdict
LABEL_X, PLOT = 0.004, (0.27, 0.475)
TEXT_X, VERDICT_X = 0.485, 0.79
TITLE_X = LABEL_X + 0.04
FONT = 8
RENDERED = 1.02          # text as drawn runs this much wider than its outline measures (hinting, rounding)
X_FLOOR, X_CEIL = 10 ** -3.5, 10 ** 2.5      # the ratios shown; a point or an interval past them ends in an arrow


def _width_in(text):
    """The width of ``text`` set in the figure's font, in inches (digits are wider than the average letter, so a
    count of characters does not tell whether a line of numbers fits its column)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath
    return TextPath((0, 0), text, prop=FontProperties(size=FONT)).get_extents().width / 72 * RENDERED


TITLE_LINES = 2


def _title(text):
    """The row's title wrapped at words onto at most TITLE_LINES lines between its name and the plot, the last cut
    with an ellipsis if the words run on: two lines keep the claim's number ('2,500x'), which one line cut."""
    room = (PLOT[0] - TITLE_X) * WIDTH_IN - 0.1           # clear of an arrow at the axis' left edge
    words, out = text.split(), []
    while words and len(out) < TITLE_LINES:
        line = words.pop(0)
        while words and _width_in(line + " " + words[0]) <= room:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        last = out[-1]
        while _width_in(last + "\u2026") > room and " " in last:
            last = last.rsplit(" ", 1)[0]
        out[-1] = last.rstrip(",;:") + "\u2026"
    return "\n".join(out)


def labels(g):
    """{name: the label drawn left of the row}: its name and wrapped title."""
    return {r["name"]: f"{r['name']} {_title(r['title'])}" for _, r in g.iterrows()}


def _lines(r):
    """The row's text lines in the numbers column, each fitted to the column's width: a line too long is
    broken after its '·' (the paper's number, then ours), else at the last word that fits."""
    room = (VERDICT_X - TEXT_X) * WIDTH_IN - 0.04
    fits = lambda parts: max(_width_in(w) for w in parts) <= room
    out = []
    for t in G.lines(r, r["unit"]):
        if fits([t]):
            out.append(t)
            continue
        halves = t.replace(" \u00b7 ", " \u00b7\n", 1).split("\n")
        if len(halves) == 2 and fits(halves):
            out += halves
            continue
        chars = len(t)
        while chars > 12 and not fits(textwrap.wrap(t, chars, break_on_hyphens=False)):
            chars -= 1
        out += textwrap.wrap(t, chars, break_on_hyphens=False)
    return out or [""]


def layout(g):
    """[(y of each row's centre)], [(y, seed) of each heading], total height; y in inches from the top."""
    rows, heads, y, last = [], [], 0.0, None
    for _, r in g.iterrows():
        if r["seed"] != last:
            heads.append((y + HEAD_IN / 2, r["seed"]))
            y, last = y + HEAD_IN, r["seed"]
        h = LINE_IN * max(len(_lines(r)), _title(r["title"]).count("\n") + 1) + ROW_PAD
        rows.append(y + h / 2)
        y += h
    return rows, heads, y


def _segment(p, q):
    """(a, b, [axis edges where an arrowhead goes]) of one point's line: its interval clipped to the axis, an
    arrowhead where the interval runs on past the axis (unbounded, or beyond it) or where ours is a bound
    (a crossing beyond the largest size measured points right, one before the smallest left); a point
    without an interval draws no line (its text says 'no CI')."""
    x, lo, hi = q[0], q[1], q[2]
    if p["bound"]:
        lo, hi = (x, None) if p["bound"] == "above" else (None, x)
    elif lo is None and hi is None:
        return x, x, []
    a = X_FLOOR if lo is None else max(lo, X_FLOOR)
    b = X_CEIL if hi is None else min(hi, X_CEIL)
    return a, b, [e for e, past in ((X_FLOOR, lo is None or lo < X_FLOOR), (X_CEIL, hi is None or hi > X_CEIL)) if past]


def _tick(x):
    """'1/100', '1', '10': a factor on the axis as a reader says it."""
    return f"{x:g}" if x >= 1 else f"1/{1 / x:g}"


def plot(g, out_png):
    """Draw the rows ``g`` (glance.rows) to ``out_png``; returns {name: the text drawn on its row} for tests."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.patches as mpatches
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.transforms import blended_transform_factory
    if g is None or not len(g):
        Path(out_png).unlink(missing_ok=True)
        return {}
    centres, heads, height = layout(g)
    total = height + TOP_IN + BOTTOM_IN
    fig = plt.figure(figsize=(WIDTH_IN, total), dpi=100)
    ax = fig.add_axes([PLOT[0], BOTTOM_IN / total, PLOT[1] - PLOT[0], height / total])
    ax.set_xscale("log")
    ax.set_xlim(X_FLOOR, X_CEIL)
    ax.set_ylim(-height, 0)
    ax.set_yticks([])
    row_y = blended_transform_factory(fig.transFigure, ax.transData)     # a text column, a row's height
    drawn = {}
    for i, (y, seed) in enumerate(heads):
        fig.text(LABEL_X, -y, f"{G.SEED_NAMES.get(seed, 'seed ' + seed)}", transform=row_y, ha="left", va="center",
                 fontsize=FONT + 1, fontweight="bold", color="#24292f")
        if i:
            ax.axhline(-(y - HEAD_IN / 2), color="#8c959f", lw=0.6)
    for (_, r), y in zip(g.iterrows(), centres):
        y = -y
        colour, glyph = G.LOOK.get(r["verdict"], ("#57606a", "\u2022"))
        lines = _lines(r)
        fig.text(LABEL_X, y, f"{r['name']}", transform=row_y, ha="left", va="center", fontsize=FONT,
                 fontweight="bold", color="#24292f")
        fig.text(TITLE_X, y, _title(r["title"]), transform=row_y, ha="left", va="center", fontsize=FONT,
                 linespacing=1.0, color="#24292f")
        fig.text(TEXT_X, y, "\n".join(lines), transform=row_y, ha="left", va="center", fontsize=FONT,
                 linespacing=1.0, color="#24292f")
        fig.text(VERDICT_X, y, f"{glyph} {r['verdict']}", transform=row_y, ha="left", va="center", fontsize=FONT,
                 color="#24292f")
        fig.text(VERDICT_X, y, glyph, transform=row_y, ha="left", va="center", fontsize=FONT, color=colour)
        drawn[r["name"]] = "\n".join(lines)
        half = (LINE_IN * max(len(lines), _title(r["title"]).count("\n") + 1)) / 2
        ratios = [q for _, q in r["points"] if q]
        if not ratios:
            ax.text(1, y, "not measured", ha="center", va="center", fontsize=FONT - 0.5, style="italic",
                    color="#57606a")
            continue
        # the paper's band (dark) inside its tolerance (light), as the verdict rule widens it
        b_lo, b_hi = min(q[3] for q in ratios), max(q[4] for q in ratios)
        t = r["tolerance"]
        ax.fill_betweenx([y - half, y + half], b_lo / t, min(b_hi * t, X_CEIL), color="#e6e9ed", lw=0)
        ax.fill_betweenx([y - half, y + half], b_lo, min(b_hi, X_CEIL), color="#b8c0c8", lw=0)
        mark = G.BASIS_MARK.get(r["basis"], "o")
        for (p, q) in r["points"]:
            if not q:
                continue
            x = q[0]
            a, b, heads_at = _segment(p, q)
            ax.plot([a, b], [y, y], color=colour, lw=1.5, solid_capstyle="butt")
            for edge in heads_at:
                ax.plot([edge], [y], ">" if edge == X_CEIL else "<", ms=4.5, color=colour, clip_on=False)
            ax.plot([min(max(x, X_FLOOR), X_CEIL)], [y], mark, ms=5, color=colour, mec="#24292f", mew=0.6, zorder=3)
    ax.axvline(1, color="#24292f", lw=0.8, ls="--")
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ticks = [10.0 ** k for k in range(-3, 3)]
    ax.set_xticks(ticks, [_tick(x) if x != 1e-2 else "" for x in ticks], fontsize=FONT)     # 1/100: no room
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.grid(axis="x", color="#d0d7de", lw=0.5)
    ax.set_xlabel("ours \u00f7 paper's number (log)\n\u2190 measured falls short   |   measured exceeds the claim \u2192",
                  fontsize=FONT + 0.5, labelpad=4)
    ax.tick_params(axis="x", length=2, pad=1, bottom=True, labelbottom=True)
    # the axis and its direction again at the bottom, for a reader who has scrolled past the top
    ax.text(0.5, -0.2 / height, "\u2190 measured falls short   |   measured exceeds the claim \u2192",
            transform=ax.transAxes, ha="center", va="top", fontsize=FONT + 0.5)
    for s in ("left", "right", "bottom"):
        ax.spines[s].set_visible(False)
    top = 1 - (TOP_IN - 0.08) / total
    fig.text(LABEL_X, top, "claim (C = its place in claims.yaml)", fontsize=FONT, fontweight="bold", va="bottom")
    fig.text(TEXT_X, top, "the paper's number \u00b7 ours [95% CI]", fontsize=FONT, fontweight="bold", va="bottom")
    fig.text(VERDICT_X, top, "verdict", fontsize=FONT, fontweight="bold", va="bottom")
    # the legend: what the shapes and the shading mean (the verdicts' words stand in every row)
    marks = [Line2D([], [], marker=m, ls="", color="#57606a", mec="#24292f", mew=0.6,
                    label=G.BASIS_WORDS[b] if b != "bound" else "bound")          # the short word: one line of legend
             for b, m in G.BASIS_MARK.items()]
    marks += [mpatches.Patch(color="#b8c0c8", label="paper's band"),
              mpatches.Patch(color="#e6e9ed", label="+ tolerance"),
              Line2D([], [], marker=">", ls="-", color="#57606a", ms=4.5, label="runs past")]
    fig.legend(handles=marks, loc="upper left", ncol=7, fontsize=FONT - 0.5, frameon=False, handletextpad=0.3,
               columnspacing=0.9, bbox_to_anchor=(0.0, 1.0), borderaxespad=0.2)
    fig.savefig(out_png, dpi=150)
    plt.close(fig)
    return drawn
