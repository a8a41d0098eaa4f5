"""Non-unique boards of the loop and Nurikabe genres from a generator that is not puzzle-sat's
own, for `--hints` side by side with cspuz_core (benches/hints.sh, GENRES=...).

- slitherlink: the loop is the border of a random hole-free polyomino grown to about half the
  board (one cell at a time, kept only if the border stays one simple loop); each cell's
  number is written with probability KEEP.
- masyu: the same loop through the cells' centres; every pearl the loop allows (black where it
  turns and goes straight on both ways, white where it goes straight and turns next to it) is
  written with probability KEEP.
- nurikabe: a wall carved until no 2x2 pool is left, island cells added where a pool is (each
  starting an island or joining one neighbouring island, never two; the wall kept connected;
  islands at most 7 cells); one number per island at a random cell, written '?' with
  probability KEEP.
Every board has a solution (the one it was made from); few clues leave many.

usage: python3 grid_random.py GENRE ROWS COLS KEEP SEED   (puzzle-sat's text form on stdout)
"""
import random
import sys
from collections import deque


def polyomino(R, C, frac, rng):
    """A random simply connected set of cells of an R x C grid (no holes)."""
    inside = set([(rng.randrange(R), rng.randrange(C))])
    target = int(R * C * frac)
    tries = 0
    while len(inside) < target and tries < 50 * R * C:
        tries += 1
        r, c = rng.choice(list(inside))
        dr, dc = rng.choice([(0,1),(1,0),(0,-1),(-1,0)])
        n = (r+dr, c+dc)
        if not (0 <= n[0] < R and 0 <= n[1] < C) or n in inside:
            continue
        inside.add(n)
        if has_hole(R, C, inside) or not simple(R, C, inside):
            inside.remove(n)
    return inside

def has_hole(R, C, inside):
    seen = set(); q = deque()
    for r in range(-1, R+1):
        for c in range(-1, C+1):
            if (r in (-1, R) or c in (-1, C)):
                seen.add((r,c)); q.append((r,c))
    while q:
        r, c = q.popleft()
        for dr, dc in ((0,1),(1,0),(0,-1),(-1,0)):
            n = (r+dr, c+dc)
            if -1 <= n[0] <= R and -1 <= n[1] <= C and n not in seen and n not in inside:
                seen.add(n); q.append(n)
    return (R+2)*(C+2) - len(seen) != len(inside)

def simple(R, C, inside):
    # boundary is one simple loop iff no corner node touches inside diagonally only
    for r in range(R+1):
        for c in range(C+1):
            a = (r-1,c-1) in inside; b = (r-1,c) in inside
            d = (r,c-1) in inside; e = (r,c) in inside
            if (a and e and not b and not d) or (b and d and not a and not e):
                return False
    return True

def slither(R, C, keep, rng):
    inside = polyomino(R, C, 0.5, rng)
    rows = []
    for r in range(R):
        row = []
        for c in range(C):
            n = sum(((r+dr, c+dc) in inside) != ((r, c) in inside) for dr, dc in ((0,1),(1,0),(0,-1),(-1,0)))
            row.append(str(n) if rng.random() < keep else '-')
        rows.append(' '.join(row))
    return f"{R} {C}\n" + '\n'.join(rows) + '\n'

def masyu(R, C, keep, rng):
    # loop on R x C nodes = boundary of a polyomino of x (C-1) cells
    inside = polyomino(R-1, C-1, 0.5, rng)
    def edge(a, b):  # nodes a,b adjacent; on loop iff cells on either side differ
        (r1, c1), (r2, c2) = a, b
        if r1 == r2:  # horizontal edge between (r,c1)-(r,c1+1): cells above (r-1,c) and below (r,c)
            c = min(c1, c2); return ((r1-1, c) in inside) != ((r1, c) in inside)
        r = min(r1, r2); return ((r, c1-1) in inside) != ((r, c1) in inside)
    def on(r, c, dr, dc):
        n = (r+dr, c+dc)
        return 0 <= n[0] < R and 0 <= n[1] < C and edge((r, c), n)
    D = [(0,1),(1,0),(0,-1),(-1,0)]
    grid = [['-']*C for _ in range(R)]
    for r in range(R):
        for c in range(C):
            ds = [d for d in D if on(r, c, *d)]
            if len(ds) != 2: continue
            straight = ds[0][0] == -ds[1][0] and ds[0][1] == -ds[1][1]
            if straight:
                # white: turns at least at one neighbour along the line
                turns = False
                for d in ds:
                    n = (r+d[0], c+d[1])
                    if not on(n[0], n[1], *d): turns = True
                if turns and rng.random() < keep: grid[r][c] = 'w'
            else:
                ok = all(on(r+d[0], c+d[1], *d) for d in ds)
                if ok and rng.random() < keep: grid[r][c] = 'b'
    return f"{R} {C}\n" + '\n'.join(' '.join(x) for x in grid) + '\n'

def nurikabe(R, C, qfrac, rng):
    for attempt in range(100):
        island = [[-1]*C for _ in range(R)]
        sizes = []
        failed = set()
        while True:
            pools = [(r, c) for r in range(R-1) for c in range(C-1)
                     if (r, c) not in failed and all(island[a][b] == -1 for a, b in [(r,c),(r+1,c),(r,c+1),(r+1,c+1)])]
            if not pools:
                break
            r, c = rng.choice(pools)
            block = [(r,c),(r+1,c),(r,c+1),(r+1,c+1)]
            rng.shuffle(block)
            done = False
            for a, b in block:
                near = {island[a+dr][b+dc] for dr, dc in ((0,1),(1,0),(0,-1),(-1,0))
                        if 0 <= a+dr < R and 0 <= b+dc < C and island[a+dr][b+dc] != -1}
                if len(near) > 1: continue
                if near:
                    k = near.pop()
                    if sizes[k] >= 7: continue
                else:
                    k = len(sizes); sizes.append(0)
                island[a][b] = k
                if wall_ok(island, R, C):
                    sizes[k] += 1; done = True; break
                island[a][b] = -1
                if sizes[k] == 0 and k == len(sizes) - 1: sizes.pop()
            if not done:
                failed.add((r, c))
        if failed:
            continue
        grid = [['-']*C for _ in range(R)]
        for k in range(len(sizes)):
            mem = [(r, c) for r in range(R) for c in range(C) if island[r][c] == k]
            if not mem: continue
            r, c = rng.choice(mem)
            grid[r][c] = '?' if rng.random() < qfrac else str(len(mem))
        return f"{R} {C}\n" + '\n'.join(' '.join(x) for x in grid) + '\n'
    raise SystemExit("no board")


def wall_ok(island, R, C):
    wall = [(r, c) for r in range(R) for c in range(C) if island[r][c] == -1]
    if not wall: return True
    seen = {wall[0]}; q = deque([wall[0]])
    while q:
        r, c = q.popleft()
        for dr, dc in ((0,1),(1,0),(0,-1),(-1,0)):
            n = (r+dr, c+dc)
            if 0 <= n[0] < R and 0 <= n[1] < C and island[n[0]][n[1]] == -1 and n not in seen:
                seen.add(n); q.append(n)
    return len(seen) == len(wall)


if __name__ == '__main__':
    genre, rows, cols, keep, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    make = {'slitherlink': slither, 'masyu': masyu, 'nurikabe': nurikabe}[genre]
    print(make(rows, cols, keep, random.Random(seed)), end='')
