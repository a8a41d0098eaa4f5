#!/usr/bin/env python3
"""Converts puzzlekit-dataset's Kakuro_dataset.json (janko.at's Kakuros with solutions) into
puzzle-sat's files: NAME.txt (janko.at's form as the dataset has it: a `ROWS COLUMNS` line,
then one row per line, `0` white, `-` black, `D,A` clues) and NAME.sol (the solution, `-` for
black cells), for up to PER puzzles of each size (the lowest Janko numbers). Every solution is
checked here, independently of puzzle-sat: digits 1-9 in the white cells, no digit twice in a
run, each clued run adding up to its clue.

    python3 convert.py Kakuro_dataset.json [PER]
"""
import json
import sys
from collections import defaultdict


def runs(cells, rows, cols):
    """Yields (cells of a run, its clue or None), across then down."""
    for across in (True, False):
        outer, inner = (rows, cols) if across else (cols, rows)
        at = (lambda o, k: (o, k)) if across else (lambda o, k: (k, o))
        for o in range(outer):
            k = 0
            while k < inner:
                r, c = at(o, k)
                if cells[r][c] != "0":
                    k += 1
                    continue
                clue = None
                if k > 0:
                    br, bc = at(o, k - 1)
                    word = cells[br][bc]
                    if "," in word:
                        side = word.split(",")[1 if across else 0]
                        clue = int(side) if side and int(side) > 0 else None
                run = []
                while k < inner and cells[at(o, k)[0]][at(o, k)[1]] == "0":
                    run.append(at(o, k))
                    k += 1
                yield run, clue


def main():
    data = json.load(open(sys.argv[1]))["data"]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    by_size = defaultdict(list)
    for key in data:
        number, size = key.split("_")
        by_size[size].append(int(number))
    for size, numbers in sorted(by_size.items()):
        for number in sorted(numbers)[:per]:
            key = f"{number}_{size}"
            p = data[key]["problem"].strip().split("\n")
            s = data[key]["solution"].strip().split("\n")
            rows, cols = map(int, p[0].split())
            cells = [line.split() for line in p[1:]]
            grid = [line.split() for line in s[1:]]
            assert len(cells) == rows and all(len(r) == cols for r in cells), key
            assert len(grid) == rows and all(len(r) == cols for r in grid), key
            for r in range(rows):
                for c in range(cols):
                    assert (cells[r][c] == "0") == (grid[r][c] in "123456789"), key
                    assert cells[r][c] == "0" or grid[r][c] == "-", key
            for run, clue in runs(cells, rows, cols):
                digits = [int(grid[r][c]) for r, c in run]
                assert len(set(digits)) == len(digits), key
                assert clue is None or sum(digits) == clue, key
            name = f"janko-{number}-{rows}x{cols}"
            with open(name + ".txt", "w") as f:
                f.write(f"{rows} {cols}\n")
                f.writelines(" ".join(row) + "\n" for row in cells)
            with open(name + ".sol", "w") as f:
                f.writelines(" ".join(row) + "\n" for row in grid)


main()
