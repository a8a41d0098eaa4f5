#!/usr/bin/env python3
"""A peer for classic Kakuro: the textbook CP-SAT model (OR-Tools), for side-by-side times.

One integer 1..9 per white cell, AllDifferent over every run, and each clued run's sum equal
to its clue; solved, then solved again with that solution excluded (the uniqueness check
`puzzle-sat solve kakuro --unique` makes). Reads puzzle-sat's kakuro files (janko.at's form).
Prints, per file, the CPU seconds of model building and of both solves, and the verdict.

    pip install ortools
    python3 kakuro_cpsat.py FILE...
"""
import sys
import time

from ortools.sat.python import cp_model


def solve(path):
    lines = [line.split() for line in open(path) if line.strip()]
    if len(lines[0]) == 2 and all(w.isdigit() for w in lines[0]) and lines[0] != ["0", "0"]:
        lines = lines[1:]
    rows, cols = len(lines), len(lines[0])
    start = time.process_time()
    m = cp_model.CpModel()
    white = lambda r, c: lines[r][c] in ("0", ".")
    x = {(r, c): m.NewIntVar(1, 9, "") for r in range(rows) for c in range(cols) if white(r, c)}
    for across in (True, False):
        for r in range(rows):
            for c in range(cols):
                before = (r, c - 1) if across else (r - 1, c)
                if not white(r, c) or (min(before) >= 0 and white(*before)):
                    continue
                run = []
                k = (r, c)
                while k[0] < rows and k[1] < cols and white(*k):
                    run.append(x[k])
                    k = (k[0], k[1] + 1) if across else (k[0] + 1, k[1])
                m.AddAllDifferent(run)
                if min(before) >= 0:
                    word = lines[before[0]][before[1]].replace("\\", ",")
                    side = word.split(",")[1 if across else 0] if "," in word else ""
                    if side and int(side) > 0:
                        m.Add(sum(run) == int(side))
    built = time.process_time() - start
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    verdict = "no solution"
    if s.Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        diff = []
        for k, v in x.items():
            b = m.NewBoolVar("")
            m.Add(v != s.Value(v)).OnlyEnforceIf(b)
            diff.append(b)
        m.AddBoolOr(diff)
        verdict = "unique" if s.Solve(m) == cp_model.INFEASIBLE else "not unique"
    return built, time.process_time() - start, verdict


for path in sys.argv[1:]:
    built, total, verdict = solve(path)
    print(f"{path}\t{built:.3f}\t{total:.3f}\t{verdict}")
