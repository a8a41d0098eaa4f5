#!/usr/bin/env python3
"""A peer for Shikaku: the textbook CP-SAT model (OR-Tools), for side-by-side times.

One Boolean per rectangle that holds exactly one number and has its area (any area for `?`),
exactly one chosen rectangle over each cell; solved, then solved again with that solution
excluded (the uniqueness check `puzzle-sat solve shikaku --unique` makes). Reads puzzle-sat's
Shikaku files. Prints, per file, the CPU seconds of model building and of both solves, and
the verdict.

    pip install ortools
    python3 shikaku_cpsat.py FILE...
"""
import sys
import time

from ortools.sat.python import cp_model


def solve(path):
    rows = [line.split() for line in open(path) if line.strip()]
    R, C = len(rows), len(rows[0])
    clues = {(r, c): (None if v == "?" else int(v)) for r in range(R) for c in range(C) if (v := rows[r][c]) not in (".", "-")}
    start = time.process_time()
    m = cp_model.CpModel()
    cover = [[[] for _ in range(C)] for _ in range(R)]
    chosen = []
    for (cr, cc), n in clues.items():
        shapes = [(h, w) for h in range(1, R + 1) for w in range(1, C + 1) if n is None or h * w == n]
        for h, w in shapes:
            for top in range(max(0, cr - h + 1), min(cr, R - h) + 1):
                for left in range(max(0, cc - w + 1), min(cc, C - w) + 1):
                    inside = [(r, c) for r in range(top, top + h) for c in range(left, left + w) if (r, c) in clues]
                    if len(inside) != 1:
                        continue
                    x = m.NewBoolVar("")
                    chosen.append(x)
                    for r in range(top, top + h):
                        for c in range(left, left + w):
                            cover[r][c].append(x)
    for r in range(R):
        for c in range(C):
            m.AddExactlyOne(cover[r][c])
    built = time.process_time() - start
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    first = s.Solve(m)
    verdict = "no solution"
    if first in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        m.AddBoolOr([x.Not() for x in chosen if s.BooleanValue(x)])
        second = s.Solve(m)
        verdict = "unique" if second == cp_model.INFEASIBLE else "not unique"
    total = time.process_time() - start
    return built, total, verdict


for path in sys.argv[1:]:
    built, total, verdict = solve(path)
    print(f"{path}\t{built:.3f}\t{total:.3f}\t{verdict}")
