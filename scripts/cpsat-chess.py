#!/usr/bin/env python3
"""Solves chess domination or independence of an empty n x n board with OR-Tools CP-SAT on
a direct model, the way a CP-SAT user would write it: a boolean per square, a clause per
square saying some piece guards it (dominate), no two attacking pieces (independent), the
number of pieces minimised (or maximised). Prints the status, the objective, the bound and
the wall time of the solve, for the side-by-side table in docs/speed.md.

usage: scripts/cpsat-chess.py PIECE GOAL N [WORKERS] [SECONDS]
  PIECE: queen, rook, bishop, knight, king; GOAL: independent, dominate, independent-dominate
"""
import sys
import time

from ortools.sat.python import cp_model

STEPS = {
    "queen": ([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)], True),
    "rook": ([(1, 0), (-1, 0), (0, 1), (0, -1)], True),
    "bishop": ([(1, 1), (-1, -1), (1, -1), (-1, 1)], True),
    "knight": ([(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)], False),
    "king": ([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)], False),
}


def attacks(piece, n, x, y):
    steps, slides = STEPS[piece]
    seen = []
    for dx, dy in steps:
        cx, cy = x + dx, y + dy
        while 0 <= cx < n and 0 <= cy < n:
            seen.append((cx, cy))
            if not slides:
                break
            cx, cy = cx + dx, cy + dy
    return seen


def main():
    piece, goal, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    workers = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 120.0
    model = cp_model.CpModel()
    square = {(x, y): model.new_bool_var(f"p{x}_{y}") for y in range(n) for x in range(n)}
    for (x, y), var in square.items():
        seen = attacks(piece, n, x, y)
        if goal in ("dominate", "independent-dominate"):
            model.add_bool_or([var] + [square[s] for s in seen])
        if goal in ("independent", "independent-dominate"):
            for s in seen:
                if s > (x, y):
                    model.add_bool_or([var.Not(), square[s].Not()])
    total = sum(square.values())
    if goal == "independent":
        model.maximize(total)
    else:
        model.minimize(total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = seconds
    start = time.monotonic()
    status = solver.solve(model)
    wall = time.monotonic() - start
    print(f"{solver.status_name(status)} objective {solver.objective_value:.0f} "
          f"bound {solver.best_objective_bound:.0f} in {wall:.2f} s ({workers} workers)")


if __name__ == "__main__":
    main()
