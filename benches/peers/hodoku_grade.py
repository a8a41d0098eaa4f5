#!/usr/bin/env python3
"""A peer for sudoku grading: HoDoKu's difficulty (hodoku-py), and a comparison with ours.

HoDoKu solves the puzzle as a person would, always taking the simplest technique that applies
(singles, then intersections, subsets, fish, wings, chains, ALS, ..., forcing nets, and brute
force last). Its score is the sum of each applied step's base score; its level is the hardest
technique's level (Easy, Medium, Hard, Unfair, Extreme), raised while the score passes the
level's maximum (800, 1000, 1600, 1800).

    pip install hodoku-py
    python3 hodoku_grade.py rate PUZZLES [-o RATINGS.tsv] [-j N] [--no-unique-check]
    python3 hodoku_grade.py compare RATINGS.tsv GRADES [--min RHO]

`rate` reads a file of one-line 9x9 sudokus (81 characters, `.` or `0` for a blank; blank lines
and lines starting with `#` are passed over), or a ratings TSV (its `puzzle` column, keeping its
ids and sources), rates each with hodoku-py and writes the TSV `id, puzzle, hodoku_score,
hodoku_level, source`. An id is the puzzle's line number, four digits (`0007`), which is the
LINE of the `FILE:LINE` that `puzzle-sat solve`/`run` name a collection's puzzles with. Each
puzzle is first checked for a unique solution (HoDoKu's own backtracking counter); one that
has none or several is left out with a warning. The CPU time of the ratings goes to stderr.

`compare` reads the ratings TSV and our grades: a TSV `id, number, level` (a header line is
optional), or JSON lines (`puzzle-sat grade --format json`), whose id is taken from `id`,
`item` or `file`, the number from `number`, `score`, `difficulty` or `grade`, the level from
`level`. Ids match by their last number (`0007`, `7` and `puzzles.txt:7` are one puzzle). It
prints the Spearman rank correlation between our number and HoDoKu's score (average ranks for
ties, computed here: no SciPy needed), the same for our level against HoDoKu's level, and the
table of our level (rows) against HoDoKu's (columns). Our levels are ordered by number when
they are numbers, as HoDoKu's when they are HoDoKu's names, else by their mean number.
`--min RHO`: exit 1 when the number-vs-score Spearman is below RHO (issue 45 asks for 0.8).
Ratings of a puzzle set: benches/data/sudoku-graded (its README has reference points).
"""
import argparse
import json
import math
import re
import sys
import time
from collections import defaultdict

LEVELS = ["Easy", "Medium", "Hard", "Unfair", "Extreme"]


# ---------------------------------------------------------------------------------------------
# rate

def read_puzzles(path):
    """(id, puzzle, source) for each puzzle of a one-line file or a ratings TSV."""
    text = open(path, encoding="utf-8-sig").read().splitlines()
    out = []
    if text and text[0].startswith("id\t"):
        head = text[0].split("\t")
        ci, cp = head.index("id"), head.index("puzzle")
        cs = head.index("source") if "source" in head else None
        for line in text[1:]:
            if line.strip():
                f = line.split("\t")
                out.append((f[ci], f[cp], f[cs] if cs is not None else path))
        return out
    for n, line in enumerate(text, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if len(s) != 81 or any(ch not in ".0123456789" for ch in s):
            sys.exit(f"{path}:{n}: not a one-line 9x9 sudoku (81 characters of 1-9, . or 0)")
        out.append((f"{n:04d}", s, path))
    return out


_solver = None
_gen = None


def _rate_one(args):
    puzzle, check_unique = args
    global _solver, _gen
    from hodoku import Generator, Solver
    if _solver is None:
        _solver, _gen = Solver(), Generator()
    start = time.process_time()
    verdict = _gen.validate(puzzle) if check_unique else "valid"
    if verdict != "valid":
        return None, None, verdict, time.process_time() - start
    r = _solver.rate(puzzle)
    return r.score, r.level.name.capitalize(), verdict, time.process_time() - start


def cmd_rate(a):
    import hodoku  # noqa: F401  (fail early with a clear message when it is missing)
    from importlib.metadata import version
    items = read_puzzles(a.puzzles)
    jobs = [(p.replace(".", "0"), not a.no_unique_check) for _, p, _ in items]
    wall = time.time()
    if a.jobs > 1:
        from multiprocessing import Pool
        with Pool(a.jobs) as pool:
            results = list(pool.imap(_rate_one, jobs, chunksize=4))
    else:
        results = [_rate_one(j) for j in jobs]
    wall = time.time() - wall
    out = open(a.output, "w") if a.output else sys.stdout
    out.write("id\tpuzzle\thodoku_score\thodoku_level\tsource\n")
    cpu, dropped, counts = 0.0, 0, defaultdict(int)
    for (pid, p, src), (score, level, verdict, t) in zip(items, results):
        cpu += t
        if score is None:
            dropped += 1
            print(f"{pid}: {verdict} (not one solution), left out", file=sys.stderr)
            continue
        counts[level] += 1
        out.write(f"{pid}\t{p.replace('0', '.')}\t{score}\t{level}\t{src}\n")
    if a.output:
        out.close()
    print(f"hodoku-py {version('hodoku-py')}: rated {len(items) - dropped} puzzles, "
          f"{dropped} left out; CPU {cpu:.1f} s in the ratings (sum over {a.jobs} process(es)), "
          f"wall {wall:.1f} s", file=sys.stderr)
    print("levels: " + ", ".join(f"{l} {counts[l]}" for l in LEVELS if counts[l]), file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# compare

def average_ranks(xs):
    """Ranks 1..n, ties sharing the mean of the ranks they span."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return float("nan")
    return sxy / math.sqrt(sxx * syy)


def spearman(xs, ys):
    """Spearman's rho with average ranks for ties: Pearson's r of the ranks."""
    return pearson(average_ranks(xs), average_ranks(ys))


def key_of(pid):
    m = re.search(r"(\d+)\D*$", str(pid))
    return int(m.group(1)) if m else str(pid)


def read_ratings(path):
    lines = open(path, encoding="utf-8-sig").read().splitlines()
    head = lines[0].split("\t")
    ci, cs, cl = head.index("id"), head.index("hodoku_score"), head.index("hodoku_level")
    out = {}
    for line in lines[1:]:
        if line.strip():
            f = line.split("\t")
            out[key_of(f[ci])] = (float(f[cs]), f[cl])
    return out


def _num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def read_grades(path):
    """{key: (number, level)} from a TSV id/number/level or from JSON lines."""
    out = {}
    for n, line in enumerate(open(path, encoding="utf-8-sig"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            o = json.loads(line)
            pid = next((o[k] for k in ("id", "item", "file") if k in o), None)
            num = next((o[k] for k in ("number", "score", "difficulty", "grade") if k in o), None)
            if pid is None or _num(num) is None:
                sys.exit(f"{path}:{n}: a JSON line without an id (id/item/file) or a number")
            out[key_of(pid)] = (float(num), str(o.get("level", "")))
            continue
        f = line.split("\t")
        if len(f) < 2:
            sys.exit(f"{path}:{n}: expected id<TAB>number<TAB>level")
        if _num(f[1]) is None:
            if n == 1:
                continue  # a header
            sys.exit(f"{path}:{n}: {f[1]!r} is not a number")
        out[key_of(f[0])] = (float(f[1]), f[2] if len(f) > 2 else "")
    return out


def level_index(label):
    for i, l in enumerate(LEVELS):
        if label.lower() == l.lower():
            return i
    return None


def cmd_compare(a):
    ratings = read_ratings(a.ratings)
    grades = read_grades(a.grades)
    keys = [k for k in ratings if k in grades]
    missing = [k for k in ratings if k not in grades]
    extra = [k for k in grades if k not in ratings]
    if len(keys) < 3:
        sys.exit(f"only {len(keys)} puzzles are in both files: too few to compare")
    ours = [grades[k][0] for k in keys]
    theirs = [ratings[k][0] for k in keys]
    rho = spearman(ours, theirs)
    print(f"puzzles compared: {len(keys)} ({len(missing)} rated but not graded, "
          f"{len(extra)} graded but not rated)")
    print(f"Spearman rho, our number vs HoDoKu score: {rho:.4f}")

    labels = sorted({grades[k][1] for k in keys})
    if all(_num(l) is not None for l in labels):
        labels.sort(key=float)
    elif all(level_index(l) is not None for l in labels):
        labels.sort(key=level_index)
    else:
        mean = {l: sum(grades[k][0] for k in keys if grades[k][1] == l)
                / sum(1 for k in keys if grades[k][1] == l) for l in labels}
        labels.sort(key=lambda l: mean[l])
    rank_of = {l: i for i, l in enumerate(labels)}
    hl = [level_index(ratings[k][1]) for k in keys]
    if len(labels) > 1 and None not in hl:
        rho_l = spearman([rank_of[grades[k][1]] for k in keys], hl)
        print(f"Spearman rho, our level vs HoDoKu level: {rho_l:.4f}")

    table = defaultdict(int)
    for k in keys:
        table[(grades[k][1], ratings[k][1])] += 1
    corner = "ours \\ HoDoKu"
    width = max([len(corner)] + [len(l) for l in labels])
    print()
    print(f"{corner:<{width}}" + "".join(f"{l:>9}" for l in LEVELS) + f"{'total':>9}")
    for l in labels:
        row = [table[(l, h)] for h in LEVELS]
        print(f"{l or '(none)':<{width}}" + "".join(f"{c:>9}" for c in row) + f"{sum(row):>9}")
    cols = [sum(table[(l, h)] for l in labels) for h in LEVELS]
    print(f"{'total':<{width}}" + "".join(f"{c:>9}" for c in cols) + f"{sum(cols):>9}")
    if a.min is not None:
        ok = rho >= a.min
        print(f"\nthreshold {a.min}: {'pass' if ok else 'FAIL'}")
        if not ok:
            sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rate", help="rate puzzles with hodoku-py, write the ratings TSV")
    r.add_argument("puzzles")
    r.add_argument("-o", "--output")
    r.add_argument("-j", "--jobs", type=int, default=1)
    r.add_argument("--no-unique-check", action="store_true")
    c = sub.add_parser("compare", help="Spearman and level table: our grades vs HoDoKu's")
    c.add_argument("ratings")
    c.add_argument("grades")
    c.add_argument("--min", type=float)
    a = ap.parse_args()
    (cmd_rate if a.cmd == "rate" else cmd_compare)(a)


if __name__ == "__main__":
    main()
