#!/usr/bin/env python3
"""Converts puzzlekit-dataset's Sudoku_dataset.json (janko.at's sudokus with solutions) into
puzzle-sat's files: NAME.txt (one row per line, cells separated by spaces, `.` for empty) and
NAME.sol (the solution in the same form), for up to PER puzzles of each size (the lowest Janko
numbers). Every solution is checked here, independently of puzzle-sat: each row, column and
box holds 1..N once, and the givens are kept.

    python3 convert.py Sudoku_dataset.json [PER]
"""
import json
import sys
from collections import defaultdict


def box_shape(n):
    h = max(d for d in range(2, n + 1) if n % d == 0 and d * d <= n)
    return h, n // h


def main():
    data = json.load(open(sys.argv[1]))["data"]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    by_size = defaultdict(list)
    for key in data:
        number, size = key.split("_")
        by_size[size].append(int(number))
    for size, numbers in sorted(by_size.items()):
        for number in sorted(numbers)[:per]:
            key = f"{number}_{size}"
            p = data[key]["problem"].strip().split("\n")
            s = data[key]["solution"].strip().split("\n")
            n = int(p[0].split()[0])
            cells = [line.split() for line in p[1:]]
            grid = [[int(v) for v in line.split()] for line in s[1:]]
            assert len(cells) == n and all(len(r) == n for r in cells), key
            assert len(grid) == n and all(len(r) == n for r in grid), key
            h, w = box_shape(n)
            houses = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
            houses += [[(br + i // w, bc + i % w) for i in range(n)] for br in range(0, n, h) for bc in range(0, n, w)]
            for house in houses:
                assert sorted(grid[r][c] for r, c in house) == list(range(1, n + 1)), key
            for r in range(n):
                for c in range(n):
                    assert cells[r][c] == "-" or int(cells[r][c]) == grid[r][c], key
            name = f"janko-{number}-{n}x{n}"
            with open(name + ".txt", "w") as f:
                f.writelines(" ".join("." if v == "-" else v for v in row) + "\n" for row in cells)
            with open(name + ".sol", "w") as f:
                f.writelines(" ".join(map(str, row)) + "\n" for row in grid)


main()
