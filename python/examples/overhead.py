"""The Python package's overhead over the Rust library on the same three calls.

Runs `examples/library_timing.rs` (built with the `wheel` profile, the package's) and the
same calls through `puzzlec` in turn, and prints the median wall and CPU time of each:

    cargo build --profile wheel --example library_timing
    python python/examples/overhead.py target/wheel/examples/library_timing [ROUNDS BLOCKS]

CPU time (the process's, every thread's) is what the Python layer adds; wall time also moves
with whatever else the machine runs.
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
rust = sys.argv[1]
rounds, blocks = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (3, 4)
crosses = puzzlec.load(models / "cross-13x19.toml")
queens = puzzlec.queens(size=12)
board = puzzlec.load(models / "obstacle-queens.toml")
times = {"rust": defaultdict(list), "python": defaultdict(list)}


def timed(name, call):
    """Runs `call` and notes its wall and CPU seconds under `name`."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    times["python"][name].append((time.perf_counter() - wall, time.process_time() - cpu))


# Blocks of `rounds` runs, Rust and Python in turn, so that both see the same machine.
for block in range(blocks):
    run = subprocess.run([rust, str(rounds)], check=True, capture_output=True, text=True)
    for line in run.stdout.splitlines():
        name, wall, cpu = line.split()
        times["rust"][name].append((float(wall), float(cpu)))
    scratch = Path(tempfile.mkdtemp())
    for round in range(rounds):
        timed("crosses-13x19-solve", lambda: crosses.solve("native"))
        timed("queens-12-count", lambda: queens.count())
        timed("contest-board-prove", lambda: board.prove(scratch / f"cert-{block}-{round}"))

print(f"{'call':<20} {'rust wall':>10} {'python':>8} {'':>7} {'rust cpu':>9} {'python':>8} {'':>7}")
for name, rust_times in times["rust"].items():
    row = [name.ljust(20)]
    for k in (0, 1):
        r = statistics.median(t[k] for t in rust_times)
        p = statistics.median(t[k] for t in times["python"][name])
        row.append(f"{r:>9.4f}s {p:>7.4f}s {100 * (p - r) / r:>+6.1f}%")
    print(" ".join(row), f" {len(rust_times)} runs")
