#!/usr/bin/env python3
"""A peer for classic sudoku: the textbook CP-SAT model (OR-Tools), for side-by-side times.

One integer 1..N per cell, AllDifferent over every row, column and box, the givens fixed;
solved, then solved again with that solution excluded (the uniqueness check `puzzle-sat solve
sudoku --unique` makes). Reads puzzle-sat's sudoku files (spaced rows). Prints, per file, the
CPU seconds of model building and of both solves, and the verdict.

    pip install ortools
    python3 sudoku_cpsat.py FILE...
"""
import sys
import time

from ortools.sat.python import cp_model


def box_shape(n):
    h = max(d for d in range(2, n + 1) if n % d == 0 and d * d <= n)
    return h, n // h


def solve(path):
    rows = [line.split() if len(line.split()) > 1 else list(line.strip()) for line in open(path) if line.strip()]
    n = len(rows)
    h, w = box_shape(n)
    start = time.process_time()
    m = cp_model.CpModel()
    x = [[m.NewIntVar(1, n, "") for _ in range(n)] for _ in range(n)]
    for r in range(n):
        for c in range(n):
            if rows[r][c] not in (".", "0", "-", "_"):
                m.Add(x[r][c] == int(rows[r][c]))
    for i in range(n):
        m.AddAllDifferent(x[i])
        m.AddAllDifferent([x[r][i] for r in range(n)])
    for br in range(0, n, h):
        for bc in range(0, n, w):
            m.AddAllDifferent([x[br + k // w][bc + k % w] for k in range(n)])
    built = time.process_time() - start
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    verdict = "no solution"
    if s.Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # Excluded: some cell differs from the solution found.
        diff = []
        for r in range(n):
            for c in range(n):
                b = m.NewBoolVar("")
                m.Add(x[r][c] != s.Value(x[r][c])).OnlyEnforceIf(b)
                diff.append(b)
        m.AddBoolOr(diff)
        verdict = "unique" if s.Solve(m) == cp_model.INFEASIBLE else "not unique"
    return built, time.process_time() - start, verdict


for path in sys.argv[1:]:
    built, total, verdict = solve(path)
    print(f"{path}\t{built:.3f}\t{total:.3f}\t{verdict}")
