#!/usr/bin/env bash
# One process of a reference campaign on the device machine.  A reference run puts each of its
# processes on its own machine lease (hand the machine back between them), so that its intervals
# see how much the machine moves between leases, not only within one:
#   APSP_GIT_COMMIT=<sha> scripts/device_campaign.sh <batch> <process> [profile]
# and, in the same lease as main process i (0-4), its 4 satellites (paper: processes 5-24) as a second command:
#   APSP_GIT_COMMIT=<sha> scripts/device_campaign.sh <batch> $((5+4*i)),$((6+4*i)),$((7+4*i)),$((8+4*i))
# Records and the log come back packed as $OUT/<batch>-<profile>-campaign-<process>.tgz; unpack it into data/results/ and
# render anywhere with ./run_all.sh --profile <profile> --stage render --batch <batch>.
set -euo pipefail
batch=$1 index=$2 profile=${3:-paper}
source "$(dirname "$0")/device_env.sh"
python3 -m apsp_kernels.study measure kemp --profile "$profile" --batch "$batch" --processes "$index" \
    > "$OUT/device-logs/$profile-campaign-$batch-${index//,/_}.log" 2>&1 || { tail -20 "$OUT/device-logs/$profile-campaign-$batch-${index//,/_}.log"; exit 1; }
tail -2 "$OUT/device-logs/$profile-campaign-$batch-${index//,/_}.log"
# one archive per command: the device tool brings back only a few files a command (4 satellites write 9)
(cd "$OUT" && tar czf "$batch-$profile-campaign-${index//,/_}.tgz" "$batch-$profile-campaign" device-logs \
    && rm -rf "$batch-$profile-campaign" device-logs)
