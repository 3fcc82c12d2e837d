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

# Masks what legitimately varies from run to run: times, node counts (a JSON size in nodes
# too: threads share a search's subtrees differently each run), temporary paths, the
# packing search's progress notes (printed once a run has taken a second of wall time), and
# a portfolio's note on what its other member had reached (see src/driver/portfolio.rs).
normalise() {
  sed -E \
    -e 's/ \(portfolio: [^"]*//' \
    -e 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/<time>/g' \
    -e 's/"([a-z_]*seconds)": ?[0-9.e+-]+/"\1": <time>/g' \
    -e 's/[0-9]+ nodes/<n> nodes/g' \
    -e 's/"nodes": ?[0-9]+/"nodes": <n>/g' \
    -e '/"constraints": [0-9]+,$/{N;s/"constraints": [0-9]+,(\n[[:space:]]*"unit": "nodes")/"constraints": <n>,\1/;}' \
    -e 's/,[0-9]+\.[0-9]{3},"/,<time>,"/g' \
    -e "s#$work#<work>#g" \
    -e '/^packing: pieces starting at .* or later in scan order: /d'
}

n=0
run() {
  n=$((n + 1))
  local name
  name=$(printf '%03d' "$n")
  # BIN_PATH, when set, is the PATH the binary alone runs with (the normalising tools keep
  # the caller's).
  # ONE_CORE, when set, pins the run to one core: a search that shares its work over the
  # threads may then find the same packing every run.
  if [ -n "${ONE_CORE:-}" ]; then
    PATH="${BIN_PATH:-$PATH}" taskset -c 0 "$bin" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null
  else
    PATH="${BIN_PATH:-$PATH}" "$bin" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null
  fi
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

# `compare` runs every solver on PATH with a share of its time; Gecode stops at that limit
# with whatever it has found, which varies from run to run, so `compare` sees the solvers
# whose answers are proofs (the CP route is recorded by `solve --solver cp:gecode` below).
mkdir -p "$work/solvers"
for program in cadical cryptominisat5 minisat cbc glpsol; do
  found=$(command -v "$program") && ln -s "$found" "$work/solvers/$program"
done

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
  BIN_PATH="$work/solvers" run compare "$m"
  BIN_PATH="$work/solvers" run compare "$m" --json
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
# On every core the doll shares an entry over the threads after a few nodes, so which
# thread finds a packing of 19 first, and so the packing printed, varies from run to run.
ONE_CORE=1 run solve models/cross-13x19.toml --at-least 19
ONE_CORE=1 run solve models/cross-13x19.toml --at-least 19 --json
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
# Every format written, and real solvers' answers read back (the formats' readers).
for m in models/queens-8.toml models/halves-asahi-2005.toml models/pentomino-6x10.toml; do
  for f in mzn fzn; do
    run emit "$m" --format "$f"
  done
  run emit "$m" --format dimacs --incomplete
  run emit "$m" --format lp -o "$work/model.lp"
  run emit "$m" --format dimacs -o "$work/model.cnf"
  run emit "$m" --format wcnf -o "$work/model.wcnf"
  run emit "$m" --format opb -o "$work/model.opb"
  run emit "$m" --format mzn -o "$work/model.mzn"
  run emit "$m" --format fzn -o "$work/model.fzn"
  cadical -q "$work/model.cnf" >"$work/cadical.answer" 2>/dev/null
  run decode "$m" "$work/cadical.answer" --emitted "$work/model.cnf"
  run decode "$m" "$work/cadical.answer" --emitted "$work/model.cnf" --json
  run decode "$m" "$work/cadical.answer"
  minisat "$work/model.cnf" "$work/minisat.answer" >/dev/null 2>&1
  run decode "$m" "$work/minisat.answer" --emitted "$work/model.cnf"
  cbc "$work/model.lp" solve solu "$work/cbc.answer" >/dev/null 2>&1
  run decode "$m" "$work/cbc.answer" --emitted "$work/model.lp"
  glpsol --lp "$work/model.lp" -w "$work/glpk.answer" >/dev/null 2>&1
  run decode "$m" "$work/glpk.answer" --emitted "$work/model.lp"
  minizinc --solver gecode "$work/model.mzn" >"$work/mzn.answer" 2>/dev/null
  run decode "$m" "$work/mzn.answer" --emitted "$work/model.mzn"
  fzn-gecode "$work/model.fzn" >"$work/fzn.answer" 2>/dev/null
  run decode "$m" "$work/fzn.answer" --emitted "$work/model.fzn"
  # Hand-made answers: MaxSAT (a 0/1 string), PB, and broken ones.
  sed -n 's/^v //p' "$work/cadical.answer" | tr ' ' '\n' | grep -v '^0$' |
    awk 'BEGIN{printf "s OPTIMUM FOUND\nv "} {printf "%s", ($1 > 0 ? 1 : 0)} END{print ""}' >"$work/maxsat.answer"
  run decode "$m" "$work/maxsat.answer" --emitted "$work/model.wcnf"
  sed -n 's/^v //p' "$work/cadical.answer" | tr ' ' '\n' | grep -v '^0$' |
    awk 'BEGIN{printf "s SATISFIABLE\nv"} {printf " %sx%d", ($1 > 0 ? "" : "-"), ($1 > 0 ? $1 : -$1)} END{print ""}' >"$work/pb.answer"
  run decode "$m" "$work/pb.answer" --emitted "$work/model.opb"
  head -c 40 "$work/cadical.answer" >"$work/cut.answer"
  run decode "$m" "$work/cut.answer" --emitted "$work/model.cnf"
  printf 's SATISFIABLE\nv 1 2 3 0\n' >"$work/short.answer"
  run decode "$m" "$work/short.answer" --emitted "$work/model.cnf"
  printf 's UNSATISFIABLE\n' >"$work/unsat.answer"
  run decode "$m" "$work/unsat.answer" --emitted "$work/model.cnf"
  printf 'hello\n' >"$work/junk.answer"
  run decode "$m" "$work/junk.answer"
  run solve "$m" --solver cp:gecode
  run solve "$m" --solver cp:gecode --json
  run solve "$m" --backend milp --solver cbc --json
done
run decode models/queens-8.toml "$work/cadical.answer" --emitted "$work/model.cnf"
# Packings: a table certificate, sweeps and their shards, merged.
printf 'kind = "packing"\nwidth = 8\nheight = 9\ngoal = "maximise"\n\n[[piece]]\nname = "plus"\nshape = """\n.#.\n###\n.#.\n"""\n' >"$work/plus.toml"
run solve "$work/plus.toml"
run solve "$work/plus.toml" --json
rm -rf "$work/cert"
run prove "$work/plus.toml" -o "$work/cert"
run check "$work/cert"
run check "$work/cert" --json
run check "$work/cert" --shard 1/2
rm -rf "$work/cert"
run prove "$work/plus.toml" -o "$work/cert" --shard 2/3 --json
run sweep models/cross-13x19.toml --width 5..=9 --height 5..=8
run sweep models/cross-13x19.toml --width 5..=9 --height 5..=8 --json
run sweep models/cross-13x19.toml --width 5..=9 --height 5..=8 --csv
"$bin" sweep models/cross-13x19.toml --width 5..=9 --height 5..=8 --shard 1/2 --json >"$work/s1.json" 2>/dev/null
"$bin" sweep models/cross-13x19.toml --width 5..=9 --height 5..=8 --shard 2/2 --json >"$work/s2.json" 2>/dev/null
run merge "$work/s1.json" "$work/s2.json"
run merge "$work/s1.json" "$work/s2.json" --json
run merge "$work/s1.json"
run merge "$work/s1.json" "$work/s1.json"
run merge "$work/s1.json" "$work/p1.json"
run merge "$work/p1.json"
run merge "$work/p1.json" "$work/p1.json"
run explain models/halves-impossible.toml
run explain models/obstacle-queens.toml --json
run solve models/pentomino-6x10.toml --count --shard 3/4 --json
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
for c in emit compare prove check merge decode sweep models explain; do
  run "$c" --help
done
run solve models/queens-8.toml --time-limit abc
run solve models/queens-8.toml --max-memory 12Q
run solve models/queens-8.toml --shard 3/2 --count
run emit models/queens-8.toml --format nonsense
run decode models/queens-8.toml "$work/no-such-answer"
echo "$n commands recorded in $out"
