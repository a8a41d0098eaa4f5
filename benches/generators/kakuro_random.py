"""Classic Kakuro boards from a generator that is not puzzle-sat's own.

A border row and column of black cells; inside, each cell black with probability BLACK; runs
longer than MAX_RUN cut by a black cell at a random place; white cells alone in both
directions made black (with MIN_RUN=2 in the environment, every cell of a one-cell run, as
janko.at's puzzles have almost none; that leaves about half the cells white). Then a random filling, cell by cell in reading order, each taking a
random digit not yet in its across or down run (a cell left none becomes black, and the
filling starts again). The clues are the filling's sums, so every board has a solution; it is
not made unique, and big boards usually have many.

usage: python3 kakuro_random.py ROWS COLS SEED [BLACK=0.25] [MAX_RUN=9] [FILLING_FILE]
(ROWS and COLS count the border; the output is janko.at's form, as tests/data/kakuro has it.)
"""
import os
import random
import sys


def runs(white, rows, cols):
    """Per white cell, the index of its across run and of its down run; and the runs, each as
    (across, its cells)."""
    of = {}
    cells = []
    for across in (True, False):
        outer, inner = (rows, cols) if across else (cols, rows)
        for o in range(outer):
            k = 0
            while k < inner:
                at = (o, k) if across else (k, o)
                if not white[at[0]][at[1]]:
                    k += 1
                    continue
                run = []
                while k < inner and white[(o if across else k)][(k if across else o)]:
                    run.append((o, k) if across else (k, o))
                    k += 1
                for rc in run:
                    of.setdefault(rc, []).append(len(cells))
                cells.append((across, run))
    return of, cells


def board(rows, cols, seed, black, max_run, min_run):
    rnd = random.Random(seed)
    white = [[r > 0 and c > 0 and rnd.random() >= black for c in range(cols)] for r in range(rows)]
    while True:
        changed = False
        of, cells = runs(white, rows, cols)
        for _, run in cells:
            if len(run) > max_run:
                r, c = run[rnd.randrange(1, len(run) - 1)]
                white[r][c] = False
                changed = True
        for (r, c), two in of.items():
            if white[r][c] and (all(len(cells[i][1]) == 1 for i in two) or (min_run > 1 and any(len(cells[i][1]) < min_run for i in two))):
                white[r][c] = False
                changed = True
        if changed:
            continue
        digit = {}
        used = [set() for _ in cells]
        stuck = None
        for r in range(rows):
            for c in range(cols):
                if not white[r][c]:
                    continue
                free = [d for d in range(1, 10) if all(d not in used[i] for i in of[(r, c)])]
                if not free:
                    stuck = (r, c)
                    break
                d = rnd.choice(free)
                digit[(r, c)] = d
                for i in of[(r, c)]:
                    used[i].add(d)
            if stuck:
                break
        if stuck:
            white[stuck[0]][stuck[1]] = False
            continue
        return white, digit, of, cells


def main():
    rows, cols, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    black = float(sys.argv[4]) if len(sys.argv) > 4 else 0.25
    max_run = int(sys.argv[5]) if len(sys.argv) > 5 else 9
    min_run = int(os.environ.get("MIN_RUN", "1"))
    white, digit, of, cells = board(rows, cols, seed, black, max_run, min_run)
    down = {}
    across = {}
    for is_across, run in cells:
        r, c = run[0]
        total = sum(digit[rc] for rc in run)
        if is_across:
            across[(r, c - 1)] = total
        else:
            down[(r - 1, c)] = total
    print(rows, cols)
    for r in range(rows):
        words = []
        for c in range(cols):
            if white[r][c]:
                words.append("0")
            elif (r, c) in down or (r, c) in across:
                words.append(f"{down.get((r, c), '')},{across.get((r, c), '')}")
            else:
                words.append("-")
        print(" ".join(words))
    if len(sys.argv) > 6:
        with open(sys.argv[6], "w") as f:
            f.writelines(" ".join(str(digit[(r, c)]) if white[r][c] else "-" for c in range(cols)) + "\n" for r in range(rows))


main()
