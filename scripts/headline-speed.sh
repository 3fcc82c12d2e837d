#!/usr/bin/env bash
# The README's headline timings, whole process, each beside its baseline in the same run:
# N-queens counts against ../shared/refs/nqueens.c (and NQueensFAF's CPU solver where it is
# built), 13 x 19 crosses against ../shared/refs/cross_doll.c, 16 x 16 crosses, and the
# 13 x 19 certificate. Prints Markdown rows for docs/speed.md; run it with nothing else
# running. Needs gcc, hyperfine and jq (Debian packages).
#
# usage: scripts/headline-speed.sh [NQUEENSFAF_CLASSES]
#   NQUEENSFAF_CLASSES: the folder ../shared/refs/nqueensfaf/build.sh wrote (optional)
set -euo pipefail
cd "$(dirname "$0")/.."
faf=${1:-}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O3 -march=native -o "$work/nqueens" ../shared/refs/nqueens.c
gcc -O3 -march=native -o "$work/cross_doll" ../shared/refs/cross_doll.c
cargo build --release --quiet
puzzlec=$PWD/target/release/puzzlec

for n in 16 17; do
    printf 'kind = "queens"\nsize = %d\n' "$n" >"$work/q$n.toml"
done
sed -e 's/^width = .*/width = 16/' -e 's/^height = .*/height = 16/' \
    models/cross-13x19.toml >"$work/cross-16x16.toml"

# The mean of one hyperfine command, in seconds.
mean() { jq -r ".results[$1].mean" "$work/h.json"; }
# `hyperfine` over the named commands, its results in $work/h.json.
time_them() {
    local runs=$1
    shift
    hyperfine --style none --warmup 1 --runs "$runs" --export-json "$work/h.json" "$@" >/dev/null
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b / a }'; }
secs() { awk -v s="$1" 'BEGIN { printf (s < 1 ? "%.3f s" : "%.2f s"), s }'; }

machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "date $(date -u +%F), $machine, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| what | puzzlec | baseline, same run |"
echo "|---|---|---|"

time_them 5 "$puzzlec solve $work/q16.toml --count" "$work/nqueens 16"
p=$(mean 0) b=$(mean 1)
echo "| count N = 16 queens, whole process | $(secs "$p") | \`nqueens.c 16\`: $(secs "$b") ($(ratio "$p" "$b")x) |"

if [ -n "$faf" ]; then
    time_them 3 "$puzzlec solve $work/q17.toml --count" "java -cp $faf Bench 17 2"
    p=$(mean 0) b=$(mean 1)
    echo "| count N = 17 queens, whole process, 2 threads | $(secs "$p") | NQueensFAF, 2 threads: $(secs "$b") ($(ratio "$p" "$b")x) |"
fi

time_them 10 "$puzzlec solve models/cross-13x19.toml" "$work/cross_doll 13 19"
p=$(mean 0) b=$(mean 1)
echo "| 13 x 19 crosses, prove 19 optimal, whole process | $(secs "$p") | \`cross_doll 13 19\`: $(secs "$b") ($(ratio "$p" "$b")x) |"

time_them 3 "$puzzlec solve $work/cross-16x16.toml"
echo "| 16 x 16 crosses, prove 20 optimal, whole process | $(secs "$(mean 0)") | |"

time_them 3 --prepare "rm -rf $work/cert" \
    "$puzzlec prove models/cross-13x19.toml -o $work/cert && $puzzlec check $work/cert"
echo "| 13 x 19 crosses, certify 19: \`prove\` + \`check\` (both checkers) | $(secs "$(mean 0)") | |"
