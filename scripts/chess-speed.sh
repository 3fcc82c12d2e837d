#!/usr/bin/env bash
# Chess domination and independence of empty n x n boards, whole process: puzzlec's default
# `solve` for each n, and OR-Tools CP-SAT (2 workers) beside it on a direct model
# (scripts/cpsat-chess.py) and on the OPB file puzzlec emits (scripts/cpsat-opb.py), in the
# same run. Prints one line per run: what, n, the answer and the wall time.
#
# usage: scripts/chess-speed.sh [LIMIT_SECONDS]   (default 60: each run's time limit; the
#        last rows need 600, the 15 x 15 count more: see docs/speed.md)
# Needs: a release build (built here), python3 with ortools for the CP-SAT rows.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-60}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/puzzlec
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

model() { # piece goal n -> path of a model file
  local file="$tmp/$1-$2-$3.toml"
  printf 'kind = "chess"\npiece = "%s"\ngoal = "%s"\nsize = %s\n' "$1" "$2" "$3" >"$file"
  echo "$file"
}

puzzlec_row() { # piece goal n: the wall time and the summary line of `solve`
  local file start end
  file=$(model "$1" "$2" "$3")
  start=$(date +%s.%N)
  "$bin" solve "$file" --time-limit "$limit" >/dev/null 2>"$tmp/stderr" || true
  end=$(date +%s.%N)
  printf '%s %s %s: %.3f s: %s\n' "$1" "$2" "$3" "$(echo "$end - $start" | bc)" \
    "$(tail -1 "$tmp/stderr")"
}

count_row() { # piece goal n [--unique]: the wall time and the counts of `solve --count`
  local file start end
  file=$(model "$1" "$2" "$3")
  start=$(date +%s.%N)
  "$bin" solve "$file" --count ${4:-} --time-limit "$limit" >"$tmp/stdout" 2>"$tmp/stderr" || true
  end=$(date +%s.%N)
  printf '%s %s %s: count %s: %.3f s: %s\n' "$1" "$2" "$3" "${4:-all}" \
    "$(echo "$end - $start" | bc)" "$(tr '\n' ' ' <"$tmp/stdout")"
}

cpsat_rows() { # piece goal n
  local file
  file=$(model "$1" "$2" "$3")
  printf '%s %s %s: CP-SAT direct: %s\n' "$1" "$2" "$3" \
    "$(python3 scripts/cpsat-chess.py "$1" "$2" "$3" 2 "$limit")"
  "$bin" emit "$file" --format opb -o "$tmp/m.opb"
  # The OPB file minimises the pieces: the script prints minus its objective.
  printf '%s %s %s: CP-SAT on the OPB: %s\n' "$1" "$2" "$3" \
    "$(python3 scripts/cpsat-opb.py "$tmp/m.opb" 2 "$limit")"
}

for n in $(seq 4 14); do puzzlec_row queen dominate "$n"; done
for n in $(seq 4 14); do puzzlec_row queen independent-dominate "$n"; done
for n in $(seq 4 12); do puzzlec_row knight dominate "$n"; done
for piece in king rook bishop; do
  for n in 8 12 16 20; do puzzlec_row "$piece" dominate "$n"; done
done
for n in 9 13 21; do puzzlec_row bishop dominate "$n"; done
# Minimum queen dominating sets, by classes (the search with the symmetries) and without.
for n in $(seq 4 13); do count_row queen dominate "$n" --unique; done
for n in $(seq 4 13); do count_row queen dominate "$n"; done
# The long rows: give a limit of 600 or more (scripts/chess-speed.sh 3600 for the counts).
for n in 15 16; do puzzlec_row queen dominate "$n"; done
for n in 15 16; do puzzlec_row queen independent-dominate "$n"; done
for n in 13 14; do puzzlec_row knight dominate "$n"; done
for n in 14 15; do count_row queen dominate "$n" --unique; done
for n in 14 15; do count_row queen dominate "$n"; done
if python3 -c 'import ortools' 2>/dev/null; then
  for n in 8 10 11; do cpsat_rows queen dominate "$n"; done
  cpsat_rows knight dominate 8
else
  echo "CP-SAT rows skipped: python3 cannot import ortools (pip install ortools)"
fi
