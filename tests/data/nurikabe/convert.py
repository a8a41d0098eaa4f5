#!/usr/bin/env python3
"""Converts puzzlekit-dataset's Nurikabe_dataset.json (janko.at's puzzles with solutions) into
puzzle-sat's files: NAME.txt (janko.at's form as the dataset has it: a `ROWS COLUMNS` line, then
one row per line, `-` for a cell without a number) and NAME.sol (the solution as `solve nurikabe`
prints it: `#` shaded, `.` unshaded, each number in its cell), for up to PER puzzles of each size
(the lowest Janko numbers), leaving out those named on the command line after PER. Every
solution is checked here, independently of puzzle-sat: numbered cells unshaded, the wall one
piece with no 2x2 block, each island one number and that many cells.

    python3 convert.py Nurikabe_dataset.json [PER [SKIP...]]
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


def valid(rows, cols, clues, shaded):
    if any(shaded[r][c] and clues[r][c] != "-" for r in range(rows) for c in range(cols)):
        return "a number shaded"
    for r in range(rows - 1):
        for c in range(cols - 1):
            if shaded[r][c] and shaded[r + 1][c] and shaded[r][c + 1] and shaded[r + 1][c + 1]:
                return "a 2x2 block"
    if len(pieces(rows, cols, shaded)) > 1:
        return "the wall is apart"
    for island in pieces(rows, cols, [[not s for s in row] for row in shaded]):
        numbers = [clues[r][c] for r, c in island if clues[r][c] != "-"]
        if len(numbers) != 1:
            return f"an island with {len(numbers)} numbers"
        if numbers[0] != "?" and int(numbers[0]) != len(island):
            return f"an island of {len(island)} with {numbers[0]}"
    return None


def main():
    data = json.load(open(sys.argv[1]))["data"]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    skip = set(sys.argv[3:])
    by_size = defaultdict(list)
    for key in data:
        number, size = key.split("_")
        by_size[size].append(int(number))
    for size, numbers in sorted(by_size.items()):
        taken = 0
        for number in sorted(numbers):
            if taken == per:
                break
            key = f"{number:02d}_{size}" if f"{number:02d}_{size}" in data else f"{number}_{size}"
            if key in skip:
                continue
            entry = data[key]
            p = entry["problem"].strip().split("\n")
            s = entry["solution"].strip().split("\n")
            rows, cols = map(int, p[0].split())
            clues = [line.split() for line in p[1:]]
            grid = [line.split() for line in s[1:]]
            if len(clues) != rows or any(len(r) != cols for r in clues):
                print(f"{key}: the problem grid is not {rows}x{cols}; skipped", file=sys.stderr)
                continue
            assert len(grid) == rows and all(len(r) == cols for r in grid), key
            shaded = [[v == "x" for v in row] for row in grid]
            why = valid(rows, cols, clues, shaded)
            assert why is None, f"{key}: {why}"
            taken += 1
            name = f"janko-{number:04d}-{size}"
            with open(f"{name}.txt", "w") as f:
                f.write(entry["problem"].strip() + "\n")
            with open(f"{name}.sol", "w") as f:
                for r in range(rows):
                    words = ["#" if shaded[r][c] else (clues[r][c] if clues[r][c] != "-" else ".") for c in range(cols)]
                    f.write(" ".join(words) + "\n")


main()
