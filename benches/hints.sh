#!/usr/bin/env bash
# `solve kakuro FILE --hints` on generated non-unique Kakuro boards (issue 45), whole process:
# CPU (user + system) and wall, min / median of RUNS runs, each cut at LIMIT seconds; with
# PEER, a second command on the same files side by side ({} is the board's path), e.g. a
# native build of cspuz_rs_puzzles' solve_kakuro behind a small driver
# (docs/performance.md#hints-backbone says which commit was measured).
# GENRES="slitherlink masyu nurikabe" times those genres' boards from
# benches/generators/grid_random.py instead (sizes GRID_SIZES, clues kept KEEPS); in PEER, {g}
# is the genre.
#   bash benches/hints.sh                       RUNS=3 LIMIT=300 SIZES="15 20" SEEDS="1 2 3"
#   PEER='/path/to/driver {}' bash benches/hints.sh
#   GENRES="masyu nurikabe" GRID_SIZES="20 30" KEEPS="0.3 0.6" PEER='/path/to/driver {g} {}' bash benches/hints.sh
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
limit=${LIMIT:-300}
bin=${BIN:-target/release/puzzle-sat}
[ -n "${BIN:-}" ] || cargo build --release -q
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# min and median of the numbers on standard input
stats() { sort -g | awk '{a[NR]=$1} END {printf "%.2f / %.2f", a[1], a[int((NR+1)/2)]}'; }

# times CMD... RUNS times: "cpu_min / cpu_median  wall_min / wall_median"
measure() {
    : > "$work/cpu"; : > "$work/wall"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%U %S %e" -o "$work/t" timeout "$limit" "$@" > /dev/null 2>&1
        awk '{print $1 + $2}' "$work/t" >> "$work/cpu"
        awk '{print $3}' "$work/t" >> "$work/wall"
    done
    echo "$(stats < "$work/cpu")  $(stats < "$work/wall")"
}

printf '%-24s %-28s %s\n' board "ours: CPU min/med  wall min/med" "${PEER:+peer: CPU min/med  wall min/med}"
if [ -n "${GENRES:-}" ]; then
    for g in $GENRES; do
        for n in ${GRID_SIZES:-20 30}; do
            for keep in ${KEEPS:-0.3 0.6}; do
                for s in ${SEEDS:-1 2}; do
                    f="$work/$g-${n}x${n}-k${keep}-s${s}.txt"
                    python3 benches/generators/grid_random.py "$g" "$n" "$n" "$keep" "$s" > "$f"
                    ours=$(measure "$bin" solve "$g" "$f" --hints)
                    peer=""
                    if [ -n "${PEER:-}" ]; then
                        cmd=${PEER//\{g\}/$g}
                        # shellcheck disable=SC2086
                        peer=$(measure ${cmd//\{\}/$f})
                    fi
                    printf '%-24s %-28s %s\n' "$g ${n}x${n} k$keep s$s" "$ours" "$peer"
                done
            done
        done
    done
    exit 0
fi
for n in ${SIZES:-15 20}; do
    for black in 0.25 0.35; do
        for s in ${SEEDS:-1 2 3}; do
            f="$work/kakuro-${n}x${n}-b${black}-s${s}.txt"
            python3 benches/generators/kakuro_random.py "$n" "$n" "$s" "$black" 9 > "$f" 2> /dev/null
            ours=$(measure "$bin" solve kakuro "$f" --hints)
            peer=""
            if [ -n "${PEER:-}" ]; then
                # shellcheck disable=SC2086
                peer=$(measure ${PEER//\{\}/$f})
            fi
            printf '%-24s %-28s %s\n' "${n}x${n} b$black s$s" "$ours" "$peer"
        done
    done
done
