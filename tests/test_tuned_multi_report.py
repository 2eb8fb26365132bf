"""Notebook 11's tuned line across GPUs without a GPU: the recorded multi-GPU benchmark files read, their table's
numbers equal to a hand computation from the CSVs, an unverified row shown as failed (never as a time), a file of
another GPU model kept apart, NTHU's faithful multi-GPU FW beside it, and the section rendered in the notebook."""
import json
import re

import numpy as np
import pandas as pd
import pytest

from apsp_kernels import paths
from apsp_kernels.study.seeds.tuned import multi as M
from apsp_kernels.study.show import tables

BENCH = paths.RECORDED / "benchmarks"
X4 = BENCH / "NVIDIA_H200-2026-11-28-multi-gpu-x4.csv"
SOURCES = BENCH / "NVIDIA_H200-2026-11-28-multi-sources-x4.csv"
N = 65536


def _row(t, code, gpus, n=N, graph=None, on_device=False):
    r = t[(t["code"].str.startswith(code + " ")) & (t["GPUs (count)"] == gpus) & (t["n (vertices)"] == n)
          & (t["code"].str.contains("rows left on each GPU") == on_device)]
    if graph:
        r = r[r["graph"] == graph]
    assert len(r) == 1, r
    return r.iloc[0]


def _readable(frame):
    """The rules of tests/test_notebooks.py on a shown table: at most 4 significant digits after a point, a unit in
    the header of every column that holds a bare number."""
    for col in frame.columns:
        for txt in frame[col]:
            for num in re.findall(r"(?<![\d.])\d+\.\d+(?![\d.])", txt):
                assert len(re.sub(r"\D", "", num).lstrip("0")) <= 4, (col, txt)
            if re.fullmatch(r"-?\d+(\.\d+)?", txt.strip()):
                assert re.search(r"\([^()]+\)$", col), col


def test_the_committed_files_are_found_and_read():
    files = M.find(BENCH)
    names = [f.name for f in files]
    assert {X4.name, SOURCES.name} <= set(names)
    df = M.read(files)
    assert set(df["gpu"]) == {"NVIDIA H200"}
    assert set(df["machine"]) == {"4 x NVIDIA H200"}          # every file, however its name's tag goes on
    assert set(df.loc[df["kind"] == "sources", "graph"]) == {"geometric", "grid"}
    assert set(df.loc[df["kind"] == "fw", "graph"]) == {"kemp"}
    assert df["verified"].all() and df["verified"].dtype == bool
    assert M.load(BENCH).shape == df.shape


def test_the_notebooks_batch_chooses_the_folder(tmp_path):
    """A batch that names a folder renders that folder's files (none there: nothing measured, no number); a batch's
    name or "" the benchmark folders'."""
    (tmp_path / "empty").mkdir()
    assert M.load_for(str(tmp_path / "empty")).empty
    assert set(M.load_for("")["file"]) >= {X4.name, SOURCES.name}
    _copy(tmp_path, X4, X4.name)
    assert set(M.load_for(str(tmp_path))["file"]) == {X4.name}
    assert set(M.load_for(str(tmp_path / X4.name))["file"]) == {X4.name}


def test_the_table_equals_a_hand_computation_from_the_csv():
    raw = pd.read_csv(X4)
    t1 = raw.loc[(raw.code == "tuned_fw") & (raw.n_gpus == 1), "kernel_ms"].median()
    four = raw.loc[(raw.code == "tuned_fw_multi") & (raw.n_gpus == 4), "kernel_ms"]
    t = M.table(M.load(BENCH))
    r = _row(t, "tuned_fw_multi", 4)
    assert r["kernel time, median (s)"] == pytest.approx(four.median() / 1e3)
    assert r["speed-up over one GPU (x)"] == pytest.approx(t1 / four.median())
    assert r["speed-up over one GPU (x)"] == pytest.approx(3.89, abs=0.005)
    assert r["parallel efficiency (%)"] == pytest.approx(100 * t1 / four.median() / 4)
    assert r["throughput (T updates/s)"] == pytest.approx(N ** 3 / (four.median() / 1e3) / 1e12)
    assert r["repeats (count)"] == 3 and r["verified"] == "yes (3 of 3)" and r["one GPU is"] == "tuned_fw on 1 GPU"
    assert r["kernel time, min-max (s)"] == "4.789-4.8"                  # min 4789.3 ms, max 4800.4 ms
    lo, hi = r["speed-up, min-max (x)"].split("-")
    assert float(lo) == pytest.approx(t1 / four.max(), abs=5e-4) and float(hi) == pytest.approx(t1 / four.min(), abs=5e-4)
    assert _row(t, "tuned_fw", 1)["speed-up over one GPU (x)"] == pytest.approx(1.0)
    # the sources split against its own one-GPU call
    s = pd.read_csv(SOURCES)
    geo = s[s.graph == "geometric"].set_index("n_gpus")["kernel_ms"]
    g2 = _row(t, "tuned_frontier", 2, graph="geometric")
    assert g2["speed-up over one GPU (x)"] == pytest.approx(geo[1] / geo[2]) and g2["one GPU is"] == "its own call on 1 GPU"
    assert np.isnan(g2["throughput (T updates/s)"]) and g2["repeats (count)"] == 1
    # one rank of the split FW against tuned_fw on the same machine
    assert 0.99 < _row(t, "tuned_fw_multi", 1)["speed-up over one GPU (x)"] < 1.0
    _readable(tables.frame(t))


def test_the_finding_is_computed_from_the_rows():
    multi = M.load(BENCH)
    text = M.finding(multi, M.nthu_beside(multi))
    assert text.startswith("On 4 H200s tuned_fw_multi takes 4.79 s at n = 65,536")
    assert "3.89x one GPU's tuned_fw" in text and "58.8 T updates/s" in text and "every result verified" in text
    assert "NTHU's faithful multi-GPU FW (the paper's code, row design) took 60.9 s on 2 H200s" in text
    assert "3.48x on the geometric graph" in text and "3.4x on the grid graph" in text
    assert M.one_gpu_only(multi) == ""           # every n with a row has rows on several GPUs
    assert M.finding(M.load(BENCH / "nothing"), None).startswith("No multi-GPU benchmark recorded")


def test_nthu_beside_it():
    multi = M.load(BENCH)
    nt = M.nthu_table(M.nthu_beside(multi), multi)
    raw = pd.read_csv(paths.RECORDED / "20261123-092933-nthu-multi" / "nthu-multi.csv")
    two = raw.loc[(raw.n == N) & (raw.n_gpus == 2), "kernel_ms_max"].iloc[0]
    assert set(nt["n (vertices)"]) == set(multi.loc[multi["n_gpus"] > 1, "n"])   # where tuned_fw_multi ran split
    r = nt[(nt["GPUs (count)"] == 2) & (nt["n (vertices)"] == N)]
    assert len(r) == 1
    r = r.iloc[0]
    assert r["kernel time, median (s)"] == pytest.approx(two / 1e3)
    assert r["throughput (T updates/s)"] == pytest.approx(N ** 3 / (two / 1e3) / 1e12)
    mine = pd.read_csv(X4).query("code == 'tuned_fw_multi' and n_gpus == 2")["kernel_ms"].median()
    assert r["tuned_fw_multi on as many GPUs, faster by (x)"] == pytest.approx(two / mine)
    assert r["sync design"] == "row" and "paper's code" in r["code"] and r["verified"].startswith("yes")
    one = nt[(nt["GPUs (count)"] == 1) & (nt["n (vertices)"] == N)].iloc[0]   # no recorded flag: its checksum is tuned_fw's
    assert "tuned_fw's one-GPU Fletcher-64" in one["verified"]
    _readable(tables.frame(nt))
    four = nt[(nt["machine"] == "4 x NVIDIA H200") & (nt["n (vertices)"] == 32768)].set_index("GPUs (count)")
    # the speed-up over one GPU of the same machine, not of another machine with the same cards
    assert four.loc[4, "speed-up over its own one GPU (x)"] == pytest.approx(
        four.loc[1, "kernel time, median (s)"] / four.loc[4, "kernel time, median (s)"])


def _copy(tmp_path, src, name, edit=None, gpu=None):
    df = pd.read_csv(src, dtype={"checksum": str})
    if edit:
        df = edit(df)
    df.to_csv(tmp_path / name, index=False)
    prov = json.loads(src.with_name(src.name[:-4] + ".provenance.json").read_text())
    if gpu:
        prov["gpu"] = gpu
    (tmp_path / (name[:-4] + ".provenance.json")).write_text(json.dumps(prov))


def test_an_unverified_row_is_failed_never_a_time(tmp_path):
    def one_bad(df):
        i = df.index[(df.code == "tuned_fw_multi") & (df.n_gpus == 4)][0]
        df.loc[i, ["verified", "kernel_ms"]] = [False, 1.0]          # absurdly fast, and wrong
        return df

    def all_bad(df):
        df.loc[(df.code == "tuned_fw_multi") & (df.n_gpus == 2), "verified"] = False
        return df
    _copy(tmp_path, X4, X4.name, lambda d: all_bad(one_bad(d)))
    multi = M.load(tmp_path)
    t = M.table(multi)
    raw = pd.read_csv(X4)
    good = raw.loc[(raw.code == "tuned_fw_multi") & (raw.n_gpus == 4), "kernel_ms"].iloc[1:]
    r4 = _row(t, "tuned_fw_multi", 4)
    assert r4["verified"].startswith("FAILED (1 of 3)")
    assert r4["kernel time, median (s)"] == pytest.approx(good.median() / 1e3)        # the two verified repeats only
    r2 = _row(t, "tuned_fw_multi", 2)
    assert r2["verified"] == "FAILED (3 of 3)" and np.isnan(r2["kernel time, median (s)"])
    assert np.isnan(r2["speed-up over one GPU (x)"]) and r2["kernel time, min-max (s)"] == "-"
    shown = tables.frame(t)
    row = shown[shown["GPUs (count)"] == "2"].iloc[-1]
    assert row["kernel time, median (s)"] == "-" and row["throughput (T updates/s)"] == "-"
    text = M.finding(multi, None)
    assert "4 of its 10 results at that n FAILED verification" in text and "every result verified" not in text
    M.figure(multi, None)                                       # the failed repeats as crosses, no error


def test_a_file_of_another_gpu_model_is_its_own_group(tmp_path):
    _copy(tmp_path, X4, X4.name)
    _copy(tmp_path, X4, "NVIDIA_A100-2026-12-01-multi-gpu-x4.csv", lambda d: d.assign(kernel_ms=d.kernel_ms * 2),
          gpu="NVIDIA A100-SXM4-80GB")
    t = M.table(M.load(tmp_path))
    assert set(t["machine"]) == {"4 x NVIDIA H200", "4 x NVIDIA A100-SXM4-80GB"}
    four = t[(t["GPUs (count)"] == 4) & t["code"].str.startswith("tuned_fw_multi")]
    assert len(four) == 2 and four["speed-up over one GPU (x)"].round(4).nunique() == 1     # each against its own one GPU
    assert sorted(four["kernel time, median (s)"].round(2)) == [4.79, 9.58]


@pytest.mark.slow
def test_notebook_11_renders_the_section_on_recorded_data(tmp_path):
    import nbformat
    import papermill as pm
    from test_notebooks import html_tables
    nb = paths.ROOT / "notebooks" / "11_tuned.ipynb"
    out = tmp_path / "out.ipynb"
    pm.execute_notebook(str(nb), str(out), cwd=str(nb.parent), parameters=dict(profile="smoke", source="recorded"),
                        progress_bar=False, kernel_name="python3")
    cells = nbformat.read(out, as_version=4).cells
    assert not [o for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error" or o.get("name") == "stderr"]
    i = next(k for k, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## The tuned line across GPUs"))
    outs = cells[i + 1].outputs
    md = [o["data"]["text/markdown"] for o in outs if "text/markdown" in o.get("data", {})]
    assert md[0].startswith("**Finding.** On 4 H200s tuned_fw_multi takes 4.79 s at n = 65,536")
    assert any("image/png" in o.get("data", {}) for o in outs)
    assert (paths.FIGURES / "smoke" / "fig_tuned_multi_gpu.png").exists()
    html = [o["data"]["text/html"] for o in outs if "text/html" in o.get("data", {})]
    assert len(html) == 2 and "speed-up over one GPU (x)" in html[0] and "the paper's code" in html[1]
    for page in html:
        for t in html_tables(page):
            head = [c[2].strip() for c in t[0] if c[0] == "th"]
            for r in t[1:]:
                for j, (tag, _, txt) in enumerate(r):
                    for num in re.findall(r"(?<![\d.])\d+\.\d+(?![\d.])", txt):
                        assert len(re.sub(r"\D", "", num).lstrip("0")) <= 4, txt
                    if tag == "td" and re.fullmatch(r"-?\d+(\.\d+)?", txt.strip()):
                        assert re.search(r"\([^()]+\)$", head[j]), head[j]
    assert "left on its GPU" in cells[i + 2].source and "not measured" in cells[i + 2].source.lower()


@pytest.mark.parametrize("tag, prov, machine", [
    ("multi-gpu-x4", {}, "4 x NVIDIA H200"),
    ("multi-gpu-x4-16k-32k", {}, "4 x NVIDIA H200"),
    ("multi-gpu-16k", {"gpus_on_host": 8}, "8 x NVIDIA H200"),
    ("multi-gpu-16k", {}, "NVIDIA H200"),
])
def test_the_machine_is_the_provenances_gpu_count_else_the_file_names(tmp_path, tag, prov, machine):
    f = tmp_path / f"NVIDIA_H200-2026-11-28-{tag}.csv"
    pd.read_csv(X4).head(2).to_csv(f, index=False)
    f.with_name(f.name[:-4] + ".provenance.json").write_text(json.dumps(dict(prov, gpu="NVIDIA H200")))
    assert set(M.read([f])["machine"]) == {machine}


def test_the_sources_rows_say_how_fast_their_rows_left_and_what_that_may_mean():
    p = M.points(M.read([SOURCES]))
    src = p[p["kind"] == "sources"]
    raw = pd.read_csv(SOURCES)
    two = raw[(raw.graph == "grid") & (raw.n_gpus == 2)].kernel_ms.median()
    r = src[(src.graph == "grid") & (src.n_gpus == 2)].iloc[0]
    assert r["intake_Bps"] == pytest.approx(N / 2 * N * 4 / (two / 1e3))
    text = M.intake_caveat(p)
    lo, hi = src["intake_Bps"].min() / 1e9, src["intake_Bps"].max() / 1e9
    assert f"{M.fmt(lo)}-{M.fmt(hi)} GB/s" in text and "--on-device" in text
    assert "beyond the GPU count" not in text                     # 3.48x and 3.40x on 4: within the ideal
    fast = src.copy()
    fast.loc[fast.n_gpus == 4, "efficiency"] = 284.0              # as if 11.4x on 4 GPUs
    assert "beyond the GPU count" in M.intake_caveat(fast) and "not a finding" in M.intake_caveat(fast)
    assert M.intake_caveat(p[p["kind"] == "fw"]) == ""


ON_DEVICE = BENCH / "NVIDIA_H200-2026-11-28-multi-sources-on-device-x4.csv"


def test_rows_left_on_each_gpu_are_their_own_series_against_their_own_one_gpu():
    """multi_sources_bench.py --on-device times the kernels without the host's intake: its rows are never pooled with
    the streamed ones, each speed-up is over the same kind's one-GPU call, and the caveat quotes both, computed."""
    df = M.read([SOURCES, ON_DEVICE])
    assert set(df.loc[df["file"] == ON_DEVICE.name, "kind"]) == {"sources_device"}
    assert set(df.loc[df["file"] == SOURCES.name, "kind"]) == {"sources"}
    p = M.points(df)
    raw = pd.read_csv(ON_DEVICE)
    dev = p[(p["kind"] == "sources_device") & (p["graph"] == "geometric") & (p["n_gpus"] == 4)].iloc[0]
    one = raw[(raw.graph == "geometric") & (raw.n_gpus == 1)].kernel_ms.iloc[0]
    four = raw[(raw.graph == "geometric") & (raw.n_gpus == 4)].kernel_ms.iloc[0]
    assert dev["speedup"] == pytest.approx(one / four) and np.isnan(dev["intake_Bps"])
    text = M.intake_caveat(p)
    assert f"{M.fmt(one / four)}x on the geometric graph" in text and "none is recorded" not in text
    assert f"{M.fmt(one / 1e3)} s left on the GPU" in text
    t = M.table(df)
    assert t["code"].str.contains("rows left on each GPU").sum() == len(raw)
    assert _row(t, "tuned_frontier", 4, graph="grid", on_device=True)["one GPU is"] == "its own call on 1 GPU"
    failed = pd.concat([df[df["kind"] == "sources"], df[df["kind"] == "sources_device"].assign(verified=False)])
    q = M.points(failed)                                        # a failed on-device row is never a time
    assert q.loc[q["kind"] == "sources_device", "median_ms"].isna().all()
    assert "s left on the GPU" not in M.intake_caveat(q) and "FAILED on the geometric graph" in M.intake_caveat(q)
