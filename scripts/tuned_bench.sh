#!/usr/bin/env bash
# The tuned line on one H100, in one device command of at most ~9 minutes:
#   1. GPU tests of the tuned codes (tests/test_tuned_gpu.py, test_tuned_ooc_gpu.py, and test_gpu.py's
#      registry-wide exactness -k tuned);
#   2. the benchmark at n = 4096, 8192, 16384: tuned_fw, tuned_fw_stream (int4 and the three CuPy lines),
#      tuned_sparse (every batch), the faithful Katz & Kider B = 32 beside them; limits measured in the same run;
#      then tuned_fw_ooc at the same sizes with a budget of a quarter of its matrix (stage ooc: its 1.3x target
#      against tuned_fw's rows; below n ~ 16384 super-blocks that small are PCIe-bound by design);
#   3. in the same file, at n = 16384: Harish atomic and the 16-core CPU Dijkstra (tuned_sparse's targets);
#   4. compute-sanitizer memcheck and racecheck of the tuned codes at n = 100 and 300 (multi-round paths;
#      tuned_frontier's bitmaps of 4 and 10 words), and
#      of tuned_fw_ooc at n = 300 (in core) and 500 (its forced mode streams two super-blocks; its sanitizer
#      logs stay in /tmp, their summaries and any failure's tail go to the log);
#   5. n = 32768 (tuned_fw, tuned_sparse, Katz & Kider, tuned_fw_ooc in a quarter) if the time left allows, and
#      tuned_fw's phase split, and scripts/tuned_ooc_probe.py at n = 4096, 8192 and 16384 (stage probe_small);
#   6. tuned_fw_ooc at n = 65536 in a 4 GiB budget (a 16 GiB matrix: its 4x target), if the time left allows.
# Every stage has a time limit and the benchmark writes its CSV after every row, so a stage cut short keeps
# what it measured.  Everything lands in $OUT (6 files: the reply brings back 8 at most).
# Expects the offline wheel bundle in .whl (scripts/make_wheel_bundle.sh), as scripts/device_check.sh does.
#   run: scripts/tuned_bench.sh            (carry .whl)
# Env: BUDGET (seconds for the whole, default 540), SKIP (stages to leave out, e.g. "sanitize big"), TAG (default tuned).
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1 OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
BUDGET=${BUDGET:-540}
SKIP=" ${SKIP:-} "
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -2
  export PYTHONPATH=$PWD:/tmp/site
fi
export PY=${PY:-python3}
LOG=$OUT/tuned_bench.log
say() { echo "[$(printf '%4d' $SECONDS)s] $*" | tee -a "$LOG"; }
left() { echo $((BUDGET - SECONDS)); }
stage() {  # name seconds command...: runs unless skipped, within min(seconds, time left)
  local name=$1 secs=$2; shift 2
  case "$SKIP" in *" $name "*) say "$name: skipped (SKIP)"; return;; esac
  local l; l=$(left)
  [ "$secs" -gt "$l" ] && secs=$l
  if [ "$secs" -lt 20 ]; then say "$name: not run, ${l}s left"; return; fi
  say "$name: start (limit ${secs}s)"
  timeout --signal=INT --kill-after=10 "$secs" "$@"
  local r=$?
  say "$name: exit $r$([ $r -eq 124 ] && echo ' (time limit)')"
}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee -a "$LOG"
TAG=${TAG:-tuned}          # the big sizes go to their own file: TAG=tuned-big (notebook 11 reads every tuned* file of a date)
BENCH="$PY -m apsp_kernels bench --out $OUT --tag $TAG --append"

stage tests 150 bash -c "$PY -m pytest -q -p no:cacheprovider -m gpu --maxfail=10 tests/test_tuned_gpu.py \
    tests/test_tuned_ooc_gpu.py 'tests/test_gpu.py::test_exact' -k 'tuned' 2>&1 | tee $OUT/tuned_tests.log | tail -8"
stage bench 200 bash -c "$BENCH --sizes 4096 8192 16384 --repeats 3 \
    --algorithms tuned_fw tuned_fw_stream tuned_sparse katz_kider/32 2>&1 | grep -v '^ ' | tee -a $LOG"
OOC="tuned_fw_ooc --ooc-max-n 65536 --ooc-budget-fraction 0.25"     # budget: a quarter of the matrix
stage ooc 120 bash -c "$BENCH --sizes 4096 8192 16384 --repeats 3 --large-repeats 3 --algorithms $OOC 2>&1 \
    | grep -v '^ ' | tee -a $LOG"      # medians of 3 after a warm-up: one cold solve at 8192 read 80 ms, the probe's 60-62
stage baselines 130 bash -c "$BENCH --sizes 16384 --algorithms harish/atomic --cpu dijkstra_cpu_parallel 2>&1 \
    | grep -v '^ ' | tee -a $LOG"
stage sanitize 150 bash -c "SANITIZE_SIZES='100 300' scripts/sanitize.sh tuned_fw tuned_fw_stream tuned_sparse tuned_frontier 2>&1 | tee -a $LOG"
stage sanitize_ooc 120 bash -c "mkdir -p /tmp/sanitize_ooc && OUT=/tmp/sanitize_ooc SANITIZE_SIZES='300 500' \
    scripts/sanitize.sh tuned_fw_ooc 2>&1 | tee -a $LOG"
stage phases 60 bash -c "$PY scripts/tuned_phases.py 16384 3 2>&1 | tee -a $LOG"
# where tuned_fw_ooc's time goes (target 2's misses below 16384): host issue time against the schedule's,
# compute-idle time, 2-D against 1-D tile copy rates, in a quarter and a half budget (a diagnostic: no rows).
# 2026-11-25 (before split k): at n = 8192 in a quarter, 3 tile buffers (S = 1024) gave 72 ms against 92 with 4
# (S = 896), and 2, 4 or 8 compute streams the same: with 3 buffers one product runs at a time, 64 blocks of 132
# SMs; products now split k to fill them (ooc.k_parts)
stage probe_small 150 bash -c "{ for n in 4096 8192; do $PY scripts/tuned_ooc_probe.py \$n --fractions 0.25 0.5 \
    --streams 2 4 --buffers 3 4; done; $PY scripts/tuned_ooc_probe.py 16384 --streams 2 --buffers 3 4; } 2>&1 | tee -a $LOG"
stage big 240 bash -c "$BENCH --sizes 32768 --algorithms tuned_fw tuned_sparse/256 katz_kider/32 $OOC 2>&1 \
    | grep -v '^ ' | tee -a $LOG"
stage ooc_big 300 bash -c "$BENCH --sizes 65536 --algorithms $OOC 2>&1 | grep -v '^ ' | tee -a $LOG"

say "done; files in \$OUT:"
ls -la "$OUT" | tee -a "$LOG"
echo "=== benchmark rows ==="
$PY - <<'EOF'
import glob, pandas as pd
for f in sorted(glob.glob(__import__("os").environ["OUT"] + "/*-tuned.csv")):
    df = pd.read_csv(f)
    cols = [c for c in ("algorithm", "variant", "n", "kernel_ms", "updates_per_s", "limit_kind", "fraction_of_limit",
                        "verified", "budget_bytes", "error") if c in df]
    with pd.option_context("display.width", 200, "display.max_rows", 200):
        print(df[cols].to_string(index=False))
EOF
