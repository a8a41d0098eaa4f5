#!/usr/bin/env python3
"""Converts puzzlekit-dataset's Heyawake_dataset.json (janko.at's puzzles with solutions) into
puzzle-sat's files: NAME.txt (janko.at's form as the dataset has it: a `ROWS COLUMNS` line, the
numbers' grid, `-` for a cell without one, then the rooms' grid, one label a cell) and NAME.sol
(the solution as `solve heyawake` prints it: `#` shaded, `.` unshaded, each number in its cell),
for up to PER puzzles of each size (the lowest Janko numbers), leaving out those named on the
command line after PER. Every solution is checked here, independently of puzzle-sat, reading
each piece of a label as its own room: each numbered room that many shaded cells, no two shaded
cells side by side, the unshaded cells one piece, no unshaded run across two room borders.

    python3 convert.py Heyawake_dataset.json [PER [SKIP...]]
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


def valid(rows, cols, numbers, labels, shaded):
    everywhere = [[True] * cols for _ in range(rows)]
    rooms = pieces(rows, cols, everywhere, lambda a, b: labels[a[0]][a[1]] == labels[b[0]][b[1]])
    room_of = {}
    for k, room in enumerate(rooms):
        given = [numbers[r][c] for r, c in room if numbers[r][c] != "-"]
        if len(given) > 1:
            return "two numbers in a room"
        if given and given[0] != "?" and sum(shaded[r][c] for r, c in room) != int(given[0]):
            return f"a room of {given[0]} with another count"
        for cell in room:
            room_of[cell] = k
    for r in range(rows):
        for c in range(cols):
            if shaded[r][c] and ((r + 1 < rows and shaded[r + 1][c]) or (c + 1 < cols and shaded[r][c + 1])):
                return "two shaded cells side by side"
    lines = [[(r, c) for c in range(cols)] for r in range(rows)]
    lines += [[(r, c) for r in range(rows)] for c in range(cols)]
    for line in lines:
        run = []
        for cell in line + [None]:
            if cell is None or shaded[cell[0]][cell[1]]:
                crossed = sum(room_of[a] != room_of[b] for a, b in zip(run, run[1:]))
                if crossed > 1:
                    return "an unshaded run across two borders"
                run = []
            else:
                run.append(cell)
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
            p = entry["problem"].strip().split("\n")
            s = entry["solution"].strip().split("\n")
            rows, cols = map(int, p[0].split())
            numbers = [line.split() for line in p[1 : rows + 1]]
            labels = [line.split() for line in p[rows + 1 :]]
            grid = [line.split() for line in s[1:]]
            if len(labels) != rows or any(len(r) != cols for r in numbers + labels + grid) or len(grid) != rows:
                print(f"{key}: a grid is not {rows}x{cols}; skipped", file=sys.stderr)
                continue
            shaded = [[v == "x" for v in row] for row in grid]
            why = valid(rows, cols, numbers, labels, shaded)
            if why is not None:
                print(f"{key}: {why}; skipped", file=sys.stderr)
                continue
            taken += 1
            name = f"janko-{number:04d}-{size}"
            with open(f"{name}.txt", "w") as f:
                f.write(entry["problem"].strip() + "\n")
            with open(f"{name}.sol", "w") as f:
                for r in range(rows):
                    words = ["#" if shaded[r][c] else (numbers[r][c] if numbers[r][c] != "-" else ".") for c in range(cols)]
                    f.write(" ".join(words) + "\n")


main()
