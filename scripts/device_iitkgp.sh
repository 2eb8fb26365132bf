#!/usr/bin/env bash
# One invocation of the IIT Kharagpur measurement (seed 001) on the device machine:
#   APSP_GIT_COMMIT=<sha> scripts/device_iitkgp.sh <batch> <stages> [graphs]
# e.g. scripts/device_iitkgp.sh 20261124-090000 bfs,sssp,coarsen as-skitter.  Results land in
# $OUT/<batch>-iitkgp/<stages>[-<graphs>]/ (results.csv, provenance.json), the progress log in $OUT/device-logs/;
# copy the batch folder into data/results/ and render notebook 10 anywhere (README: the IIT Kharagpur study).
# Real SNAP files are read from $APSP_DATA_DIR where it is set (carry the folder along).
set -euo pipefail
batch=$1 stages=$2 graphs=${3:-}
source "$(dirname "$0")/device_env.sh"
log="$OUT/device-logs/iitkgp-$batch-${stages//,/_}${graphs:+-${graphs//,/_}}.log"
python3 -m apsp_kernels.study measure iitkgp --batch "$batch" --stages "$stages" ${graphs:+--graphs "$graphs"} 2>"$log" \
    || { tail -30 "$log"; exit 1; }
tail -3 "$log"
