#!/usr/bin/env bash
# Solves one box's maximum packing with its Russian doll shared by N processes, driven by
# GNU parallel round by round (each round: every shard, then one merge), as a Slurm job
# array would drive it on a cluster (see docs/commands.md, "One box over many machines").
#
# usage: [PUZZLEC=BINARY] scripts/doll-shards.sh MODEL N DIR [SOLVE FLAGS...]
#   DIR keeps the run's state; run the script again to resume after a stop. The flags (for
#   example --split-nodes 100000) go to every shard and must be the same throughout.
set -euo pipefail
model=$1 shards=$2 dir=$3
shift 3
puzzlec=${PUZZLEC:-puzzlec}
until [ -e "$dir/answer.json" ]; do
  # Shards that have written their part of this round are not run again.
  todo=()
  for i in $(seq 1 "$shards"); do
    [ -e "$dir/shard-$i-of-$shards.json" ] || todo+=("$i")
  done
  if [ "${#todo[@]}" -gt 0 ]; then
    parallel --halt now,fail=1 "$puzzlec" solve "$model" --shard "{}/$shards" --state "$dir" "$@" ::: "${todo[@]}"
  fi
  # 3: merged, another round to go; 0: solved.
  status=0
  "$puzzlec" merge --state "$dir" || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 3 ] || exit "$status"
done
