#!/usr/bin/env python3
"""Converts puzzlekit-dataset's Slitherlink_dataset.json or Masyu_dataset.json (janko.at's
puzzles with solutions) into puzzle-sat's files, for up to PER puzzles of each size (the lowest
Janko numbers), leaving out those named after PER:

* NAME.txt: janko.at's form as the dataset has it (a `ROWS COLUMNS` line, then the clues).
* NAME.sol: the loop as `solve slitherlink` / `solve masyu` draws it: nodes (`+` for a corner,
  a pearl `w`/`b` or `.` for a cell), `-` and `|` for the loop's edges, Slitherlink's numbers
  between the corners, no trailing blanks.

Every solution is checked here, independently of puzzle-sat: every node has two edges or none,
the edges are one loop, and the clues hold (a number counts its cell's sides on the loop; a
white pearl is passed straight with a turn beside it, a black one turned on with straight
lines beside it). Slitherlink solutions are cells inside (`x`) or outside (`-`) the loop, the
loop being where they differ; Masyu's are each cell's directions (`ns`, `se`, ...).

    python3 convert.py Slitherlink_dataset.json [PER [SKIP...]]
    python3 convert.py Masyu_dataset.json [PER [SKIP...]]
"""
import json
import sys
from collections import defaultdict

STEP = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}


def slither_edges(rows, cols, inside):
    """The loop between cells inside and outside: edges as frozensets of two corners."""
    cell = lambda r, c: 0 <= r < rows and 0 <= c < cols and inside[r][c]
    edges = set()
    for r in range(rows + 1):
        for c in range(cols):
            if cell(r - 1, c) != cell(r, c):
                edges.add(frozenset({(r, c), (r, c + 1)}))
    for r in range(rows):
        for c in range(cols + 1):
            if cell(r, c - 1) != cell(r, c):
                edges.add(frozenset({(r, c), (r + 1, c)}))
    return edges


def masyu_edges(rows, cols, dirs):
    edges = set()
    for r in range(rows):
        for c in range(cols):
            if dirs[r][c] == "-":
                continue
            for d in dirs[r][c]:
                dr, dc = STEP[d]
                edges.add(frozenset({(r, c), (r + dr, c + dc)}))
    return edges


def one_loop(edges):
    around = defaultdict(list)
    for e in edges:
        a, b = tuple(e)
        around[a].append(b)
        around[b].append(a)
    if not edges or any(len(v) != 2 for v in around.values()):
        return False
    start = next(iter(around))
    prev, node, seen = None, start, 0
    while True:
        nxt = around[node][0] if around[node][0] != prev else around[node][1]
        prev, node = node, nxt
        seen += 1
        if node == start:
            return seen == len(edges)


def taken(edges, r, c, d):
    dr, dc = STEP[d]
    return frozenset({(r, c), (r + dr, c + dc)}) in edges


def pearls_hold(rows, cols, clues, edges):
    def straight(r, c):
        return (taken(edges, r, c, "n") and taken(edges, r, c, "s")) or (
            taken(edges, r, c, "w") and taken(edges, r, c, "e"))
    for r in range(rows):
        for c in range(cols):
            p = clues[r][c]
            if p not in ("w", "b", "1", "2"):
                continue
            out = [d for d in "nswe" if taken(edges, r, c, d)]
            if not out:
                return False
            nbrs = [(r + STEP[d][0], c + STEP[d][1], d) for d in out]
            if p in ("w", "1"):
                if not straight(r, c) or all(straight(y, x) for y, x, _ in nbrs):
                    return False
            else:
                if straight(r, c) or not all(taken(edges, y, x, d) for y, x, d in nbrs):
                    return False
    return True


def numbers_hold(rows, cols, clues, edges):
    for r in range(rows):
        for c in range(cols):
            if clues[r][c].isdigit():
                sides = [frozenset({(r, c), (r, c + 1)}), frozenset({(r + 1, c), (r + 1, c + 1)}),
                         frozenset({(r, c), (r + 1, c)}), frozenset({(r, c + 1), (r + 1, c + 1)})]
                if sum(s in edges for s in sides) != int(clues[r][c]):
                    return False
    return True


def draw(nodes_r, nodes_c, edges, node, face):
    lines = []
    for y in range(2 * nodes_r - 1):
        line = ""
        for x in range(2 * nodes_c - 1):
            r, c = y // 2, x // 2
            if y % 2 == 0 and x % 2 == 0:
                line += node(r, c)
            elif y % 2 == 0:
                line += "-" if frozenset({(r, c), (r, c + 1)}) in edges else " "
            elif x % 2 == 0:
                line += "|" if frozenset({(r, c), (r + 1, c)}) in edges else " "
            else:
                line += face(r, c)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def main():
    path = sys.argv[1]
    slither = "Slitherlink" in path
    data = json.load(open(path))["data"]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    skip = set(sys.argv[3:])
    by_size = defaultdict(list)
    for key in data:
        number, _, size = key.partition("_")
        if number.isdigit() and size:
            by_size[size].append(int(number))
    for size, keys in sorted(by_size.items()):
        taken_here = 0
        for number in sorted(keys):
            if taken_here == per:
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
            clues = [line.split() for line in p[1:]]
            grid = [line.split() for line in s[1:]]
            if len(clues) != rows or len(grid) != rows or any(len(r) != cols for r in clues + grid):
                print(f"{key}: a grid is not {rows}x{cols}; skipped", file=sys.stderr)
                continue
            if slither:
                edges = slither_edges(rows, cols, [[v == "x" for v in row] for row in grid])
                ok = one_loop(edges) and numbers_hold(rows, cols, clues, edges)
                drawn = draw(rows + 1, cols + 1, edges, lambda r, c: "+",
                             lambda r, c: clues[r][c] if clues[r][c] != "-" else " ")
            else:
                edges = masyu_edges(rows, cols, grid)
                ok = one_loop(edges) and pearls_hold(rows, cols, clues, edges)
                pearl = {"w": "w", "1": "w", "b": "b", "2": "b"}
                drawn = draw(rows, cols, edges, lambda r, c: pearl.get(clues[r][c], "."),
                             lambda r, c: " ")
            assert ok, f"{key}: the solution breaks a rule"
            taken_here += 1
            name = f"janko-{number:04d}-{size}"
            with open(f"{name}.txt", "w") as f:
                f.write(entry["problem"].strip() + "\n")
            with open(f"{name}.sol", "w") as f:
                f.write(drawn)


main()
