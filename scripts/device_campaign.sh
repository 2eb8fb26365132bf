#!/usr/bin/env bash
# One process of a reference campaign on the device machine.  A reference run puts each of its
# processes on its own machine lease (hand the machine back between them), so that its intervals
# see how much the machine moves between leases, not only within one:
#   APSP_GIT_COMMIT=<sha> scripts/device_campaign.sh <batch> <process> [profile]
# Records and the log land in $OUT/<batch>-<profile>-campaign; copy them into data/results/ and
# render anywhere with ./run_all.sh --profile <profile> --stage render --batch <batch>.
set -euo pipefail
batch=$1 index=$2 profile=${3:-paper}
source "$(dirname "$0")/device_env.sh"
python3 -m apsp_kernels.runner --profile "$profile" --stage measure --batch "$batch" --processes "$index" \
    > "$OUT/device-logs/$profile-campaign-$batch-$index.log" 2>&1 || { tail -20 "$OUT/device-logs/$profile-campaign-$batch-$index.log"; exit 1; }
tail -2 "$OUT/device-logs/$profile-campaign-$batch-$index.log"
