#!/usr/bin/env python3
"""Rebuild this folder's puzzles.txt and ratings.tsv (see README.md).

    python3 build.py SX_RATED_DIR SX_BUCKET_DIR PUZZLEKIT_SUDOKU_JSON OUT_DIR

SX_RATED_DIR: a checkout of a Sudoku Exchange puzzle-bank fork whose files are split by
Sukaku Explainer rating (`2.5.txt` ... `9.3.txt`, lines `HASH PUZZLE RATING`).
SX_BUCKET_DIR: one that has `easy_puzzle_and_solution.txt` and
`medium_puzzle_and_solution.txt` (lines `PUZZLE SOLUTION`). PUZZLEKIT_SUDOKU_JSON: puzzlekit's
Sudoku_dataset.json (its one 9x9 puzzle is taken). Needs hodoku-py. Seeded: the same inputs and
hodoku-py version give the same files. Took 28 minutes of CPU (two processes).
"""
import json
import os
import random
import sys
from collections import Counter, defaultdict
from multiprocessing import Pool

from hodoku import Solver
from hodoku.core.types import DifficultyType
from hodoku.generator.generator import SudokuGenerator
from hodoku.config import DEFAULT_CONFIG

SEED = 45
PER_LEVEL = 200
HODOKU_PER_LEVEL = 50          # the rest of each level comes from the other sources
HODOKU_TRIES = 3000            # random symmetric puzzles from HoDoKu's generator
SX_PER_RATING = 25             # Sudoku Exchange puzzles sampled per SE rating value
SX_PER_BUCKET = 150            # ... from the easy (SE < 1.5) and medium (SE < 2.5) buckets
LEVELS = ["EASY", "MEDIUM", "HARD", "UNFAIR", "EXTREME"]

_solver = None


def rate(p):
    global _solver
    if _solver is None:
        _solver = Solver()
    r = _solver.rate(p)
    return r.score, r.level.name


def hodoku_one(i):
    """One puzzle of HoDoKu's generator (seeded), rated; None if Generator.generate(level)
    would reject it for a score below the previous level's maximum."""
    p = SudokuGenerator(random.Random(SEED * 1_000_003 + i)).generate_sudoku(symmetric=True)
    score, level = rate(p)
    lv = DifficultyType[level]
    if lv.value > DifficultyType.EASY.value:
        prev = DifficultyType(lv.value - 1)
        if score < DEFAULT_CONFIG._difficulty_max_score[prev]:
            return None
    return p, score, level


def rate_cand(c):
    p, src = c
    score, level = rate(p)
    return p, score, level, src


def main():
    rated_dir, bucket_dir, pk_json, out = sys.argv[1:5]
    rng = random.Random(SEED)
    cands = []
    for f in sorted(os.listdir(rated_dir), key=lambda n: (len(n), n)):
        if not f[0].isdigit() or not f.endswith(".txt"):
            continue
        rows = [l.split() for l in open(os.path.join(rated_dir, f)) if l.strip()]
        for h, p, se in rng.sample(rows, min(SX_PER_RATING, len(rows))):
            cands.append((p, "sx:" + se))
    for name, tag in (("easy", "sx:<1.5"), ("medium", "sx:<2.5")):
        rows = [l.split()[0] for l in open(os.path.join(bucket_dir, name + "_puzzle_and_solution.txt")) if l.strip()]
        for p in rng.sample(rows, SX_PER_BUCKET):
            cands.append((p, tag))
    pk = json.load(open(pk_json))
    for key, item in sorted(pk["data"].items()):
        lines = item["problem"].split("\n")
        if lines[0].split() == ["9", "9"]:
            p = "".join("0" if t == "-" else t for l in lines[1:10] for t in l.split())
            num = item["source"].rsplit("/", 1)[-1].split(".")[0]
            cands.append((p, "janko:" + num))
    seen = set()
    cands = [c for c in cands if not (c[0] in seen or seen.add(c[0]))]
    print(f"{len(cands)} candidates from the public sets", file=sys.stderr)

    with Pool(2) as pool:
        hod = [r for r in pool.imap(hodoku_one, range(HODOKU_TRIES), chunksize=20) if r]
        print("hodoku generator:", Counter(r[2] for r in hod), file=sys.stderr)
        pub = list(pool.imap(rate_cand, cands, chunksize=4))
    print("public sets:", Counter(r[2] for r in pub), file=sys.stderr)

    by_level = defaultdict(list)
    for p, score, level, src in pub:
        by_level[level].append((p, score, level, src))
    hod_by_level = defaultdict(list)
    for p, score, level in hod:
        if p not in seen:
            seen.add(p)
            hod_by_level[level].append((p, score, level, "hodoku-gen"))

    chosen = []
    for level in LEVELS:
        pool_pub = by_level[level]
        janko = [c for c in pool_pub if c[3].startswith("janko")]
        h = hod_by_level[level][:HODOKU_PER_LEVEL]
        # Sudoku Exchange: round-robin over the SE ratings so the level's range is covered.
        groups = defaultdict(list)
        for c in pool_pub:
            if not c[3].startswith("janko"):
                groups[c[3]].append(c)
        for g in groups.values():
            rng.shuffle(g)
        need = PER_LEVEL - len(h) - len(janko)
        sx = []
        keys = sorted(groups)
        while len(sx) < need and any(groups[k] for k in keys):
            for k in keys:
                if groups[k] and len(sx) < need:
                    sx.append(groups[k].pop())
        # Too few public ones at this level: top up from HoDoKu's generator.
        h += hod_by_level[level][HODOKU_PER_LEVEL:HODOKU_PER_LEVEL + PER_LEVEL - len(h) - len(janko) - len(sx)]
        chosen += janko + sx + h
        print(level, "janko", len(janko), "sx", len(sx), "hodoku", len(h), file=sys.stderr)

    rng.shuffle(chosen)
    with open(os.path.join(out, "puzzles.txt"), "w") as f:
        for p, *_ in chosen:
            f.write(p.replace("0", ".") + "\n")
    with open(os.path.join(out, "ratings.tsv"), "w") as f:
        f.write("id\tpuzzle\thodoku_score\thodoku_level\tsource\n")
        for i, (p, score, level, src) in enumerate(chosen, 1):
            f.write(f"{i:04d}\t{p.replace('0', '.')}\t{score}\t{level.capitalize()}\t{src}\n")


if __name__ == "__main__":
    main()
