"""Every figure's alt text says what it shows: read from the figure (title, per panel what is plotted
against what, its series) and, on the page, the section it stands in; never one generic string."""
import nbformat

from apsp_kernels.study.report import report_layout
from apsp_kernels.study.show import alt_text, figures


def _times(title, series):
    fig, (a, b) = figures.subplots(1, 2, figsize=(8, 3))
    for s in series:
        a.plot([1, 2], [1, 3], label=s)
        b.plot([1, 2], [2, 1], label=s)
    a.set(xlabel="n (vertices)", ylabel="time (s)", yscale="log", title="times")
    b.set(xlabel="n (vertices)", ylabel="speed-up (x)", title="speed-ups")
    a.legend()
    fig.suptitle(title)
    return fig


def test_describe_says_title_axes_and_series():
    import matplotlib.pyplot as plt
    fig = _times("Katz & Kider against the sequential FW", ["KK B=16", "sequential FW"])
    text = alt_text.describe(fig)
    for part in ("Katz & Kider against the sequential FW", "Panel 1 'times'", "time (s) (log scale) against n (vertices)",
                 "KK B=16", "sequential FW", "Panel 2 'speed-ups'", "speed-up (x) against n (vertices)"):
        assert part in text, (part, text)
    other = alt_text.describe(_times("Harish's growth", ["Harish (atomic)"]))
    assert other != text and "Harish (atomic)" in other
    many = alt_text.describe(_times("many", [f"code {i}" for i in range(12)]))
    assert "and 4 more" in many and len(many) <= alt_text.MAX_CHARS
    plt.close("all")


def _page_nb(alts):
    cells = [nbformat.v4.new_markdown_cell("## Does KK scale?\nKK's speed-up grows with n. More text.")]
    for a in alts:
        out = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="},
                                     metadata={"image/png": {"alt": a}} if a else {})
        cells.append(nbformat.v4.new_code_cell("", outputs=[out]))
    return nbformat.v4.new_notebook(cells=cells)


def test_the_page_puts_what_the_figure_shows_and_its_section_on_the_image():
    nb = report_layout.add_alt_text(_page_nb(["Figure 'KK times'. The chart: time (s) against n.", None]))
    alts = [c.outputs[0].metadata["alt"] for c in nb.cells[1:]]
    assert alts[0].startswith("Figure 'KK times'. The chart: time (s) against n.") and "Does KK scale?" in alts[0]
    assert "no description recorded" in alts[1] and "figure 2" in alts[1] and alts[0] != alts[1]


def test_a_figure_shown_in_a_kernel_carries_its_description():
    """Through a real kernel (as papermill runs the notebooks): the shown PNG's output metadata holds the
    figure's description, which the page then puts on the <img>."""
    import os
    from pathlib import Path
    import nbclient
    root = Path(__file__).resolve().parents[1]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import matplotlib.pyplot as plt\nfrom apsp_kernels.study.show import figures\n"
        "fig, ax = figures.subplots()\nax.plot([1, 2], [3, 4], label='Tran FW')\n"
        "ax.set(xlabel='n (vertices)', ylabel='time (s)', yscale='log')\nax.legend()\nfig.suptitle('Tran FW times')\n"
        "plt.show()")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    env = dict(os.environ, PYTHONPATH=f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    nbclient.NotebookClient(nb, kernel_name="python3").execute(cwd=str(root), env=env)
    pngs = [o for o in nb.cells[0].outputs if "image/png" in o.get("data", {})]
    assert len(pngs) == 1
    assert pngs[0].metadata["image/png"]["alt"] == (
        "Figure 'Tran FW times'. The chart: time (s) (log scale) against n (vertices); series: Tran FW.")
