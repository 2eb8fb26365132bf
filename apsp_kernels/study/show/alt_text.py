"""Alt text that says what a figure shows, read from the figure itself: its title, and per panel its
title, what is plotted against what (log axes said), and the series its legend names.  A figure a
notebook shows carries this text in its output's metadata (``{"image/png": {"alt": ...}}``, set by
:func:`attach_to_display`), and the rendered page puts it on the <img> (report_layout.add_alt_text),
so every image says what it shows instead of a generic string."""
from __future__ import annotations

MAX_SERIES = 8           # series named per panel; the rest are counted
MAX_CHARS = 900          # alt text is read aloud: a long legend is cut, its count kept


def _axis(ax, which):
    label = (ax.get_xlabel() if which == "x" else ax.get_ylabel()).strip()
    scale = ax.get_xscale() if which == "x" else ax.get_yscale()
    return f"{label} (log scale)" if label and scale == "log" else label


def _series(legend, ax=None):
    if legend is not None:
        names = [t.get_text() for t in legend.get_texts()]
    elif ax is not None:
        names = [h.get_label() for h in ax.lines + ax.collections]
    else:
        names = []
    names = [n.replace("\n", " ").strip() for n in names if n and not n.startswith("_")]
    names = list(dict.fromkeys(names))
    if not names:
        return ""
    more = len(names) - MAX_SERIES
    return "; series: " + ", ".join(names[:MAX_SERIES]) + (f" and {more} more" if more > 0 else "")


def _drawn(ax):
    return ax.axison and bool(ax.lines or ax.collections or ax.patches or ax.images or ax.texts)


def describe(fig):
    """One paragraph: the figure's title, then per panel its title, y against x and its series."""
    title = fig._suptitle.get_text().strip() if getattr(fig, "_suptitle", None) else ""
    axes = [a for a in fig.axes if _drawn(a) and a.get_label() != "<colorbar>"]
    panels = []
    for i, ax in enumerate(axes, 1):
        head = ax.get_title() or ax.get_title(loc="left") or ax.get_title(loc="right")
        x, y = _axis(ax, "x"), _axis(ax, "y")
        what = f"{y} against {x}" if x and y else (y or x or "a chart")
        name = f"Panel {i}" if len(axes) > 1 else "The chart"
        panels.append(f"{name}{' ' + repr(head.strip()) if head.strip() else ''}: {what}{_series(ax.get_legend(), ax)}")
    shared = "".join(_series(lg) for lg in getattr(fig, "legends", []))
    if not (title or panels):
        return ""                      # nothing drawn: the page says so rather than describe nothing
    text = (f"Figure '{title}'. " if title else "") + "; ".join(panels) + (f". For the whole figure{shared}" if shared else "")
    text = " ".join(text.split()).rstrip(".") + "."
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS - 3].rsplit(" ", 1)[0] + " ..."


def attach_to_display():
    """From now on in this IPython kernel, a matplotlib figure shown as PNG carries :func:`describe`'s
    text as its output's ``alt`` metadata.  Wraps the PNG printer the inline backend installed (so its
    dpi and bbox settings stay); does nothing outside IPython or where no printer is installed yet."""
    try:
        from IPython import get_ipython
        from matplotlib.figure import Figure
    except ImportError:
        return False
    ip = get_ipython()
    if ip is None:
        return False
    png = ip.display_formatter.formatters["image/png"]
    try:
        printer = png.lookup_by_type(Figure)
    except KeyError:
        return False
    if getattr(printer, "with_alt", False):
        return True

    def with_alt(fig):
        out = printer(fig)
        data, md = out if isinstance(out, tuple) else (out, {})
        return (data, {**(md or {}), "alt": describe(fig)}) if data is not None else None
    with_alt.with_alt = True
    png.for_type(Figure, with_alt)
    return True
