"""The figures' one style: one colour per algorithm, the same in every plotting helper (read back
from the matplotlib artists they draw), distinct for distinct algorithms, variants told apart by
line; legends outside the data; the same figure gives the same file bytes."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402

from apsp_kernels.algorithms import registry  # noqa: E402
from apsp_kernels.study.show import figures as F
from apsp_kernels.study.seeds.kemp import load as M  # noqa: E402


def _hex(c):
    return mcolors.to_hex(c)


def test_palette_one_distinct_colour_per_registry_algorithm():
    pal = F.palette()
    assert list(pal) == list(registry.ALGORITHMS)                    # derived from the registry, in its order
    colours = [_hex(c) for c in pal.values()]
    assert len(set(colours)) == len(colours)                         # distinct algorithms, distinct colours
    reserved = {_hex(F.FAILED), _hex(F.CLAIMED), _hex(F.KEMP)}
    assert not reserved & set(colours)                               # failures and bands never look like a code
    assert pal["fw_sequential"] == "#000000"                         # every paper's baseline in black
    for a in registry.ALGORITHMS.values():                           # CPU codes muted, GPU codes from their own list
        assert pal[a.name] in (F.CPU_COLOURS if a.device == "cpu" else F.GPU_COLOURS) + F.SPARE_COLOURS


def _records():
    """Synthetic verified records: a few codes at three sizes, three processes each."""
    rows = []
    rng = np.random.default_rng(1)
    for a, v, base in (("fw_sequential", "None", 1000.0), ("fw_blocked", "64", 300.0), ("katz_kider", "16", 2.0),
                       ("katz_kider", "32", 1.5), ("harish", "atomic", 20.0), ("harish", "corrected", 25.0),
                       ("tran_fw", "None", 5.0)):
        for n in (1024, 2048, 4096):
            for p in range(3):
                rows.append(dict(algorithm=a, variant=v, graph=M.KEMP, params="{}", estimate="measured", n=n,
                                 status="ok", verified=True, process=p, device=registry.get(a).device,
                                 wall_ms=base * (n / 1024) ** 3 * (1 + 0.05 * rng.random()),
                                 kernel_ms=base * (n / 1024) ** 3 * 0.9))
    return pd.DataFrame(rows)


def _series(ax):
    """{legend label: colour} of every errorbar series an axes draws."""
    out = {}
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            out[c.get_label()] = (_hex(c.lines[0].get_color()), c.lines[0].get_linestyle())
    return out


def test_every_helper_colours_an_algorithm_the_same():
    df = _records()
    pal = F.palette()
    fig, (a1, a2, a3, a4) = F.subplots(1, 4, figsize=(16, 4))
    F.plot_times(df, [("fw_sequential", None, "FW"), ("katz_kider", "16", "KK16"), ("katz_kider", "32", "KK32"),
                      ("harish", "atomic", "H"), ("tran_fw", None, "Tran")], "times", ax=a1, graph=M.KEMP)
    # several algorithms over one baseline: coloured by the algorithm
    F.plot_speedups(a2, [(M.speedups(df, a, "fw_sequential", variant=v), a) for a, v in
                         (("katz_kider", "16"), ("harish", "atomic"), ("tran_fw", None))], claimed=(60, 130), kemp=(100, 150))
    # one algorithm over several baselines: coloured by the baseline
    F.plot_speedups(a3, [(M.speedups(df, "katz_kider", b, variant="16", baseline_variant=bv), b) for b, bv in
                         (("fw_sequential", None), ("fw_blocked", "64"), ("harish", "atomic"))])
    # one algorithm over two variants of one baseline: the baseline's colour, told apart by line
    F.plot_speedups(a4, [(M.speedups(df, "katz_kider", "harish", variant="16", baseline_variant=v), v)
                         for v in ("atomic", "corrected")])
    t, s2, s3, s4 = _series(a1), _series(a2), _series(a3), _series(a4)
    assert t["FW"][0] == s3["fw_sequential"][0] == pal["fw_sequential"]
    assert t["KK16"][0] == t["KK32"][0] == s2["katz_kider"][0] == pal["katz_kider"]
    assert t["KK16"][1] != t["KK32"][1]                                   # variants: one colour, two lines
    assert t["H"][0] == s2["harish"][0] == s3["harish"][0] == s4["atomic"][0] == s4["corrected"][0] == pal["harish"]
    assert s4["atomic"][1] != s4["corrected"][1]
    assert t["Tran"][0] == s2["tran_fw"][0] == pal["tran_fw"]
    assert s3["fw_blocked"][0] == pal["fw_blocked"]
    # the style helper the notebooks' own plots use agrees
    assert F.style("harish", "corrected")["color"] == pal["harish"]
    assert F.style("harish", "atomic")["ls"] != F.style("harish", "corrected")["ls"]
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_legends_lie_below_the_panels_clear_of_the_bands():
    df = _records()
    fig, ax = F.subplots(figsize=(6, 4))
    F.plot_speedups(ax, [(M.speedups(df, "katz_kider", "fw_sequential", variant="16"), "KK")], claimed=(60, 130))
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    leg, box = ax.get_legend().get_window_extent(r), ax.get_window_extent(r)
    assert leg.y1 <= box.y0                                               # entirely below the axes
    xlabel = ax.xaxis.label.get_window_extent(r)
    assert leg.y1 <= xlabel.y0 + 1                                         # and below its axis label
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_one_time_unit_per_figure():
    df = _records()
    for unit in ("s", "ms"):
        fig, ax = F.subplots()
        F.plot_times(df, [("fw_sequential", None, "FW")], "t", ax=ax, unit=unit, graph=M.KEMP)
        assert f"({unit})" in ax.get_ylabel()
        y = ax.containers[0].lines[0].get_ydata()
        med = df[(df["algorithm"] == "fw_sequential") & (df["n"] == 1024)].groupby("process")["wall_ms"].median().median()
        assert y[0] == pytest.approx(med * F.TIME_UNITS[unit], rel=1e-6)
        import matplotlib.pyplot as plt
        plt.close(fig)


def test_saved_figures_are_byte_identical(tmp_path, monkeypatch):
    from apsp_kernels import paths
    monkeypatch.setattr(paths, "FIGURES", tmp_path)
    df = _records()
    out = []
    for _ in range(2):
        fig, ax = F.subplots()
        F.plot_times(df, [("katz_kider", "16", "KK")], "t", ax=ax, graph=M.KEMP)
        p = F.save_figure(fig, "same", "smoke")
        out.append((p.read_bytes(), p.with_suffix(".svg").read_bytes()))
        import matplotlib.pyplot as plt
        plt.close(fig)
    assert out[0] == out[1]
