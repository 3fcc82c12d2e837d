#!/usr/bin/env bash
# Records what the puzzlec command line does on the shipped models: stdout, exit code and
# (normalised) stderr of a fixed list of commands, one file per command, in OUT_DIR.
# Two snapshots, from two builds, compared with `diff -r`, show whether a change kept the
# command line's behaviour. Timings and search-node counts are masked; everything else must
# match byte for byte.
#
# usage: scripts/cli-snapshot.sh PUZZLEC_BINARY OUT_DIR
set -u
bin=$(realpath "$1")
out=$2
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Masks what legitimately varies from run to run: times, node counts, temporary paths.
normalise() {
  sed -E \
    -e 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/<time>/g' \
    -e 's/"([a-z_]*seconds)": ?[0-9.e+-]+/"\1": <time>/g' \
    -e 's/[0-9]+ nodes/<n> nodes/g' \
    -e 's/"nodes": ?[0-9]+/"nodes": <n>/g' \
    -e "s#$work#<work>#g"
}

n=0
run() {
  n=$((n + 1))
  local name
  name=$(printf '%03d' "$n")
  "$bin" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null
  local code=$?
  {
    echo "\$ puzzlec $*" | normalise
    echo "exit $code"
    echo "--- stdout"
    normalise <"$work/stdout"
    echo "--- stderr"
    normalise <"$work/stderr"
  } >"$out/$name.txt"
}

quick=(models/obstacle-queens.toml models/queens-8.toml models/halves-asahi-2005.toml models/halves-impossible.toml)
for m in "${quick[@]}"; do
  run solve "$m"
  run solve "$m" --json
  for b in sat milp native; do
    run solve "$m" --backend "$b"
    run solve "$m" --backend "$b" --json
  done
  run solve "$m" --at-least 5
  run explain "$m"
  for f in dimacs lp wcnf opb; do
    run emit "$m" --format "$f"
  done
  run emit "$m" --format dimacs --at-least 5
  run compare "$m"
  run compare "$m" --json
  run solve "$m" --count
  run solve "$m" --count --json
  run solve "$m" --all
  run solve "$m" --count --backend sat
  rm -rf "$work/cert"
  run prove "$m" -o "$work/cert"
  run check "$work/cert"
  run check "$work/cert" --json
  rm -rf "$work/cert"
  run prove "$m" -o "$work/cert" --json
  run solve "$m" --svg "$work/pic.svg"
  cp "$work/pic.svg" "$out/$(printf '%03d' "$n").svg" 2>/dev/null
done
run solve models/queens-8.toml --count --unique
run solve models/queens-8.toml --count --unique --json
run solve models/queens-8.toml --all --unique
run solve models/obstacle-queens.toml --count --unique
run solve models/obstacle-queens.toml --count --shard 2/3 --json
run solve models/queens-8.toml --count --shard 1/2 --json
"$bin" solve models/queens-8.toml --count --shard 1/2 --json >"$work/p1.json" 2>/dev/null
"$bin" solve models/queens-8.toml --count --shard 2/2 --json >"$work/p2.json" 2>/dev/null
run merge "$work/p1.json" "$work/p2.json"
run merge "$work/p1.json" "$work/p2.json" --json
run solve models/pentomino-6x10.toml
run solve models/pentomino-6x10.toml --json
run solve models/pentomino-6x10.toml --count
run explain models/pentomino-6x10.toml
run solve models/cross-13x19.toml --at-least 19
run solve models/cross-13x19.toml --at-least 19 --json
run explain models/cross-13x19.toml
run models
run models --color always
for s in cadical minisat cryptominisat5; do
  run solve models/obstacle-queens.toml --solver "$s"
  run solve models/halves-asahi-2005.toml --solver "$s" --json
done
for s in cbc glpsol; do
  run solve models/obstacle-queens.toml --backend milp --solver "$s"
  run solve models/queens-8.toml --backend milp --solver "$s" --json
done
# Bad input and usage errors.
printf 'kind = "queens"\nsize = 0\n' >"$work/bad1.toml"
printf 'kind = "queens"\nboard = """\n--*\n-x-\n"""\n' >"$work/bad2.toml"
printf 'kind = "nonsense"\n' >"$work/bad3.toml"
printf 'this is not toml\n' >"$work/bad4.toml"
for f in bad1 bad2 bad3 bad4; do
  run solve "$work/$f.toml"
  run emit "$work/$f.toml" --format dimacs
done
run solve models/does-not-exist.toml
run solve models/cross-13x19.toml --count
run solve models/halves-asahi-2005.toml --unique
run solve models/queens-8.toml --count --backend milp
run solve models/halves-asahi-2005.toml --count --shard 1/2
run solve models/queens-8.toml --solver mysat
run solve models/queens-8.toml --shard 0/2 --count
run merge "$work/bad1.toml"
run check "$work/no-such-dir"
run --version
run solve --help
echo "$n commands recorded in $out"
