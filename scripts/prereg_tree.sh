#!/usr/bin/env bash
# The tree a pre-registered batch is measured from: the commit that added its plan, exported into .prereg/ (ignored;
# name it in the device call's carry), so that no later commit's code measures the batch.  Recorded results stay
# behind (the measurement writes new ones; the tree must fit the device's 64 MiB with the working tree beside it).
#   scripts/prereg_tree.sh data/preregistration/<batch>.yaml
# then on the device: cd .prereg && export APSP_GIT_COMMIT=$(cat PLAN_COMMIT) APSP_PREREGISTRATION=<the plan> ...
set -euo pipefail
cd "$(dirname "$0")/.."
plan=${1:?usage: scripts/prereg_tree.sh data/preregistration/<batch>.yaml}
commit=$(git log --diff-filter=A --format=%H -1 -- "$plan")
[ -n "$commit" ] || { echo "prereg_tree: $plan is not committed: commit the plan before measuring" >&2; exit 1; }
rm -rf .prereg && mkdir .prereg
git archive "$commit" -- . ':!data/results' | tar -x -C .prereg
echo "$commit" > .prereg/PLAN_COMMIT
echo "exported $commit into .prereg/ ($(du -sh .prereg | cut -f1)); carry .prereg"
