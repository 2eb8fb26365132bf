"""A claim page in the order a reader needs it: its findings first (the notebook's claims as the index
shows them: in words, the paper's number, ours [CI], verdict, why), then its figures and tables in the
notebook's order, then the method and noise diagnostics (cells tagged ``diagnostics``: where the
numbers come from, verification, the spread of the processes) at the bottom, collapsed.  The notebook
itself keeps its execution order; only the rendered page is rearranged.  Every image gets alt text
from the section it stands in (its heading and first sentence)."""
from __future__ import annotations

import html
import re

import nbformat
import pandas as pd

DIAGNOSTICS = "diagnostics"


def _findings_cell(name, reports):
    from ..method import claims as claims_mod
    from ..words import CLASSES as VERDICT_CLASSES
    from . import findings_index
    from ..show.tables import VERDICT_COLOURS
    # the summary's findings are every claim's (notebook 07 writes them to verdicts.csv)
    f = reports / "verdicts.csv" if name.endswith("_summary") else reports / "verdicts" / f"{name}.csv"
    if not f.exists():
        return None
    v = pd.read_csv(f)
    if v.empty:
        return None
    colours = "".join(f".{VERDICT_CLASSES[k]}{{color:{c};font-weight:bold}}" for k, c in VERDICT_COLOURS.items())
    body = (f"<style>{findings_index.CSS}{colours}table#claims td,table#claims th{{border:1px solid #ccc;"
            "padding:.35em .5em;vertical-align:top;text-align:left}</style><h2>Findings</h2>"
            + findings_index.table_html(v, claims_mod.load(), VERDICT_CLASSES)
            + "<p><small>Figures and the full claim table follow; the method and noise diagnostics are at the bottom."
              "</small></p>")
    return nbformat.v4.new_code_cell(source="", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/html": body})])


def _output_html(o):
    from nbconvert.filters import markdown2html
    data = o.get("data", {})
    if o.get("output_type") == "stream":
        return f"<pre>{html.escape(o.get('text', ''))}</pre>"
    if "text/html" in data:
        return data["text/html"]
    if "text/markdown" in data:
        return markdown2html(data["text/markdown"])
    if "image/png" in data:
        alt = html.escape(o.get("metadata", {}).get("alt") or "A figure of the diagnostics (no description recorded).")
        return f'<img alt="{alt}" src="data:image/png;base64,{data["image/png"]}">'
    if "text/plain" in data:
        return f"<pre>{html.escape(data['text/plain'])}</pre>"
    return ""


def _diagnostics_cell(cells):
    parts = [_output_html(o) for c in cells for o in c.get("outputs", [])]
    parts = [p for p in parts if p]
    if not parts:
        return None
    body = ('<details class="diagnostics"><summary><b>Method and noise diagnostics</b>: where the numbers come from, '
            "verification, how far the independent processes lie apart</summary>" + "\n".join(parts) + "</details>")
    return nbformat.v4.new_code_cell(source="", outputs=[nbformat.v4.new_output("display_data", data={"text/html": body})])


def _plain(md):
    text = re.sub(r"[`*_#>\[\]]", "", md)
    text = re.sub(r"\(https?://[^)]*\)", "", text)
    return " ".join(text.split())


def add_alt_text(nb):
    """Each PNG output's alt text: what the figure shows (its title, axes and series, which the kernel
    recorded in the output's metadata: study/show/alt_text) and the section it stands in (heading and
    first sentence: the claim it is about).  A figure without that record gets its section and number."""
    section, k = "", 0
    for c in nb.cells:
        if c.cell_type == "markdown":
            lines = [ln for ln in c.source.splitlines() if ln.strip()]
            if lines and lines[0].startswith("#"):
                head = _plain(lines[0])
                first = re.split(r"(?<=[.!?])\s", _plain(" ".join(lines[1:])), maxsplit=1)[0] if len(lines) > 1 else ""
                section, k = f"{head}. {first}".strip(), 0
            continue
        for o in c.get("outputs", []):
            if "image/png" in o.get("data", {}):
                k += 1
                md = o.setdefault("metadata", {})
                shows = (md.get("image/png") or {}).get("alt", "")
                where = f"In the section '{section.rstrip('.')}'" if section else "In this report"
                md["alt"] = f"{shows} {where}." if shows else f"{where}: figure {k} (no description recorded)."
    return nb


WIDE = 9         # columns: a table with more cannot fit 1400 px once its long cells wrap; it goes into a details row


def _columns(table_html):
    row = re.search(r"<tr[^>]*>(.*?)</tr>", table_html, flags=re.S)
    return len(re.findall(r"<t[hd][\s>]", row.group(1))) if row else 0


def collapse_wide_tables(nb):
    """Each output holding a table of more than WIDE columns is put into a <details> (closed; open, it
    scrolls inside its output): the page itself never runs wider than the screen.  The claim's essentials
    are in the findings table at the top."""
    for c in nb.cells:
        for o in c.get("outputs", []):
            h = o.get("data", {}).get("text/html")
            if not h or "<table" not in h or h.lstrip().startswith("<details"):
                continue
            n = _columns(h[h.index("<table"):])
            if n > WIDE:
                o["data"]["text/html"] = (f'<details class="wide"><summary>{_title(h)}: {n} columns, wider than the '
                                          f"page (open it to scroll sideways)</summary>{h}</details>")
    return nb


def _title(table_html):
    """What a collapsed table is: the first sentence of its caption, else 'The full table'."""
    cap = re.search(r"<caption[^>]*>(.*?)</caption>", table_html, flags=re.S)
    text = re.sub(r"<[^>]+>", "", cap.group(1)).strip() if cap else ""
    return text.split(". ")[0].rstrip(".") if text else "The full table"


def for_reader(nb, name, reports):
    """The notebook node rearranged for its page (see the module docstring)."""
    nb = collapse_wide_tables(add_alt_text(nb))
    keep = [c for c in nb.cells if DIAGNOSTICS not in c.metadata.get("tags", [])]
    diag = [c for c in nb.cells if DIAGNOSTICS in c.metadata.get("tags", [])]
    first = _findings_cell(name, reports)
    at = next((i + 1 for i, c in enumerate(keep) if c.cell_type == "markdown"), 0)
    if first is not None:
        keep.insert(at, first)
    last = _diagnostics_cell(diag)
    if last is not None:
        keep.append(last)
    nb.cells = keep
    return nb


