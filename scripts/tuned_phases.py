"""tuned_fw's time by phase (CUDA events around every launch) at one size, a few solves: how much of
the time is the O(n^3) product (phase 3) and at what rate it runs alone.  Used by scripts/tuned_bench.sh:
    python3 scripts/tuned_phases.py [n] [solves]"""
import sys

from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators

n = int(sys.argv[1]) if len(sys.argv) > 1 else 16384
solves = int(sys.argv[2]) if len(sys.argv) > 2 else 3
g = generators.kemp(n, seed=n)
algo = registry.get("tuned_fw")
algo.run(generators.kemp(256, seed=1))                         # compile first
for i in range(solves):
    _, t = algo.run(g, phases=True)
    N = t["padded_n"]
    p3 = N * (N - 128) ** 2                                     # phase 3's updates: nb rounds of (N-128)^2 x 128
    print(f"tuned_fw n={n} solve {i}: kernel {t['kernel_ms']:.1f} ms = {n ** 3 / t['kernel_ms'] / 1e9:.2f} T updates/s; "
          f"phase 1 {t['phase1_ms']:.1f} ms, phase 2 {t['phase2_ms']:.1f} ms, phase 3 {t['phase3_ms']:.1f} ms "
          f"(phase 3 alone {p3 / t['phase3_ms'] / 1e9:.2f} T/s)", flush=True)
