#!/bin/sh
# Remakes benches/data/hard, the boards of `cargo bench --bench corpus -- hard`: classes our
# own generators do not make, each from a seed recorded here in its file name.
set -eu
cd "$(dirname "$0")"
out=../data/hard
mkdir -p "$out"
for n in 40 100 150; do
    for cells in 3 6 8; do
        python3 tatamibari_sparse.py "$n" "$n" 1 "$cells" 12 > "$out/tatamibari-sparse-${n}x${n}-c${cells}-s1.txt" 2>/dev/null
    done
done
for n in 10 12 14 16; do
    for density in 0.15 0.2 0.28; do
        python3 kakkuro_painting.py "$n" 1 "$density" 8 > "$out/kakkuro-painting-${n}x${n}-d${density}-s1.txt"
    done
done
