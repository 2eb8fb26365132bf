#!/usr/bin/env bash
# One invocation of the IIT Kharagpur measurement (seed 001) on the device machine:
#   APSP_GIT_COMMIT=<sha> scripts/device_iitkgp.sh <batch> <stages> [graphs]
# e.g. scripts/device_iitkgp.sh 20261124-090000 bfs,sssp,coarsen as-skitter.  Results land in
# $OUT/<batch>-iitkgp/<stages>[-<graphs>]/ (results.csv, provenance.json), the progress log in $OUT/device-logs/;
# copy the batch folder into data/results/ and render notebook 10 anywhere (README: the IIT Kharagpur study).
# Real SNAP files are read from $APSP_DATA_DIR where it is set (carry the folder along).
set -euo pipefail
batch=$1 stages=$2 graphs=${3:-}
export OUT=${OUT:-/tmp/out}
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl >/dev/null 2>&1
    export PYTHONPATH=$PWD:/tmp/site
else
    export PYTHONPATH=$PWD
fi
export PYTHONUNBUFFERED=1 APSP_RESULTS_DIR=$OUT APSP_CACHE_DIR=${APSP_CACHE_DIR:-$PWD/data/cache}
mkdir -p "$OUT/device-logs"
log="$OUT/device-logs/iitkgp-$batch-${stages//,/_}${graphs:+-${graphs//,/_}}.log"
python3 scripts/iitkgp_measure.py --batch "$batch" --stages "$stages" ${graphs:+--graphs "$graphs"} 2>"$log" \
    || { tail -30 "$log"; exit 1; }
tail -3 "$log"
