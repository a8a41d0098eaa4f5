#!/usr/bin/env python3
"""A bench-only peer: the textbook ASP models of six genres (the .lp files here), run by clingo.

Reads a puzzlekit JSON set (`{"data": {KEY: {"problem", "solution", ...}}}`), turns each
puzzle into facts, runs `clingo MODEL.lp - --models 2 --time-limit T` (one process at a time)
under `/usr/bin/time`, and prints a row per puzzle: key, verdict (unique: one answer set and
the search exhausted; two; none; timeout), CPU seconds (user + sys of clingo, grounding
included), and whether the answer equals the dataset's solution.

    python3 run.py GENRE DATASET.json [--limit SECONDS] [--first N] [--keys K1,K2]
                   [--out FILE.tsv] [--budget SECONDS]

GENRE: nurikabe, hitori, heyawake, lits, slitherlink, masyu.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CLINGO = "/usr/bin/clingo"


class Skip(Exception):
    pass


def grid(text, nrows=None):
    """The size line and the rows of words after it; `nrows` rows are expected (default the
    size line's rows), each of the size line's columns."""
    lines = [l.split() for l in text.strip("\n").split("\n")]
    lines = [l for l in lines if l]
    try:
        rows, cols = int(lines[0][0]), int(lines[0][1])
    except (ValueError, IndexError):
        raise Skip("no size line")
    body = lines[1:]
    want = nrows(rows) if nrows else rows
    if len(body) != want:
        raise Skip(f"{len(body)} rows, the size line says {want}")
    for r in body:
        if len(r) != cols:
            raise Skip(f"a row of {len(r)} words, the size line says {cols}")
    return rows, cols, body


def pieces(rows, cols, label):
    """Each piece of side-by-side cells with one label: a room, numbered from 0."""
    room = {}
    count = 0
    for r in range(rows):
        for c in range(cols):
            if (r, c) in room:
                continue
            room[(r, c)] = count
            stack = [(r, c)]
            while stack:
                a, b = stack.pop()
                for x, y in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                    if 0 <= x < rows and 0 <= y < cols and (x, y) not in room \
                            and label[x][y] == label[a][b]:
                        room[(x, y)] = count
                        stack.append((x, y))
            count += 1
    return room


def cells(rows, cols):
    return [f"cell(1..{rows},1..{cols})."]


# --- problems to facts -----------------------------------------------------------------------

def nurikabe(text):
    rows, cols, g = grid(text)
    facts = cells(rows, cols)
    for r in range(rows):
        for c in range(cols):
            w = g[r][c]
            if w == "-":
                continue
            if w == "?":
                facts.append(f"num({r+1},{c+1},0).")
            elif w.isdigit() and int(w) > 0:
                facts.append(f"num({r+1},{c+1},{int(w)}).")
            else:
                raise Skip(f"word {w!r}")
    return rows, cols, facts


def hitori(text):
    rows, cols, g = grid(text)
    facts = cells(rows, cols)
    for r in range(rows):
        for c in range(cols):
            w = g[r][c]
            if w.isdigit():
                facts.append(f"num({r+1},{c+1},{int(w)}).")
            elif w not in ("-", "?", "@"):
                raise Skip(f"word {w!r}")
    return rows, cols, facts


def heyawake(text):
    rows, cols, g = grid(text, lambda r: 2 * r)
    nums, labels = g[:rows], g[rows:]
    room = pieces(rows, cols, labels)
    facts = cells(rows, cols)
    facts += [f"room({r+1},{c+1},{k})." for (r, c), k in room.items()]
    clued = {}
    for r in range(rows):
        for c in range(cols):
            w = nums[r][c]
            if w == "-":
                continue
            if not w.isdigit():
                raise Skip(f"word {w!r}")
            k = room[(r, c)]
            if k in clued and clued[k] != int(w):
                raise Skip("two numbers in a room")
            clued[k] = int(w)
    facts += [f"clue({k},{n})." for k, n in clued.items()]
    return rows, cols, facts


def lits(text):
    rows, cols, g = grid(text)
    room = pieces(rows, cols, g)
    facts = cells(rows, cols)
    facts += [f"room({r+1},{c+1},{k})." for (r, c), k in room.items() if g[r][c] != "@"]
    return rows, cols, facts


def slitherlink(text):
    rows, cols, g = grid(text)
    facts = [f"rows({rows}).", f"cols({cols})."]
    for r in range(rows):
        for c in range(cols):
            w = g[r][c]
            if w in ("0", "1", "2", "3", "4"):
                facts.append(f"num({r+1},{c+1},{w}).")
            elif w not in ("-", ".", "?"):
                raise Skip(f"word {w!r}")
    return rows, cols, facts


def masyu(text):
    rows, cols, g = grid(text)
    facts = cells(rows, cols)
    for r in range(rows):
        for c in range(cols):
            w = g[r][c].lower()
            if w in ("w", "1"):
                facts.append(f"pearl({r+1},{c+1},w).")
            elif w in ("b", "2"):
                facts.append(f"pearl({r+1},{c+1},b).")
            elif w not in ("-", "."):
                raise Skip(f"word {w!r}")
    return rows, cols, facts


# --- answer sets to the dataset's solution form ------------------------------------------------

def atoms(values):
    out = []
    for a in values:
        name, args = a.split("(", 1)
        out.append((name, tuple(int(x) if x.lstrip("-").isdigit() else x
                                for x in args.rstrip(")").split(","))))
    return out


def shaded_grid(rows, cols, values):
    g = [["-"] * cols for _ in range(rows)]
    for name, (r, c) in atoms(values):
        g[r - 1][c - 1] = "x"
    return g


def lits_grid(rows, cols, values):
    g = [["-"] * cols for _ in range(rows)]
    for name, (r, c, s) in atoms(values):
        g[r - 1][c - 1] = s.upper()
    return g


def slitherlink_grid(rows, cols, values):
    """Cells inside the loop `x`: an odd number of vertical loop edges to their left."""
    vert = {(i, j) for name, (i, j) in atoms(values) if name == "v"}
    g = [["-"] * cols for _ in range(rows)]
    for r in range(rows):
        inside = False
        for c in range(cols):
            if (r, c) in vert:  # v(I,J): the edge (I,J)-(I+1,J), the left side of cell (I+1,J+1)
                inside = not inside
            g[r][c] = "x" if inside else "-"
    return g


def masyu_grid(rows, cols, values):
    g = [[set() for _ in range(cols)] for _ in range(rows)]
    for name, (r, c, d) in atoms(values):
        g[r - 1][c - 1].add(d)
    return [["".join(sorted(s)) or "-" for s in row] for row in g]


def expected_grid(genre, rows, cols, solution):
    if not solution or not solution.strip():
        return None
    try:
        r2, c2, g = grid(solution)
    except Skip:
        return None
    if (r2, c2) != (rows, cols):
        return None
    if genre == "masyu":
        return [["".join(sorted(w)) if w != "-" else "-" for w in row] for row in g]
    return g


GENRES = {
    "nurikabe": (nurikabe, shaded_grid),
    "hitori": (hitori, shaded_grid),
    "heyawake": (heyawake, shaded_grid),
    "lits": (lits, lits_grid),
    "slitherlink": (slitherlink, slitherlink_grid),
    "masyu": (masyu, masyu_grid),
}


def run_clingo(genre, facts, limit):
    """(verdict, CPU seconds, witnesses)."""
    model = os.path.join(HERE, genre + ".lp")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        cmd = ["/usr/bin/time", "-f", "%U %S", "-o", tf.name, CLINGO, model, "-",
               "--models", "2", "--time-limit", str(limit), "--outf=2", "--quiet=0"]
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = p.communicate("\n".join(facts) + "\n", timeout=limit + 20)
            killed = False
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            killed = True
        t = tf.read().split()
        try:
            cpu = float(t[-2]) + float(t[-1])
        except (IndexError, ValueError):
            cpu = float("nan")
    if killed:
        return "timeout", cpu, []
    try:
        res = json.loads(out)
    except json.JSONDecodeError:
        return "error", cpu, [err.strip()[-200:]]
    wit = [w["Value"] for call in res.get("Call", []) for w in call.get("Witnesses", [])]
    more = res.get("Models", {}).get("More", "no")
    result = res.get("Result")
    interrupted = "TIME LIMIT" in res or "INTERRUPTED" in (result or "")
    n = len(wit)
    if n >= 2:
        return "two", cpu, wit
    if result == "UNSATISFIABLE" and not interrupted:
        return "none", cpu, wit
    # clingo says More "no" only when the search space is exhausted
    if n == 1 and more == "no" and not interrupted:
        return "unique", cpu, wit
    return "timeout", cpu, wit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("genre", choices=GENRES)
    ap.add_argument("dataset")
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="only the first N puzzles")
    ap.add_argument("--keys", default="", help="only these keys, comma-separated")
    ap.add_argument("--out", default="", help="also write the rows to this TSV file")
    ap.add_argument("--budget", type=float, default=0,
                    help="start no new puzzle after this many seconds (wall) of the whole run")
    args = ap.parse_args()
    parse, answer = GENRES[args.genre]
    data = json.load(open(args.dataset))["data"]
    keys = list(data)
    if args.keys:
        keys = args.keys.split(",")
    if args.first:
        keys = keys[: args.first]
    out = open(args.out, "w") if args.out else None
    header = "key\tsize\tverdict\tcpu_s\tmodels\tequal\tnote"
    print(header, flush=True)
    if out:
        print(header, file=out, flush=True)
    start = time.monotonic()
    for key in keys:
        if args.budget and time.monotonic() - start > args.budget:
            print(f"# budget of {args.budget:.0f} s spent: stopped before {key}", flush=True)
            break
        entry = data[key]
        try:
            rows, cols, facts = parse(entry.get("problem") or "")
        except Skip as e:
            row = [key, "", "skipped", "", "", "", str(e)]
        else:
            verdict, cpu, wit = run_clingo(args.genre, facts, args.limit)
            exp = expected_grid(args.genre, rows, cols, entry.get("solution"))
            if verdict == "error":
                equal, note = "", wit[0] if wit else ""
            elif exp is None:
                equal, note = "n/a", "no readable solution"
            else:
                got = [answer(rows, cols, w) == exp for w in wit]
                equal = ",".join("yes" if g else "no" for g in got) or "-"
                note = ""
            row = [key, f"{rows}x{cols}", verdict, f"{cpu:.2f}", str(len(wit)), equal, note]
        line = "\t".join(row)
        print(line, flush=True)
        if out:
            print(line, file=out, flush=True)


if __name__ == "__main__":
    main()
