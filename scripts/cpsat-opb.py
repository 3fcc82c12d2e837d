#!/usr/bin/env python3
"""Solves an OPB file (as `puzzlec emit --format opb` writes it) with OR-Tools CP-SAT, the
plain way a user comparing puzzlec against CP-SAT would: every row a linear constraint,
the objective minimised, no search hints. Prints the optimum (or the best and the bound when
the time limit stops it) and the wall time of the solve.

usage: scripts/cpsat-opb.py FILE.opb [WORKERS] [SECONDS]
"""
import re
import sys
import time

from ortools.sat.python import cp_model

TERM = re.compile(r"([+-]?\d+)\s+(~?)x(\d+)")


def main():
    path = sys.argv[1]
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0
    model = cp_model.CpModel()
    variables = {}

    def literal(negated, index):
        if index not in variables:
            variables[index] = model.new_bool_var(f"x{index}")
        var = variables[index]
        return (1 - var) if negated else var

    objective = None
    with open(path) as opb:
        for line in opb:
            line = line.strip()
            if not line or line.startswith("*"):
                continue
            line = line.rstrip(";").strip()
            if line.startswith("min:"):
                objective = sum(int(c) * literal(n, int(i)) for c, n, i in TERM.findall(line[4:]))
                continue
            for relation in (">=", "<=", "="):
                if relation in line:
                    left, right = line.split(relation)
                    expr = sum(int(c) * literal(n, int(i)) for c, n, i in TERM.findall(left))
                    bound = int(right)
                    if relation == ">=":
                        model.add(expr >= bound)
                    elif relation == "<=":
                        model.add(expr <= bound)
                    else:
                        model.add(expr == bound)
                    break
    if objective is not None:
        model.minimize(objective)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = seconds
    start = time.monotonic()
    status = solver.solve(model)
    wall = time.monotonic() - start
    name = solver.status_name(status)
    print(f"{name} objective {-solver.objective_value:.0f} bound {-solver.best_objective_bound:.0f} "
          f"in {wall:.2f} s ({workers} workers)")


if __name__ == "__main__":
    main()
