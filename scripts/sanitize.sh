#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over every GPU kernel at n = 64 and 100: the APSP codes on
# Kemp's graphs, then seed 001's BFS and SSSP kernels (every variant, the racy original SSSP included)
# from three sources of a power-law graph (apsp_kernels/__main__.py, sanitize-driver).  racecheck sees
# shared memory only: the published race on U_a (global memory) is not one it reports.
# Prints one summary line per tool; exits non-zero if either reports an error.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
rc=0
for tool in memcheck racecheck; do
  log=${OUT:-/tmp}/sanitizer-$tool.log
  compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 \
    $PY -m apsp_kernels sanitize-driver --sizes 64 100 >"$log" 2>&1
  r=$?
  echo "$tool: exit $r; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
  [ $r -ne 0 ] && rc=1 && tail -30 "$log"
done
exit $rc
