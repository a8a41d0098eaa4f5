"""Tatamibari boards with sparse clues, from a generator that is not puzzle-sat's own.

A random tiling of the grid into rectangles (sides up to MAX_SIDE, about CELLS cells each),
one clue in a random cell of each rectangle, its symbol from the rectangle's shape. The tiling
is a solution, so every board has one; it is not made unique. Rectangles are placed at the
first free cell in row-major order; a width is taken only where the row above has no
rectangle border at the new rectangle's right edge (or the edge is the board's or a rectangle
from above), which is exactly what keeps four rectangles from meeting at a point.

usage: python3 tatamibari_sparse.py ROWS COLS SEED [CELLS_PER_CLUE=6] [MAX_SIDE=12] [TILING_FILE]
"""
import random
import sys


def board(rows, cols, seed, cells, max_side, scale):
    rnd = random.Random(seed)
    owner = [[None] * cols for _ in range(rows)]
    rects = []
    mean = scale * max(cells, 1.0) ** 0.5

    def side(limit):
        # Mean about sqrt(CELLS), long tail up to MAX_SIDE.
        return max(1, min(limit, max_side, 1 + int(rnd.expovariate(1.0 / max(mean - 1.0, 0.01)))))

    for r in range(rows):
        for c in range(cols):
            if owner[r][c] is not None:
                continue
            run = 0
            while c + run < cols and owner[r][c + run] is None:
                run += 1
            # Widths whose right edge meets no border of the row above (or a board edge, or a
            # rectangle reaching down from above).
            def fine(w):
                e = c + w
                if e == cols or owner[r][e] is not None or r == 0:
                    return True
                return owner[r - 1][e - 1] == owner[r - 1][e]
            wanted = side(run)
            widths = [w for w in range(1, run + 1) if fine(w)]
            w = min(widths, key=lambda x: (abs(x - wanted), rnd.random()))
            h = side(rows - r)
            k = len(rects)
            for i in range(r, r + h):
                for j in range(c, c + w):
                    owner[i][j] = k
            rects.append((r, c, h, w))
    grid = [["."] * cols for _ in range(rows)]
    for (r, c, h, w) in rects:
        i, j = r + rnd.randrange(h), c + rnd.randrange(w)
        grid[i][j] = "+" if h == w else "-" if w > h else "|"
    return grid, rects


def main():
    rows, cols, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    cells = float(sys.argv[4]) if len(sys.argv) > 4 else 6.0
    max_side = int(sys.argv[5]) if len(sys.argv) > 5 else 12
    # The mean side that makes the clues come out closest to CELLS cells apart (widths are
    # cut by the row above and by the board, heights by the board), tried on this seed.
    best = None
    for k in range(10, 61, 2):
        grid, rects = board(rows, cols, seed, cells, max_side, k / 10)
        got = rows * cols / len(rects)
        if best is None or abs(got - cells) < abs(best[0] - cells):
            best = (got, grid, rects)
    got, grid, rects = best
    print(f"tatamibari_sparse.py {rows} {cols} {seed} {cells:g} {max_side}: {len(rects)} clues, {got:.2f} cells per clue", file=sys.stderr)
    sys.stdout.write("".join("".join(line) + "\n" for line in grid))
    if len(sys.argv) > 6:
        # The tiling, as `solve --format rects` writes a solution: `check` accepts it.
        with open(sys.argv[6], "w") as f:
            f.writelines(f"{r} {c} {h} {w}\n" for (r, c, h, w) in rects)


if __name__ == "__main__":
    main()
