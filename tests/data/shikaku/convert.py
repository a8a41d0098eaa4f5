#!/usr/bin/env python3
"""Converts puzzlekit-dataset's Shikaku_dataset.json (janko.at's puzzles with solutions) into
puzzle-sat's files: NAME.txt (one row per line, cells separated by spaces, `.` for none) and
NAME.sol (the solution as `row col height width` lines, 0-based, sorted), for up to PER puzzles
of each size (the lowest Janko numbers). Every solution is checked here, independently of
puzzle-sat: each numbered region fills its bounding box, holds exactly one number, and has that
many cells.

    python3 convert.py Shikaku_dataset.json [PER]
"""
import json
import sys
from collections import defaultdict


def rects_of(grid):
    boxes = defaultdict(lambda: [10**9, 10**9, -1, -1, 0])
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            b = boxes[v]
            b[0], b[1], b[2], b[3], b[4] = min(b[0], r), min(b[1], c), max(b[2], r), max(b[3], c), b[4] + 1
    out = []
    for v, (t, l, b, rgt, n) in boxes.items():
        h, w = b - t + 1, rgt - l + 1
        assert n == h * w, f"region {v} is no rectangle"
        out.append((t, l, h, w))
    return sorted(out)


def main():
    data = json.load(open(sys.argv[1]))["data"]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    by_size = defaultdict(list)
    for key in data:
        number, size = key.split("_")
        # One key is `shikaku0126_50x40` (Janko's number 126 too, kept with its spelling).
        by_size[size].append((int(number.removeprefix("shikaku")), number))
    for size, numbers in sorted(by_size.items()):
        taken = 0
        for number, spelled in sorted(numbers):
            if taken == per:
                break
            key = f"{spelled}_{size}"
            entry = data[key]
            p = entry["problem"].strip().split("\n")
            s = entry["solution"].strip().split("\n")
            rows, cols = map(int, p[0].split())
            cells = [line.split() for line in p[1:]]
            grid = [line.split() for line in s[1:]]
            assert len(cells) == rows and all(len(r) == cols for r in cells), key
            if len(grid) != rows or any(len(r) != cols for r in grid):
                # 30_20x25's solution repeats its size line inside the grid.
                print(f"{key}: the solution grid is not {rows}x{cols}; skipped", file=sys.stderr)
                continue
            taken += 1
            rects = rects_of(grid)
            for t, l, h, w in rects:
                clues = [cells[r][c] for r in range(t, t + h) for c in range(l, l + w) if cells[r][c] != "-"]
                assert len(clues) == 1, f"{key}: {len(clues)} numbers in {(t, l, h, w)}"
                assert clues[0] == "?" or int(clues[0]) == h * w, f"{key}: area {h * w}, number {clues[0]}"
            name = f"janko-{number:03d}-{rows}x{cols}"
            with open(name + ".txt", "w") as f:
                for row in cells:
                    f.write(" ".join("." if v == "-" else v for v in row) + "\n")
            with open(name + ".sol", "w") as f:
                for t, l, h, w in rects:
                    f.write(f"{t} {l} {h} {w}\n")


main()
