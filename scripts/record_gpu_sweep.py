"""Record every GPU algorithm (and the sequential CPU baselines up to a cap) on Kemp's graphs,
all verified, into data/results/<run-id>-<profile>-all_algorithms/.  The claim notebooks
render from such a run when no GPU is present."""
import argparse

from apsp_kernels import harness, registry, study

p = argparse.ArgumentParser()
p.add_argument("--profile", default="quick")
p.add_argument("--sizes", type=int, nargs="+", default=[1024, 2048, 4096, 8192])
p.add_argument("--cpu-cap", type=int, default=2048)
p.add_argument("--ooc-cap", type=int, default=4096)
p.add_argument("--repeats", type=int, default=3)
a = p.parse_args()

gpu_runs = [(al.name, v, {}) for al in registry.by_device("gpu") for v in al.variants if al.name != "kemp_ooc"]
frames = [study.sweep(gpu_runs, a.sizes, repeats=a.repeats, desc="gpu"),
          study.sweep([("kemp_ooc", "16", {}), ("kemp_ooc", "32", {})], [n for n in a.sizes if n <= a.ooc_cap],
                      repeats=a.repeats, desc="ooc"),
          study.sweep([("fw_sequential", None, {}), ("fw_blocked", "64", {}), ("fw_blocked_parallel", "64", {}),
                       ("dijkstra_cpu", None, {}), ("minplus_cpu", None, {})],
                      [n for n in a.sizes if n <= a.cpu_cap], repeats=1, warmup=0, desc="cpu")]
import pandas as pd
df = pd.concat(frames, ignore_index=True)
out = harness.save_results(df, harness.new_run_id(f"{a.profile}-all_algorithms"), a.profile, vars(a))
s = harness.summarise(df)
print(s[["algorithm", "variant", "n", "ok", "median", "min", "max"]].to_string(index=False))
print("saved", out)
