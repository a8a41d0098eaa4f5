#!/usr/bin/env bash
# MaxSAT and PB solvers on `encode --format opb|wcnf` against `solve`, side by side: CPU time
# (user + system, min / median of RUNS runs, each cut at LIMIT seconds) and whether each
# decoded optimum is `solve`'s proved one. A benchmark, not a test (tests/pb.rs is the test).
#   bash benches/pb.sh [FILE...]     (default: the P1074 data and the bundled Kakkuro boards)
#   RUNS=3 LIMIT=300 bash benches/pb.sh
# Needs clasp (Debian), rc2.py (PyPI python-sat) and python3's exact (PyPI exact).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-1}
limit=${LIMIT:-120}
bin=target/release/puzzle-sat
cargo build --release -q
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=("$@")
((${#files[@]})) || files=(tests/data/target-sudoku/noip2009-*.in tests/data/kakkuro/*.txt)

# min / median CPU seconds of `$@` over $runs runs; the last run's output in $work/out.
timed() {
    local times=()
    for ((r = 0; r < runs; r++)); do
        local t
        # time's report goes to a file of its own: the command's stderr is thrown away.
        /usr/bin/time -o "$work/time" -f "%U %S" timeout "$limit" "$@" >"$work/out" 2>/dev/null
        echo $? >"$work/rc"
        t=$(tail -1 "$work/time" | awk '{printf "%.2f", $1 + $2}')
        times+=("$t")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {printf "%s / %s", a[1], a[int((NR + 1) / 2)]}'
}

printf '| %-22s | %-16s | %-22s | %-22s | %-22s |\n' case "solve" "clasp (OPB)" "RC2 (WCNF)" "Exact (OPB)"
printf '|%s|%s|%s|%s|%s|\n' "------------------------" "------------------" "------------------------" "------------------------" "------------------------"
for f in "${files[@]}"; do
    case $f in *kakkuro*) p=kakkuro ;; *) p=target-sudoku ;; esac
    name=$(basename "$f")
    "$bin" encode "$p" "$f" --format opb -o "$work/f.opb" 2>/dev/null
    "$bin" encode "$p" "$f" --format wcnf -o "$work/f.wcnf" 2>/dev/null
    t=$(timed "$bin" solve "$p" "$f" --format json)
    ours=$(grep -o '"status":"[a-z_]*"\|"score":"\?[0-9-]*' "$work/out" | tr '\n' ' ')
    want=$(grep -o '"score":"\?[0-9-]*' "$work/out" | tr -d '"' | cut -d: -f2)
    row=("$t")
    for s in clasp rc2 exact; do
        case $s in
            clasp) cmd=(clasp "$work/f.opb") ;;
            rc2) cmd=(rc2.py -c b -s cd19 "$work/f.wcnf") ;;
            exact) cmd=(python3 tests/solvers/exact_opb.py "$work/f.opb") ;;
        esac
        t=$(timed "${cmd[@]}")
        got=$("$bin" decode "$p" "$f" --model "$work/out" --format json 2>/dev/null | grep -o '"score":"\?[0-9-]*' | tr -d '"' | cut -d: -f2)
        status=$(grep -m1 '^s ' "$work/out" | cut -c3-)
        if [ "$(cat "$work/rc")" = 124 ]; then
            row+=("over $limit s")
        elif [ -n "$got" ] && [ "$got" = "$want" ] && [ "$status" = "OPTIMUM FOUND" ]; then
            row+=("$t same")
        elif grep -q "ERROR\|Error\|invalid" "$work/out" 2>/dev/null || [ -z "$status" ]; then
            row+=("$t cannot read")
        else
            row+=("$t ${status:-none} ${got:-}")
        fi
    done
    printf '| %-22s | %-16s | %-22s | %-22s | %-22s |\n' "$name" "${row[0]}" "${row[1]}" "${row[2]}" "${row[3]}"
    [ -n "${ours}" ] || echo "  ($name: solve gave no answer)"
done
