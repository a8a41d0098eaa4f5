#!/usr/bin/env python3
"""Converts puzzlekit-dataset's LITS_dataset.json (janko.at's puzzles with solutions) into
puzzle-sat's files: NAME.txt (janko.at's form as the dataset has it: a `ROWS COLUMNS` line, then
the rooms' grid, one label a cell, `@` for a cell outside every room) and NAME.sol (the
solution as `solve lits` prints it: `#` shaded, `.` unshaded), for up to PER puzzles of each
size (the lowest Janko numbers), leaving out those named on the command line after PER. Every
solution is checked here, independently of puzzle-sat: each room one L, I, T or S (the letters
the dataset writes agree with the shapes), cells outside every room unshaded, no 2x2 block,
no two tetrominoes of one letter touching across a border, the shaded cells one piece.

    python3 convert.py LITS_dataset.json [PER [SKIP...]]
"""
import json
import sys
from collections import defaultdict


def pieces(rows, cols, active, joined=lambda a, b: True):
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
                        if 0 <= v[0] < rows and 0 <= v[1] < cols and active[v[0]][v[1]] and v not in seen and joined((y, x), v):
                            seen.add(v)
                            stack.append(v)
                out.append(piece)
    return out


def letter(cells):
    """The free tetromino of four cells, by normalising all eight turns and mirrors."""
    shapes = {
        "I": {(0, 0), (0, 1), (0, 2), (0, 3)},
        "L": {(0, 0), (1, 0), (2, 0), (2, 1)},
        "T": {(0, 0), (0, 1), (0, 2), (1, 1)},
        "S": {(0, 1), (0, 2), (1, 0), (1, 1)},
        "O": {(0, 0), (0, 1), (1, 0), (1, 1)},
    }
    def norm(s):
        r0 = min(r for r, _ in s)
        c0 = min(c for _, c in s)
        return frozenset((r - r0, c - c0) for r, c in s)
    forms = set()
    s = set(cells)
    for _ in range(4):
        s = {(c, -r) for r, c in s}
        forms.add(norm(s))
        forms.add(norm({(r, -c) for r, c in s}))
    for name, shape in shapes.items():
        if norm(shape) in forms:
            return name
    return None


def valid(rows, cols, labels, grid):
    shaded = [[v != "-" for v in row] for row in grid]
    everywhere = [[labels[r][c] != "@" for c in range(cols)] for r in range(rows)]
    rooms = pieces(rows, cols, everywhere, lambda a, b: labels[a[0]][a[1]] == labels[b[0]][b[1]])
    room_of = {}
    shape_of = {}
    for k, room in enumerate(rooms):
        on = [cell for cell in room if shaded[cell[0]][cell[1]]]
        name = letter(on) if len(on) == 4 else None
        if name is None or name == "O":
            return "a room without its tetromino"
        if any(grid[r][c] != name for r, c in on):
            return "a letter that is not the shape's"
        for cell in room:
            room_of[cell] = k
        for cell in on:
            shape_of[cell] = name
    for r in range(rows):
        for c in range(cols):
            if labels[r][c] == "@" and shaded[r][c]:
                return "a cell outside every room shaded"
            if r + 1 < rows and c + 1 < cols and shaded[r][c] and shaded[r + 1][c] and shaded[r][c + 1] and shaded[r + 1][c + 1]:
                return "a 2x2 block"
            for v in ((r + 1, c), (r, c + 1)):
                if v[0] < rows and v[1] < cols and (r, c) in shape_of and v in shape_of:
                    if room_of[(r, c)] != room_of[v] and shape_of[(r, c)] == shape_of[v]:
                        return "two alike touching"
    if len(pieces(rows, cols, shaded)) > 1:
        return "the shaded cells are apart"
    return None


def main():
    data = json.load(open(sys.argv[1]))["data"]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    skip = set(sys.argv[3:])
    by_size = defaultdict(list)
    for key in data:
        number, size = key.split("_")
        by_size[size].append(int(number))
    for size, keys in sorted(by_size.items()):
        taken = 0
        for number in sorted(keys):
            if taken == per:
                break
            key = f"{number:02d}_{size}" if f"{number:02d}_{size}" in data else f"{number}_{size}"
            if key in skip:
                continue
            entry = data[key]
            if not entry.get("solution"):
                print(f"{key}: no solution; skipped", file=sys.stderr)
                continue
            p = entry["problem"].strip().split("\n")
            s = entry["solution"].strip().split("\n")
            rows, cols = map(int, p[0].split())
            labels = [line.split() for line in p[1:]]
            grid = [line.split() for line in s[1:]]
            if len(labels) != rows or len(grid) != rows or any(len(r) != cols for r in labels + grid):
                print(f"{key}: a grid is not {rows}x{cols}; skipped", file=sys.stderr)
                continue
            why = valid(rows, cols, labels, grid)
            assert why is None, f"{key}: {why}"
            taken += 1
            name = f"janko-{number:04d}-{size}"
            with open(f"{name}.txt", "w") as f:
                f.write(entry["problem"].strip() + "\n")
            with open(f"{name}.sol", "w") as f:
                for row in grid:
                    f.write(" ".join("." if v == "-" else "#" for v in row) + "\n")


main()
