"""The four seed questions, answered through the puzzlec package.

Run from the repository: python python/examples/seeds.py
"""

import tempfile
from pathlib import Path

import puzzlec

models = Path(__file__).resolve().parents[2] / "models"

# Queens with obstacles: 20 is the maximum on the contest board, and a certificate says so.
board = puzzlec.load(models / "obstacle-queens.toml")
answer = board.solve()
print(answer.value, answer.status, "-", answer.evidence_text)
certificate = board.prove(Path(tempfile.mkdtemp()) / "certificate")
print(puzzlec.check(certificate).conclusion)

# Eight queens: 92 solutions, 12 up to symmetry.
count = puzzlec.queens(size=8).count(unique=True)
print(int(count), "solutions,", count.classes, "classes of sizes", count.class_sizes)

# Crosses in a 13 x 19 box: 19 is the maximum.
crosses = puzzlec.load(models / "cross-13x19.toml").solve()
print(crosses.value, crosses.status, "-", crosses.evidence_text)

# The Asahi shape: exactly one way to cut it into two congruent halves.
halves = puzzlec.load(models / "halves-asahi-2005.toml")
print(halves.count(), "dissection:")
print("\n".join(next(iter(halves.solutions())).rows))
