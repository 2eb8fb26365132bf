#!/usr/bin/env bash
# One independent process of the Hochberg study (seed 002) on the device machine.  The study takes
# >= 3 of them, each a fresh process on its own machine lease (hand the machine back between them; an
# interval is over leases: docs/method.md):
#   APSP_GIT_COMMIT=<sha> scripts/device_hochberg.sh <batch> <process> [stages]
# e.g. scripts/device_hochberg.sh 20261124-090000 1 (stages: data/sweeps/hochberg.yaml's, all by default;
# about 3 minutes on the H100).  Results land in $OUT/<batch>-hochberg/p<process>/ (results.csv,
# provenance.json), the progress log in $OUT/device-logs/; copy the batch folder into data/results/ (merging
# the p<K>/ folders of the leases) and render notebook 08 anywhere (README: Hochberg's study).
set -euo pipefail
batch=$1 process=$2 stages=${3:-}
source "$(dirname "$0")/device_env.sh"
log="$OUT/device-logs/hochberg-$batch-p$process${stages:+-${stages//,/_}}.log"
python3 -m apsp_kernels.study measure hochberg --batch "$batch" --process "$process" --strict ${stages:+--stages "$stages"} \
    >"$log" 2>&1 || { tail -30 "$log"; exit 1; }
tail -25 "$log"
