#!/usr/bin/env bash
# Whole-process times of `puzzlec solve` on cross boxes against ../shared/refs/cross_doll.c
# (the plain Russian doll in C), in one run so that the ratios are comparable on a shared
# machine. Usage: scripts/cross-speed.sh [--slow]   (--slow also gives cross_doll.c 5
# minutes on 15 x 16 and 16 x 16, which it does not finish).
set -euo pipefail
cd "$(dirname "$0")/.."

slow=false
[[ "${1:-}" == "--slow" ]] && slow=true

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O3 -march=native -o "$work/cross_doll" ../shared/refs/cross_doll.c
cargo build --release --quiet
puzzlec=target/release/puzzlec

# The shipped model with its box changed.
model() {
    sed -e "s/^width = .*/width = $1/" -e "s/^height = .*/height = $2/" \
        models/cross-13x19.toml >"$work/cross-$1x$2.toml"
    echo "$work/cross-$1x$2.toml"
}

seconds() { /usr/bin/time -f "%e s wall, %U s user" "$@" 2>&1 >/dev/null | tail -1; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for box in "13 15" "14 14" "13 19"; do
    set -- $box
    m=$(model "$1" "$2")
    hyperfine --style basic --runs 3 --export-markdown "$work/h.md" \
        -n "puzzlec $1x$2" "$puzzlec solve $m" \
        -n "cross_doll $1x$2" "$work/cross_doll $1 $2" >/dev/null
    tail -2 "$work/h.md"
done
for box in "15 15" "15 16" "16 16"; do
    set -- $box
    m=$(model "$1" "$2")
    echo "puzzlec $1x$2: $(seconds "$puzzlec" solve "$m")"
    if [[ "$1x$2" == "15x15" ]] || $slow; then
        echo "cross_doll $1x$2: $(seconds timeout 300 "$work/cross_doll" "$1" "$2")"
    fi
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
