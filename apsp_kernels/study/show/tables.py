"""Every table a report shows goes through :func:`show`, and every number a sentence or a verdict
states through :func:`fmt` (method/text.py, so that the rules below the tables write numbers the
same way): no index column, the unit of every quantity in its column's header, numbers to the
significant figures their quantity deserves (never a raw float), long text in bounded columns (the
offline report template lets a wide table scroll sideways instead of cutting it), verdict words in
their colours, and the same HTML for the same table (no random ids), so that a re-render of
recorded results is byte-identical."""
from __future__ import annotations

import hashlib
import math
import re

import numpy as np
import pandas as pd
from pandas.io.formats.style import Styler

from .. import words
from ..method.text import MISSING, fmt, interval

# Verdict words and their colours (the rules' five outcomes)
VERDICT_COLOURS = words.COLOURS


# ------------------------------------------------------------------ units
def _integer(v):
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
        return MISSING
    try:
        return str(int(v))
    except (TypeError, ValueError):
        return str(v)


# unit -> (as the header writes it, how a value is written)
UNITS = {
    "ms": ("ms", fmt), "s": ("s", fmt), "x": ("x", fmt),
    "vertices": ("vertices", _integer), "count": ("count", _integer),
    "fraction": ("%", lambda v: MISSING if v != v or v is None else fmt(100 * float(v))),
    "G updates/s": ("G updates/s", fmt), "T updates/s": ("T updates/s", fmt), "GB/s": ("GB/s", fmt), "G ops/s": ("G ops/s", fmt), "GB": ("GB", fmt),
    "MB": ("MB", fmt),
}

# column -> (header, unit): unit None is text.  A numeric column that a table shows must have a
# unit, here, in ``units=`` or in its own name ('throughput (G updates/s)').
COLUMNS = {
    # per-size statistics (measurements.summary: times in ms)
    "n": ("n", "vertices"), "median": ("median", "ms"), "ci_lo": ("95% CI low", "ms"), "ci_hi": ("95% CI high", "ms"),
    "runs": ("runs", "count"), "failed": ("failed", "count"), "processes": ("independent processes", "count"),
    "coverage": ("coverage", "fraction"), "G updates/s": ("throughput", "G updates/s"),
    # speed-ups (measurements.speedups): the intervals are ratios there (see _context)
    "speedup": ("speed-up", "x"), "samples": ("independent processes per side", "count"),
    "algorithm_timed": ("algorithm timed", None), "baseline_timed": ("baseline timed", None),
    # how far independent processes lie apart
    "leases": ("independent machine leases", "count"), "leases_after": ("leases it rests on now", "count"),
    "process_medians_ms": ("each process's median", "ms"), "max_over_min": ("slowest / fastest process", "x"),
    "timed_groups": ("timed groups", "count"), "spread_median": ("slowest / fastest process: median", "x"),
    "spread_p90": ("90th percentile", "x"), "spread_max": ("largest", "x"),
    # sampled estimates against full runs
    "full_median_ms": ("full runs: median", "ms"), "full_min_ms": ("full runs: fastest", "ms"),
    "full_max_ms": ("full runs: slowest", "ms"), "sampled_median_ms": ("sampled: median", "ms"),
    "sampled_over_full": ("sampled / full", "x"), "full_spread": ("full runs: slowest / fastest", "x"),
    "within_spread": ("sampled inside the full runs' spread", None),
    "paired_processes": ("processes with both", "count"), "paired_median": ("sampled / full in one process: median", "x"),
    "paired_min": ("in one process: lowest", "x"), "paired_max": ("in one process: highest", "x"),
    # verdicts (their numbers are text that carries the claim's own unit, x or n = ...)
    "decided_by": ("decided by", None), "paper_n": ("paper's sizes", "vertices"),
    "matched_n": ("sizes compared", "vertices"), "claimed": ("claimed", None), "tolerance": ("tolerance", "x"),
    "ours_text": ("ours [95% CI]", None), "ours_end_to_end": ("ours end-to-end [95% CI]", "x"),
    "ours_kernel": ("ours kernel-only [95% CI]", "x"), "best_cpu": ("over the best CPU code [95% CI]", "x"),
    "kemp": ("Kemp measured", None), "kemp_vs_ours": ("Kemp and ours at his sizes", None),
    "per_size": ("per size [95% CI]", None),
    # hardware (vendor peaks)
    "used_by": ("used by", None), "stated_in": ("stated in", None), "bandwidth_GBps": ("bandwidth", "GB/s"),
    "int32_Gops": ("int32 rate", "G ops/s"), "memory_GB": ("memory", "GB"),
    "H100 / this: bandwidth": ("H100 / this: bandwidth", "x"), "H100 / this: int32": ("H100 / this: int32", "x"),
    # failures
    "error": ("error", None), "same": ("the same in every run", None),
    # identifiers and words: text even where they look like numbers (a variant 64, a block size)
    **{c: (c, None) for c in ("algorithm", "variant", "graph", "params", "estimate", "device", "memory", "gpu", "claim",
                              "verdict", "where", "quote", "reason", "report", "notebook", "kind", "quantity", "source",
                              "hardware", "field", "value")},
}

LONG_TEXT = 40          # characters: a column with longer cells wraps inside bounds, the others never wrap
_OWN_UNIT = re.compile(r"\(([^()]*)\)\s*$")


def _context(df):
    """Units that depend on the table: beside a speed-up, the interval bounds are ratios."""
    bases = {_base(c)[0] for c in df.columns}
    return {"ci_lo": "x", "ci_hi": "x"} if "speedup" in bases else {}


_SUFFIXES = (" end-to-end", " kernel-only")


def _base(col):
    """('speedup', ' end-to-end') for a merged column 'speedup end-to-end'."""
    for s in _SUFFIXES:
        if col.endswith(s) and col[: -len(s)] in COLUMNS:
            return col[: -len(s)], s
    return col, ""


def _flat(df):
    """No index column: a meaningful (named) index becomes columns, a bare one is dropped;
    several column levels are joined ('katz_kider: memory (fastest)')."""
    if any(name is not None for name in df.index.names):
        df = df.reset_index()
    else:
        df = df.reset_index(drop=True)
    if isinstance(df.columns, pd.MultiIndex):
        df.columns = [": ".join(str(p) for p in c if str(p)) for c in df.columns]
    df.columns = [str(c) for c in df.columns]
    return df


def _numeric(s):
    return pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s)


def header_and_writer(col, series, units=None, unit=None, context=None):
    """(header, writer) of one column: the header names the unit of a quantity."""
    units, context = units or {}, context or {}
    base, suffix = _base(col)
    if col in units:
        label, u = col, units[col]
    elif base in COLUMNS:
        label, u = COLUMNS[base]
        u = context.get(base, u)
        label += suffix
    else:
        own = _OWN_UNIT.search(col)
        if own and own.group(1) in {h for h, _ in UNITS.values()} | set(UNITS):     # 'time (ms)': as it says
            return col, (_integer if own.group(1) in ("vertices", "count") else fmt)
        label, u = col, (unit if _numeric(series) else None)
    if u is None:
        if _numeric(series) and base not in COLUMNS:
            raise ValueError(f"column {col!r} holds numbers but has no unit: add it to tables.COLUMNS or pass units=")
        return label, _text
    h, writer = UNITS[u]
    return f"{label} ({h})", writer


def _text(v):
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return MISSING
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, float):
        return fmt(v)
    return str(v)


def frame(df, units=None, unit=None):
    """The table as a reader sees it: a DataFrame of strings with unit-bearing headers and no
    index.  ``units``: {column: unit} for columns :data:`COLUMNS` does not know; ``unit``: the
    unit of every other numeric column (a pivot's value columns).  ``attrs['numeric']``: the
    headers of the columns that hold quantities (right-aligned)."""
    df = _flat(pd.DataFrame(df))
    ctx = _context(df)
    out, numeric = {}, []
    for col in df.columns:
        head, writer = header_and_writer(col, df[col], units, unit, ctx)
        if head in out:
            raise ValueError(f"two columns would be headed {head!r}")
        out[head] = [writer(v) for v in df[col]]
        if writer is not _text:
            numeric.append(head)
    t = pd.DataFrame(out, columns=list(out))
    t.attrs["numeric"] = numeric
    return t


class Table(Styler):
    """A Styler whose plain-text form is the table itself (pandas' is '<Styler at 0x7f...>', an
    address that differs in every run and lands in the executed notebook)."""

    def __repr__(self):
        return self.data.to_string(index=False)


def show(df, units=None, unit=None, caption=None):
    """The one way a report shows a table (a pandas Styler: the notebook displays it).  A verdict column shows
    'differs in magnitude' with its direction where the row says it (show.signed; the table itself keeps the
    stored word)."""
    df = _signed(df)
    t = frame(df, units, unit)
    uuid = hashlib.sha1(t.to_csv(index=False).encode("utf-8")).hexdigest()[:10]     # same table, same HTML
    st = Table(t, uuid=uuid).hide(axis="index")
    if caption:
        st = st.set_caption(caption)
    styles = {}
    for c in t.columns:
        props = []
        if len(t) and t[c].map(len).max() > LONG_TEXT:
            props.append("min-width: 12em; max-width: 28em; white-space: normal")
        if c in t.attrs["numeric"]:
            props.append("text-align: right")
        if props:
            styles[c] = [{"selector": "td", "props": "; ".join(props)}]
    st = st.set_table_styles([{"selector": "th", "props": "text-align: left; vertical-align: bottom"},
                              {"selector": "td", "props": "text-align: left; vertical-align: top; white-space: nowrap"}])
    if styles:
        st = st.set_table_styles(styles, overwrite=False)
    # verdict words in their colours, wherever a cell is one (a verdict column, runs side by side)
    return st.map(lambda v: f"color: {_colour(v)}; font-weight: bold" if _colour(v) else "")


def _colour(v):
    """A verdict cell's colour: its word's, a signed 'differs: ...' taking that of 'differs in magnitude'."""
    if not isinstance(v, str):
        return None
    return VERDICT_COLOURS.get(words.DIFFERS if v.startswith("differs: ") else v)


def _signed(df):
    """``df`` with its ``verdict`` column signed for display where it has one and something to sign it by (our
    number against the paper's band, or the reason's words); else ``df`` as it is."""
    if not isinstance(df, pd.DataFrame) or "verdict" not in df or not len(df) or \
            not ({"reason", "ours", "ours_value"} & set(df.columns)) or not (df["verdict"] == words.DIFFERS).any():
        return df
    from . import signed
    return df.assign(verdict=signed.shown(df))


def key_values(d, key="field", value="value"):
    """A dict as a two-column table (provenance): the keys are a column, not an index."""
    return pd.DataFrame({key: list(map(str, d)), value: [_text(v) for v in d.values()]})


def speedups(frames):
    """Speed-ups side by side, one row per n: ``frames`` {'end-to-end': sp, 'kernel-only': sp}
    (measurements.speedups) -> 'end-to-end [95% CI] (x)', ... and how the baseline was timed."""
    rows = {}
    for name, sp in frames.items():
        for r in sp.itertuples():
            row = rows.setdefault(int(r.n), {"n": int(r.n)})
            row[f"{name} [95% CI] (x)"] = interval(r.speedup, r.ci_lo, r.ci_hi, "")
            row.setdefault("baseline timed", set()).add(getattr(r, "baseline_timed", "measured"))
    cols = ["n", *(f"{name} [95% CI] (x)" for name in frames), "baseline timed"]
    out = pd.DataFrame([rows[n] for n in sorted(rows)], columns=cols)
    out["baseline timed"] = out["baseline timed"].map(lambda s: ", ".join(sorted(s)))
    return out
