"""Kakkuro boards whose white lines run longer than 9 cells, so that every answer must paint
cells gray: the class the bundled boards (tests/data/kakkuro/make-board.py, which
rejects long lines) leave out.

Gray cells are drawn at random with the given density (the top-left corner always gray), a
gray cell never has only gray neighbours, and a board is kept only if some row or column has
a white line (a run of white cells between grays or the edge) longer than 9. DOTS of the gray
cells get a red dot.

usage: python3 kakkuro_painting.py N SEED [DENSITY=0.24] [DOTS=8]
"""
import random
import sys


def board(n, seed, density, dots):
    rnd = random.Random(seed)
    while True:
        g = [[rnd.random() < density for _ in range(n)] for _ in range(n)]
        g[0][0] = True

        def isolated(r, c):
            return all(not (0 <= r + dr < n and 0 <= c + dc < n) or g[r + dr][c + dc] for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))

        def longest(cells):
            best = run = 0
            for gray in cells:
                run = 0 if gray else run + 1
                best = max(best, run)
            return best

        lines = [g[r] for r in range(n)] + [[g[r][c] for r in range(n)] for c in range(n)]
        grays = [(r, c) for r in range(n) for c in range(n) if g[r][c]]
        if max(longest(l) for l in lines) > 9 and len(grays) >= dots and not any(isolated(r, c) for r, c in grays):
            break
    red = set(rnd.sample(grays, dots))
    return "".join(" ".join("@" if (r, c) in red else "#" if g[r][c] else "." for c in range(n)) + "\n" for r in range(n))


def main():
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    density = float(sys.argv[3]) if len(sys.argv) > 3 else 0.24
    dots = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    print(f"; kakkuro_painting.py {n} {seed} {density:g} {dots}: lines longer than 9 force painting")
    sys.stdout.write(board(n, seed, density, dots))


if __name__ == "__main__":
    main()
