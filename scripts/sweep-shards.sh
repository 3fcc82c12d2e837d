#!/usr/bin/env bash
# Sweeps a maximum packing over a range of boxes with each box's Russian doll shared by N
# processes, driven by GNU parallel round by round (each round: every shard's part of every
# box not yet settled, then one merge), as a Slurm job array would drive it on a cluster
# (see docs/counting.md, "One box over many machines"). Prints the sweep's table.
#
# usage: [PUZZLEC=BINARY] scripts/sweep-shards.sh MODEL N DIR SWEEP FLAGS... [--json | --csv]
#   The sweep flags (--width, --height, --split-nodes, --time-limit) go to every shard and
#   must be the same throughout; --json or --csv go to the merge that prints the table. DIR
#   keeps the run's state; run the script again to resume after a stop (a shard skips the
#   parts it has written).
set -euo pipefail
model=$1 shards=$2 dir=$3
shift 3
puzzlec=${PUZZLEC:-puzzlec}
sweep=() format=()
for flag in "$@"; do
  case $flag in
    --json | --csv) format+=("$flag") ;;
    *) sweep+=("$flag") ;;
  esac
done
while :; do
  parallel --halt now,fail=1 "$puzzlec" sweep "$model" "${sweep[@]}" --shard "{}/$shards" --state "$dir" ::: $(seq 1 "$shards")
  # 3: merged, another round to go; 0: every box settled, the table printed.
  status=0
  "$puzzlec" merge --state "$dir" "${format[@]}" || status=$?
  [ "$status" -eq 3 ] || exit "$status"
done
