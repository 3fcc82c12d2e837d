"""The Python package's overhead over the Rust library on the same three calls.

Runs `examples/library_timing.rs` (built with the `wheel` profile, the package's) and the
same calls through `puzzlec`, alternately, and prints the median of each:

    cargo build --profile wheel --example library_timing
    python python/examples/overhead.py target/wheel/examples/library_timing [ROUNDS]
"""

import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import puzzlec

models = Path(__file__).resolve().parents[2] / "models"
rust, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5
crosses = puzzlec.load(models / "cross-13x19.toml")
queens = puzzlec.queens(size=12)
board = puzzlec.load(models / "obstacle-queens.toml")
times = {"rust": defaultdict(list), "python": defaultdict(list)}

for block in range(2):
    for line in subprocess.run([rust, str(rounds)], check=True, capture_output=True, text=True).stdout.split("\n"):
        if line:
            name, seconds = line.split()
            times["rust"][name].append(float(seconds))
    scratch = Path(tempfile.mkdtemp())
    for round in range(rounds):
        start = time.perf_counter()
        assert crosses.solve().value == 19
        times["python"]["crosses-13x19-solve"].append(time.perf_counter() - start)
        start = time.perf_counter()
        assert queens.count() == 14200
        times["python"]["queens-12-count"].append(time.perf_counter() - start)
        start = time.perf_counter()
        board.prove(scratch / f"certificate-{block}-{round}")
        times["python"]["contest-board-prove"].append(time.perf_counter() - start)

print(f"{'call':<22} {'rust median':>12} {'python median':>14} {'overhead':>9}  runs")
for name, rust_times in times["rust"].items():
    r, p = statistics.median(rust_times), statistics.median(times["python"][name])
    print(f"{name:<22} {r:>11.4f}s {p:>13.4f}s {100 * (p - r) / r:>+8.1f}%  {len(rust_times)}")
