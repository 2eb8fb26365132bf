#!/usr/bin/env bash
# auto's choice and its cost on one GPU (nvidia-h200 or an H100), ~4 min: every graph of the structure suite's plan
# (the hub and Barabasi-Albert graphs at 4,096 and 16,384 included), each in processes of its own, auto against the
# fastest verified code end to end, first call and warm, and a fresh process's first call (scripts/auto_first_call.py
# says how).  Results into $OUT/device-logs/<gpu>-<time>-auto/ (copy into data/results/device-logs/): the per-code
# CSV, the summary CSV, the log.  Set APSP_GIT_COMMIT to the commit the tree is, as the other device scripts do.
#   APSP_GIT_COMMIT=<sha> scripts/device_auto.sh                 # the whole plan
#   APSP_GIT_COMMIT=<sha> scripts/device_auto.sh --sizes 4096    # the small half (~1.5 min)
# The cost model reads the recorded H100 rows (data/results/benchmarks): on an H200 this checks the picks those
# rows give, against the H200's own times.  Runs under timeout(1) within the device tool's 10 minutes; the CSVs
# are rewritten after every graph, so a cut run keeps what it finished.
set -uo pipefail
: "${APSP_GIT_COMMIT:?set APSP_GIT_COMMIT to the commit this tree is}"
source "$(dirname "$0")/device_env.sh"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
dir="$OUT/device-logs/${gpu}-$(date +%Y%m%d-%H%M)-auto"
mkdir -p "$dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; echo "commit $APSP_GIT_COMMIT"; } \
    > "$dir/auto.log" 2>&1
rc=0
timeout 560 python3 scripts/auto_first_call.py --out "$dir" "$@" 2>&1 | tee -a "$dir/auto.log" || rc=$?
tail -25 "$dir/auto.log"
exit $rc
