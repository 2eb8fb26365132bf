#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over every GPU kernel at n = 64 and 100 (Hochberg's
# explorations included: apsp_kernels sanitize-driver runs every registry variant).
# Then seed 001's BFS and SSSP kernels (every variant, the racy original SSSP included) from three
# sources of a power-law graph; racecheck sees shared memory only, so the published race on U_a
# (global memory) is not one it reports.
# Arguments, if any, name the codes to check (scripts/sanitize.sh nthu_blocked nthu_multi).
# SANITIZE_SIZES overrides the sizes (default "64 100"): the tuned codes pad to 128, so their multi-round
# paths (tuned_fw's phases 2 and 3, tuned_sparse's several batches) need n > 128 or 256:
#   SANITIZE_SIZES="100 300" scripts/sanitize.sh tuned_fw tuned_fw_stream tuned_sparse tuned_frontier
#                                                                                        (scripts/tuned_bench.sh)
# tuned_frontier's int32 kernel runs here (racecheck: its shared bitmaps, atomicOr'd within a round and
# cleared between two barriers); its float32 one under the sanitizer through its GPU tests:
#   compute-sanitizer --tool racecheck python -m pytest -q tests/test_tuned_frontier_gpu.py -k "bit_for_bit and not 1000"
# tuned_deep (cuda/tuned_deep.cu: a warp per source, its queues, bitmaps and counters in shared memory, two
# __syncwarp a round and no block barrier): the driver's Kemp graphs give its wide (bitmap-scan) rounds; its GPU
# tests the deep ones (paths, rings, the lollipop whose clique overflows the queue), int32 and float32, and
# synccheck the __syncwarp masks:
#   SANITIZE_SIZES="100 300" scripts/sanitize.sh tuned_deep
#   compute-sanitizer --tool memcheck python -m pytest -q tests/test_tuned_per_source_gpu.py -k "every_kind_exact and tuned_deep and not 1000"
#   compute-sanitizer --tool racecheck python -m pytest -q tests/test_tuned_per_source_gpu.py tests/test_tuned_deep_gpu.py \
#       -k "(every_kind_exact and tuned_deep and (70 or 127) and not 4096) or bit_for_bit"
#   compute-sanitizer --tool synccheck python -m pytest -q tests/test_tuned_per_source_gpu.py -k "every_kind_exact and tuned_deep and 127"
# tuned_fw's float32 kernels (tfw_phase*_f32) the same way:
#   compute-sanitizer --tool memcheck python -m pytest -q tests/test_tuned_gpu.py -k "float32 and (33 or 129)"
#   compute-sanitizer --tool racecheck python -m pytest -q tests/test_tuned_gpu.py -k "float32 and (33 or 129)"
# tuned_fw_ooc's forced mode caps its super-blocks at 3 x 128, so its streamed path needs n > 384:
#   SANITIZE_SIZES="300 500" scripts/sanitize.sh tuned_fw_ooc                            (scripts/tuned_bench.sh)
# tuned_elimination (cuda/tuned_elimination.cu: closure, panels, Schur with atomicMin, the sweeps' grouped products by
# tree level; the sanitize graphs give 2-21 supernodes at 100 and 300); its GPU tests add deep trees (one supernode a
# launch and batched), supernodes over 128 and negative cycles:
#   SANITIZE_SIZES="100 300" scripts/sanitize.sh tuned_elimination
#   compute-sanitizer --tool memcheck python -m pytest -q tests/test_tuned_elimination_gpu.py -k "not large"
#   compute-sanitizer --tool racecheck python -m pytest -q tests/test_tuned_elimination_gpu.py -k "small_supernodes or larger or cycle"
# Prints one summary line per run; exits non-zero if any run does not end as expected.
#
# One run is EXPECTED to report hazards: racecheck on hochberg_explore/nosync, Hochberg's kernel
# without its __syncthreads() (seed 002, Exploration 2), where threads read the shared trkc that
# thread 0 writes with nothing ordering the two.  It runs on its own and passes only if racecheck
# reports at least one hazard there and the driver itself finished; every other run must be clean.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
NOSYNC=hochberg_explore/nosync
SIZES=${SANITIZE_SIZES:-64 100}
LAST=${SIZES##* }
rc=0
run() {  # name tool expect(clean|hazards) driver-args...
  local name=$1 tool=$2 expect=$3; shift 3
  local log=${OUT:-/tmp}/sanitizer-$name.log
  compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 20 \
    $PY -m apsp_kernels sanitize-driver --sizes $SIZES "$@" >"$log" 2>&1
  local r=$? summary verdict=ok
  summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)
  if [ "$expect" = clean ]; then
    [ $r -ne 0 ] && verdict="UNEXPECTED: not clean" && rc=1
  else
    local hazards
    hazards=$(echo "$summary" | grep -oE '[0-9]+ hazard' | grep -oE '[0-9]+' || echo 0)
    if ! grep -q "n=$LAST $NOSYNC: ok" "$log"; then
      verdict="UNEXPECTED: the driver did not finish" && rc=1
    elif [ "${hazards:-0}" -eq 0 ]; then
      verdict="UNEXPECTED: no hazard reported" && rc=1
    else
      verdict="ok: the expected hazards of the kernel without __syncthreads()"
    fi
  fi
  echo "$name: exit $r, $verdict; $summary"
  [ "${verdict:0:2}" != ok ] && tail -30 "$log"
}
if [ $# -gt 0 ]; then     # only the named codes: scripts/sanitize.sh nthu_blocked nthu_multi
  run memcheck memcheck clean --only "$@" --skip $NOSYNC
  run racecheck racecheck clean --only "$@" --skip $NOSYNC
  case " $* " in *" hochberg_explore "*|*" $NOSYNC "*) run racecheck-nosync racecheck hazards --only $NOSYNC;; esac
else
  run memcheck memcheck clean
  run racecheck racecheck clean --skip $NOSYNC
  run racecheck-nosync racecheck hazards --only $NOSYNC
fi
exit $rc
