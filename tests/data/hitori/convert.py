#!/usr/bin/env python3
"""Converts puzzlekit-dataset's Hitori_dataset.json (janko.at's puzzles with solutions) into
puzzle-sat's files: NAME.txt (janko.at's form as the dataset has it: a `ROWS COLUMNS` line, then
one row of numbers per line) and NAME.sol (the solution as `solve hitori` prints it: `#` shaded,
each unshaded cell its number), for up to PER puzzles of each size (the lowest Janko numbers),
leaving out those named on the command line after PER. Every solution is checked here,
independently of puzzle-sat: no number twice unshaded in a row or column, no two shaded cells
side by side, the unshaded cells one piece.

    python3 convert.py Hitori_dataset.json [PER [SKIP...]]
"""
import json
import sys
from collections import defaultdict


def pieces(rows, cols, active):
    seen = set()
    out = []
    for r in range(rows):
        for c in range(cols):
            if active[r][c] and (r, c) not in seen:
                seen.add((r, c))
                stack, piece = [(r, c)], []
                while stack:
                    y, x = stack.pop()
                    piece.append((y, x))
                    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        v = (y + dy, x + dx)
                        if 0 <= v[0] < rows and 0 <= v[1] < cols and active[v[0]][v[1]] and v not in seen:
                            seen.add(v)
                            stack.append(v)
                out.append(piece)
    return out


def valid(rows, cols, numbers, shaded):
    lines = [[(r, c) for c in range(cols)] for r in range(rows)]
    lines += [[(r, c) for r in range(rows)] for c in range(cols)]
    for line in lines:
        left = [numbers[r][c] for r, c in line if not shaded[r][c] and numbers[r][c] != "-"]
        if len(left) != len(set(left)):
            return "a number twice unshaded in a line"
    for r in range(rows):
        for c in range(cols):
            if shaded[r][c] and ((r + 1 < rows and shaded[r + 1][c]) or (c + 1 < cols and shaded[r][c + 1])):
                return "two shaded cells side by side"
    if len(pieces(rows, cols, [[not s for s in row] for row in shaded])) > 1:
        return "the unshaded cells are apart"
    return None


def main():
    data = json.load(open(sys.argv[1]))["data"]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    skip = set(sys.argv[3:])
    by_size = defaultdict(list)
    for key in data:
        number, size = key.split("_")
        by_size[size].append(int(number) if number.isdigit() else number)
    for size, numbers in sorted(by_size.items()):
        taken = 0
        for number in sorted(numbers, key=lambda n: str(n).zfill(8)):
            if taken == per:
                break
            # "hard_25x25", the one item without a Janko number, keeps its name.
            key = f"{number:02d}_{size}" if isinstance(number, int) and f"{number:02d}_{size}" in data else f"{number}_{size}"
            if key in skip:
                continue
            entry = data[key]
            p = entry["problem"].strip().split("\n")
            s = entry["solution"].strip().split("\n")
            rows, cols = map(int, p[0].split())
            numbers = [line.split() for line in p[1:]]
            grid = [line.split() for line in s[1:]]
            if len(numbers) != rows or any(len(r) != cols for r in numbers):
                print(f"{key}: the problem grid is not {rows}x{cols}; skipped", file=sys.stderr)
                continue
            if len(grid) != rows or any(len(r) != cols for r in grid):
                print(f"{key}: the solution grid is not {rows}x{cols}; skipped", file=sys.stderr)
                continue
            shaded = [[v == "x" for v in row] for row in grid]
            why = valid(rows, cols, numbers, shaded)
            assert why is None, f"{key}: {why}"
            taken += 1
            name = f"janko-{number:04d}-{size}" if isinstance(number, int) else f"janko-{number}-{size}"
            with open(f"{name}.txt", "w") as f:
                f.write(entry["problem"].strip() + "\n")
            with open(f"{name}.sol", "w") as f:
                for r in range(rows):
                    words = ["#" if shaded[r][c] else numbers[r][c] for c in range(cols)]
                    f.write(" ".join(words) + "\n")


main()
