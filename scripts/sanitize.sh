#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over every GPU kernel at n = 64 and 100 (every registry
# variant: NTHU's 16 kernels among them, and its multi-GPU code on one GPU, where no NCCL runs).
# Arguments, if any, name the codes to check: scripts/sanitize.sh nthu_blocked nthu_multi
# Prints one summary line per tool; exits non-zero if either reports an error.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
rc=0
for tool in memcheck racecheck; do
  log=${OUT:-/tmp}/sanitizer-$tool.log
  compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 \
    $PY -m apsp_kernels sanitize-driver --sizes 64 100 ${1:+--algorithms "$@"} >"$log" 2>&1
  r=$?
  echo "$tool: exit $r; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
  [ $r -ne 0 ] && rc=1 && tail -30 "$log"
done
exit $rc
