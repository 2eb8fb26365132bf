"""Synthetic tuned benchmark rows in bench.py's format (tests of notebook 11; never real numbers)."""
import json

import pandas as pd

H100 = "NVIDIA H100 80GB HBM3"
MINPLUS, BANDWIDTH = 16.5e12, 3.0e12 / 8
M16 = 66019                                          # the benchmark's Kemp graph at n = 16384 (degree 4.03)


def row(algorithm, variant, n, kernel_ms, verified=True, m=None, device=H100, kind=None, **extra):
    m = m if m is not None else (M16 if n == 16384 else 4 * n)
    work = float(n) ** 3 if kind != "sparse" else float(n) * m
    limit_kind = "" if kind == "cpu" else "bandwidth" if kind in ("bandwidth", "sparse") else "minplus"
    limit = {"minplus": MINPLUS, "bandwidth": BANDWIDTH}.get(limit_kind, float("nan"))
    ups = work / (kernel_ms / 1e3)
    r = dict(algorithm=algorithm, variant=variant, n=n, m=m, kernel_ms=kernel_ms, updates_per_s=ups,
             limit_kind=limit_kind, limit=limit, fraction_of_limit=ups / limit, verified=verified, device=device)
    r.update(extra)
    return r


def fw_ms(ups, n=16384):
    """The kernel time (ms) that gives ``ups`` updates/s for an n^3 solve."""
    return float(n) ** 3 / ups * 1e3


def met_rows():
    """A run in which every criterion of targets 1-3 is met."""
    gib = 2 ** 30
    return [
        row("tuned_fw", "", 4096, fw_ms(12e12, 4096)), row("tuned_fw", "", 8192, fw_ms(13e12, 8192)),
        row("tuned_fw", "", 16384, fw_ms(14e12)),                                   # 14 T/s, 85% of 16.5
        row("katz_kider", "32", 16384, fw_ms(3.2e12)),
        row("tuned_fw_ooc", "", 4096, 1.2 * fw_ms(12e12, 4096), budget_bytes=gib // 16),
        row("tuned_fw_ooc", "", 8192, 1.25 * fw_ms(13e12, 8192), budget_bytes=gib // 4),
        row("tuned_fw_ooc", "", 32768, fw_ms(13e12, 32768) * 1.2, budget_bytes=gib),   # 4 GiB in 1 GiB: 4x
        row("tuned_fw_stream", "int4", 16384, fw_ms(0.34e12), kind="bandwidth"),
        row("tuned_fw_stream", "cupy", 16384, fw_ms(0.2e12), kind="bandwidth"),
        row("tuned_sparse", "256", 16384, 100.0, kind="sparse"), row("tuned_sparse", "128", 16384, 120.0, kind="sparse"),
        row("harish", "atomic", 16384, 11335.0, kind="sparse"),                      # 113x
        row("dijkstra_cpu_parallel", "", 16384, 1500.0, kind="cpu"),                 # 15x
    ]


def write(folder, rows, device=H100, date="2026-12-01", tag="tuned", prov=True):
    """<device>-<date>[-tag].csv (and its provenance) in ``folder``, as bench.run names them."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{device.replace(' ', '_')}-{date}" + (f"-{tag}" if tag else "")
    path = folder / f"{stem}.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    if prov:
        (folder / f"{stem}.provenance.json").write_text(json.dumps(
            {"timestamp": f"{date}T10:00:00+00:00", "git_commit": "0123456789abcdef", "gpu": device}))
    return path
